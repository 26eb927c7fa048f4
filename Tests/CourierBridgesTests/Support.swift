#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import CourierLocking
import CourierRuntime
import CourierTestServer
import Foundation
import MarketplaceAPI

/// Starts a server, runs `body` with the generated Marketplace client pointed at it through
/// URLSession, and stops the server even when `body` throws.
func withShop<T>(
    onEvent: (@Sendable (ClientEvent) -> Void)? = nil,
    _ body: (TestServer, MarketplaceClient) async throws -> T
) async throws -> T {
    let server = try await TestServer.start()
    // Budgets and breakers of the client's own, so that a reused port never meets another test's state.
    var configuration = APIClient.Configuration(resilience: Resilience(sharing: .isolated))
    configuration.onEvent = onEvent
    let shop = MarketplaceClient(baseURL: server.baseURL, transport: URLSessionTransport(), xAPIKey: "partner-key",
                                 configuration: configuration)
    do {
        let result = try await body(server, shop)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A subscriber that records what it receives, asks for `initialDemand` when subscribed, and
/// lets a test await the completion instead of polling.
final class Recorder<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
    enum Event {
        case value(Input)
        case finished
        case failure(Failure)
    }

    private struct State {
        var events: [Event] = []
        var subscription: (any Subscription)?
        var completed = false
        var waiters: [CheckedContinuation<[Event], Never>] = []
    }

    let combineIdentifier = CombineIdentifier()
    private let initialDemand: Subscribers.Demand
    private let state = Locked(State())

    init(initialDemand: Subscribers.Demand = .unlimited) {
        self.initialDemand = initialDemand
    }

    var events: [Event] { state.withLock { $0.events } }

    func receive(subscription: any Subscription) {
        state.withLock { $0.subscription = subscription }
        subscription.request(initialDemand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        state.withLock { $0.events.append(.value(input)) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let waiters = state.withLock { state in
            switch completion {
            case .finished: state.events.append(.finished)
            case .failure(let error): state.events.append(.failure(error))
            }
            state.completed = true
            defer { state.waiters = [] }
            return (state.waiters, state.events)
        }
        for waiter in waiters.0 { waiter.resume(returning: waiters.1) }
    }

    /// Asks the subscription for more.
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.subscription }?.request(demand)
    }

    /// Cancels the subscription.
    func cancel() {
        state.withLock { $0.subscription }?.cancel()
    }

    /// Waits for the completion and returns every event received.
    func completion() async -> [Event] {
        await withCheckedContinuation { continuation in
            let done: [Event]? = state.withLock { state in
                if state.completed { return state.events }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}

/// One value set once and awaited, such as a completion handler's result or a client event.
final class Awaited<Value: Sendable>: @unchecked Sendable {
    private let state = Locked<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

    /// Sets the value (only the first one counts) and wakes every waiter.
    func set(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, once set.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready: Value? = state.withLock { state in
                    if let value = state.value { return value }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
