import Foundation

extension ServerSentEvent {
    /// Whether, and how, an event stream reconnects when its connection ends.
    public struct Reconnection: Sendable, Hashable {
        /// The wait before reconnecting when the server never said (`retry:`); 3 s by default,
        /// as browsers do.
        public var defaultDelay: Duration
        /// How many times in a row to reconnect without receiving an event in between; `nil` for
        /// no limit. 10 by default.
        public var maximumAttempts: Int?

        /// Creates a reconnection policy.
        public init(defaultDelay: Duration = .seconds(3), maximumAttempts: Int? = 10) {
            self.defaultDelay = defaultDelay
            self.maximumAttempts = maximumAttempts
        }
    }
}

extension APIClient {
    /// Sends a request whose response is a `text/event-stream` (with `Accept: text/event-stream`)
    /// and returns its events as they arrive.
    ///
    /// Without `reconnection` the sequence ends when the response does. With it, the stream
    /// behaves as a browser's `EventSource`: when the connection ends or fails, the client
    /// waits as long as the server last asked (`retry:`, or the policy's default) and sends the
    /// request again with `Last-Event-ID` set to the last event ID it saw, so the server can
    /// resume. A 204 answer, a failed status (thrown as `APIError<Request.Failure>`), the task's
    /// cancellation or too many fruitless attempts end it.
    ///
    /// ```swift
    /// for try await event in client.serverSentEvents(WatchOrders(), reconnection: ServerSentEvent.Reconnection()) {
    ///     let order = try event.decodeData(as: Order.self)
    /// }
    /// ```
    public func serverSentEvents<Request: APIRequest>(
        _ request: Request,
        reconnection: ServerSentEvent.Reconnection? = nil,
        maximumEventSize: Int = 16 * 1024 * 1024
    ) -> ServerSentEventStream<Request> {
        ServerSentEventStream(client: self, request: request, reconnection: reconnection, maximumEventSize: maximumEventSize)
    }
}

/// The events of a request's `text/event-stream` response, reconnecting if asked; see
/// ``APIClient/serverSentEvents(_:reconnection:maximumEventSize:)``.
///
/// Its iteration throws `APIError<Request.Failure>` for the request itself,
/// ``TransportError`` for a connection that fails midway without reconnection, and
/// ``StreamingError`` for a stream that breaks the format's limits.
public struct ServerSentEventStream<Request: APIRequest>: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent

    let client: APIClient
    let request: Request
    let reconnection: ServerSentEvent.Reconnection?
    let maximumEventSize: Int

    /// Reads events, connecting and reconnecting as needed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let stream: ServerSentEventStream
        var current: ServerSentEvents<HTTPBody>.AsyncIterator?
        var lastEventID: String?
        var serverDelay: Duration?
        var fruitlessAttempts = 0
        var connectedOnce = false
        var finished = false

        /// The next event, or `nil` when the stream has ended for good.
        public mutating func next() async throws -> ServerSentEvent? {
            while !finished {
                if current == nil {
                    guard try await connect() else {
                        finished = true
                        return nil
                    }
                }
                do {
                    if let event = try await current?.next() {
                        lastEventID = event.id
                        serverDelay = event.retry ?? serverDelay
                        fruitlessAttempts = 0
                        return event
                    }
                    current = nil
                } catch let error as TransportError where error.kind != .cancelled && stream.reconnection != nil && !Task.isCancelled {
                    current = nil
                }
                if stream.reconnection == nil {
                    finished = true
                }
            }
            return nil
        }

        /// Connects, after the reconnection delay unless this is the first connection; `false`
        /// when the stream is over.
        private mutating func connect() async throws -> Bool {
            var fields = HTTPFields()
            fields[.accept] = "text/event-stream"
            if connectedOnce {
                guard let reconnection = stream.reconnection else { return false }
                fruitlessAttempts += 1
                if let limit = reconnection.maximumAttempts, fruitlessAttempts > limit { return false }
                try await Task.sleep(for: serverDelay ?? reconnection.defaultDelay)
                if let lastEventID, !lastEventID.isEmpty, let name = HTTPField.Name("Last-Event-ID") {
                    fields[name] = lastEventID
                }
            }
            connectedOnce = true
            let response = try await stream.client.stream(stream.request, resilience: nil, adding: fields)
            // WHATWG: a 204 tells the client to stop reconnecting.
            guard response.status != .noContent else { return false }
            current = response.body.serverSentEvents(maximumEventSize: stream.maximumEventSize).makeAsyncIterator()
            return true
        }
    }

    /// Starts reading; the first event's request is sent by the first call to `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }
}
