import CourierRuntime

/// A call started for a completion handler; cancel it to cancel the call.
///
/// The handler is called exactly once, also after ``cancel()``: a cancelled `APIClient` call
/// completes with `APIError.transport(_:)` of kind `TransportError.Kind.cancelled`, as the
/// async method throws it.
public struct CallHandle: Sendable, Hashable {
    private let task: Task<Void, Never>

    /// Starts `operation`, such as a generated client's method, and calls `completion` with its
    /// result.
    ///
    /// ```swift
    /// let call = CallHandle.start { () async throws(APIError<CreateOrderFailure>) in
    ///     try await shop.createOrder(body: order)
    /// } completion: { result in
    ///     DispatchQueue.main.async { show(result) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - operation: The call to run, in a task of its own.
    ///   - completion: Called once with the call's result, on the task that ran it.
    @discardableResult
    public static func start<Output: Sendable, Failure: Error>(
        _ operation: @escaping @Sendable () async throws(Failure) -> Output,
        completion: @escaping @Sendable (Result<Output, Failure>) -> Void
    ) -> CallHandle {
        CallHandle(task: Task {
            do throws(Failure) {
                completion(.success(try await operation()))
            } catch {
                completion(.failure(error))
            }
        })
    }

    /// Cancels the call: its task is cancelled, and with it the transfer.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        task.isCancelled
    }
}

extension APIClient {
    /// Sends a request and calls `completion` with the decoded response or the call's typed error.
    ///
    /// ```swift
    /// let call = shop.client.send(GetProductRequest(productID: "p-1")) { result in
    ///     DispatchQueue.main.async { show(result) }
    /// }
    /// // Later, if the screen goes away:
    /// call.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - resilience: This call's own retry and breaker choices, as for `APIClient.send(_:resilience:)`.
    ///   - completion: Called exactly once, on the task that ran the call; also after cancellation.
    /// - Returns: The started call, to cancel it.
    @discardableResult
    public func send<Request: APIRequest>(
        _ request: Request,
        resilience: EndpointResilience? = nil,
        completion: @escaping @Sendable (Result<Request.Response, APIError<Request.Failure>>) -> Void
    ) -> CallHandle {
        CallHandle.start({ () async throws(APIError<Request.Failure>) -> Request.Response in
            try await send(request, resilience: resilience)
        }, completion: completion)
    }
}
