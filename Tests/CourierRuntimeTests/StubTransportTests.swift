import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite struct StubTransportTests {
    @Test func scriptedSequencesPlayInOrderAndTheLastRepeats() async throws {
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", .status(503), .failure(.connectionLost), .json(#"{"id":1,"name":"a"}"#))
        let client = stubClient(stub) { $0.resilience = .singleAttempt }
        let first = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
        #expect(first?.status?.code == 503)
        let second = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
        #expect(second?.category == .transport(.connectionLost))
        #expect(try await client.send(GetUser(id: "1")).name == "a")
        #expect(try await client.send(GetUser(id: "2")).name == "a")
        #expect(stub.requests(.get, "/users/{id}").count == 4)
        #expect(stub.requests(.get, "/users/2").count == 1)
    }

    @Test func routesMatchByMethodAndPathAndUnmatchedRequestsFailClearly() async {
        let stub = StubTransport()
        stub.on(.get, "/a", .status(204))
        let client = stubClient(stub)
        let wrongMethod = await capture { () async throws(APIError<Never>) in
            try await client.send(Probe<NoContent, Never>(method: .post, path: "/a"))
        }
        guard case .transport(let error) = wrongMethod else {
            Issue.record("expected a transport error, got \(String(describing: wrongMethod))")
            return
        }
        #expect(error.kind == .other)
        #expect(!error.requestMayHaveBeenSent)
        #expect(error.underlying.map { String(describing: $0) } == "StubTransport has no route for POST /a")
    }

    @Test func recordsWhatWasSent() async throws {
        let stub = StubTransport()
        stub.on(.put, "/users/{id}", .status(204))
        let request = Probe<NoContent, Never>(
            method: .put, path: RequestPath("/users/{id}", ["id": 3]), query: ["dry": true], body: .json(User(id: 3, name: "n")), timeout: .seconds(7))
        _ = try await stubClient(stub).send(request)
        let recorded = try #require(stub.receivedRequests.first)
        #expect(recorded.method == .put)
        #expect(recorded.path == "/users/3")
        #expect(recorded.query == "dry=true")
        #expect(recorded.timeout == .seconds(7))
        #expect(try recorded.decodeBody(User.self) == User(id: 3, name: "n"))
        stub.reset()
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test func encodedRepliesUseTheGivenCoding() async throws {
        struct Item: Codable, Sendable, Equatable { var itemName: String }
        let stub = StubTransport()
        stub.on(.get, "/", try .json(encoding: Item(itemName: "x"), coding: JSONCoding(keyStyle: .snakeCase)))
        let client = stubClient(stub) { $0.coding.keyStyle = .snakeCase }
        #expect(try await client.send(Probe<Item, Never>()) == Item(itemName: "x"))
    }

    @Test func aDelayLongerThanTheTimeoutTimesOut() async {
        let stub = StubTransport()
        stub.on(.get, "/", Reply.status(204).delayed(by: .seconds(30)))
        let error = await capture { () async throws(APIError<Never>) in
            try await stubClient(stub).send(Probe<NoContent, Never>(timeout: .milliseconds(100)))
        }
        #expect(error?.category == .transport(.timedOut))
    }

    @Test func aShortDelayStillAnswers() async throws {
        let stub = StubTransport()
        stub.on(.get, "/", Reply.status(204).delayed(by: .milliseconds(20)))
        let response = try await stubClient(stub).response(for: Probe<NoContent, Never>(timeout: .seconds(5)))
        #expect(response.status == .noContent)
    }

    @Test func theOverallDeadlineCutsAnAttemptShort() async {
        let stub = StubTransport()
        stub.on(.get, "/", Reply.status(204).delayed(by: .seconds(30)))
        let client = stubClient(stub) { $0.timeouts = APIClient.Timeouts(attempt: .seconds(30), deadline: .milliseconds(150)) }
        let error = await capture { () async throws(APIError<Never>) in
            try await client.send(Probe<NoContent, Never>())
        }
        #expect(error?.category == .transport(.timedOut))
        let timeout = stub.receivedRequests.first?.timeout ?? .seconds(30)
        #expect(timeout <= .milliseconds(150))
    }

    @Test func cancellingTheCallingTaskCancelsTheCall() async throws {
        let stub = StubTransport()
        stub.on(.get, "/", Reply.status(204).delayed(by: .seconds(30)))
        let client = stubClient(stub)
        let task = Task { () async -> APIError<Never>? in
            await capture { () async throws(APIError<Never>) in try await client.send(Probe<NoContent, Never>()) }
        }
        #expect(await stub.waitForRequests(count: 1).count == 1)
        task.cancel()
        let error = await task.value
        #expect(error?.category == .transport(.cancelled))
    }

    @Test func waitingForRequestsResumesWhenEnoughArriveOrTheWaiterIsCancelled() async {
        let stub = StubTransport()
        stub.on(.get, "/", .status(204))
        let client = stubClient(stub)
        let waiter = Task { await stub.waitForRequests(count: 2) }
        for _ in 0..<2 {
            let error = await capture { () async throws(APIError<Never>) in
                try await client.send(Probe<NoContent, Never>())
            }
            #expect(error == nil)
        }
        #expect(await waiter.value.count == 2)

        let cancelled = Task { await stub.waitForRequests(count: 10) }
        cancelled.cancel()
        #expect(await cancelled.value.count == 2)
    }

    @Test func anAlreadyCancelledTaskSendsNothing() async {
        let stub = StubTransport()
        stub.on(.get, "/", .status(204))
        let client = stubClient(stub)
        let task = Task { () async -> APIError<Never>? in
            withUnsafeCurrentTask { $0?.cancel() }
            return await capture { () async throws(APIError<Never>) in try await client.send(Probe<NoContent, Never>()) }
        }
        let error = await task.value
        #expect(error?.category == .transport(.cancelled))
        #expect(error?.transportError?.requestMayHaveBeenSent == false)
        #expect(stub.receivedRequests.isEmpty)
    }
}

typealias Reply = StubTransport.Reply
