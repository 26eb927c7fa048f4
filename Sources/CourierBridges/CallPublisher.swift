#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import CourierLocking
import CourierRuntime

extension APIClient {
    /// A publisher that sends `request` once a subscriber asks for a value, then publishes the
    /// decoded response and finishes, or fails with the call's typed error.
    ///
    /// Nothing is sent when the publisher is made, only on demand, and every subscription sends
    /// the request anew. Cancelling the subscription cancels the call's task, which cancels the
    /// transfer; a cancelled subscription receives nothing more. Values arrive on the task that ran
    /// the call, so add `receive(on:)` for the main queue:
    ///
    /// ```swift
    /// shop.client.publisher(for: GetProductRequest(productID: "p-1"))
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { completion in … } receiveValue: { product in … }
    ///     .store(in: &subscriptions)
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - resilience: This call's own retry and breaker choices, as for `APIClient.send(_:resilience:)`.
    public func publisher<Request: APIRequest>(
        for request: Request,
        resilience: EndpointResilience? = nil
    ) -> AnyPublisher<Request.Response, APIError<Request.Failure>> {
        Publishers.call { () async throws(APIError<Request.Failure>) -> Request.Response in
            try await send(request, resilience: resilience)
        }
    }
}

extension Publishers {
    /// A publisher over any async throwing call, such as a generated client's method, run once a
    /// subscriber asks for a value: it publishes the call's result and finishes, or fails with its
    /// typed error.
    ///
    /// ```swift
    /// Publishers.call { () async throws(APIError<CreateOrderFailure>) in
    ///     try await shop.createOrder(body: order)
    /// }
    /// ```
    ///
    /// The call starts on demand, not when the publisher is made, and runs again for every
    /// subscription. Cancelling the subscription cancels the call's task; a cancelled subscription
    /// receives nothing more.
    ///
    /// - Parameter operation: The call to run.
    public static func call<Output: Sendable, Failure: Error>(
        _ operation: @escaping @Sendable () async throws(Failure) -> Output
    ) -> AnyPublisher<Output, Failure> {
        CallPublisher(operation: operation).eraseToAnyPublisher()
    }
}

/// Runs one async call per subscription, on the subscriber's first demand.
struct CallPublisher<Output: Sendable, Failure: Error>: Publisher {
    let operation: @Sendable () async throws(Failure) -> Output

    func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        // Held as AnySubscriber so that the subscription's task captures only Sendable metatypes.
        subscriber.receive(subscription: CallSubscription(subscriber: AnySubscriber(subscriber), operation: operation))
    }
}

/// One subscription's call: waits for demand, runs the call in a task, delivers its result once,
/// and cancels the task when cancelled.
///
/// The lock makes demand, cancellation and the task's end race safely: the task is made under
/// it, so a cancellation either sees the task or prevents it, and whichever of "finished" and
/// "cancelled" takes the subscriber first decides whether anything is delivered. Subscriber
/// methods are called outside the lock, so a subscriber may cancel from inside them.
final class CallSubscription<Output: Sendable, Failure: Error>: Subscription, @unchecked Sendable {
    private typealias Downstream = AnySubscriber<Output, Failure>

    private enum State {
        case awaitingDemand(Downstream)
        case running(Downstream, Task<Void, Never>)
        case done
    }

    private let state: Locked<State>
    private let operation: @Sendable () async throws(Failure) -> Output

    init(subscriber: AnySubscriber<Output, Failure>, operation: @escaping @Sendable () async throws(Failure) -> Output) {
        state = Locked(.awaitingDemand(subscriber))
        self.operation = operation
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        state.withLock { state in
            guard case .awaitingDemand(let subscriber) = state else { return }
            let task = Task { [self] in await run() }
            state = .running(subscriber, task)
        }
    }

    private func run() async {
        let result: Result<Output, Failure>
        do throws(Failure) {
            result = .success(try await operation())
        } catch {
            result = .failure(error)
        }
        finish(with: result)
    }

    func cancel() {
        let task: Task<Void, Never>? = state.withLock { state in
            defer { state = .done }
            if case .running(_, let task) = state { return task }
            return nil
        }
        task?.cancel()
    }

    private func finish(with result: Result<Output, Failure>) {
        let subscriber: Downstream? = state.withLock { state in
            guard case .running(let subscriber, _) = state else { return nil }
            state = .done
            return subscriber
        }
        guard let subscriber else { return }
        switch result {
        case .success(let value):
            // One value then finished, whatever demand remains: the call has nothing more to give.
            _ = subscriber.receive(value)
            subscriber.receive(completion: .finished)
        case .failure(let error):
            subscriber.receive(completion: .failure(error))
        }
    }
}
