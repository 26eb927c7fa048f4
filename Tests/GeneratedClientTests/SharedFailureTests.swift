import CourierRuntime
import CourierTesting
import Foundation
import QiitaAPI
import Testing

/// Endpoints that document only the service's defaults throw the shared `QiitaFailure` under
/// their own names, and it maps every default status as a per-endpoint enum would.
@Suite("Shared default failures (Qiita, stub transport)")
struct SharedFailureTests {
    let stub = StubTransport()
    var client: QiitaClient { QiitaClient(baseURL: URL(string: "https://qiita.test/api/v2")!, transport: stub) }

    /// Sends `deleteItem`, which maps no status of its own, against a scripted reply.
    func deleteItemError(_ reply: StubTransport.Reply) async throws -> APIError<DeleteItemFailure> {
        stub.on(.delete, "/api/v2/items/a1", reply)
        let client = client
        return try #require(await failure { () async throws(APIError<DeleteItemFailure>) in
            try await client.deleteItem(itemID: "a1")
        })
    }

    @Test("Endpoints with only the defaults name one shared type; endpoints with their own keep theirs")
    func aliases() {
        #expect(DeleteItemFailure.self == QiitaFailure.self)
        #expect(ListItemsFailure.self == QiitaFailure.self)
        #expect(GetItemFailure.self != QiitaFailure.self)
    }

    @Test("A default single-case status decodes into its case, caught under the endpoint's own name")
    func notFound() async throws {
        let error = try await deleteItemError(.json(#"{"message": "Not found", "type": "not_found"}"#, status: 404))
        do throws(APIError<DeleteItemFailure>) {
            throw error
        } catch .endpoint(.notFound(let body), let response) {
            #expect(body.value?.type == "not_found")
            #expect(body.value?.message == "Not found")
            #expect(response.status.code == 404)
        } catch {
            Issue.record("expected notFound, got \(error)")
        }
    }

    @Test("The defaults' discriminated 403 picks its case and message, and falls back otherwise")
    func discriminated() async throws {
        let limited = try await deleteItemError(.json(#"{"message": "Slow down", "type": "rate_limit_exceeded"}"#, status: 403))
        guard case .rateLimited(let body)? = limited.endpointFailure else {
            Issue.record("expected rateLimited, got \(limited)")
            return
        }
        #expect(body.value?.message == "Slow down")
        #expect(limited.endpointFailure?.errorDescription == "Too many requests: Qiita allows 1000 an hour with a token.")

        let forbidden = try await deleteItemError(.json(#"{"message": "No", "type": "forbidden"}"#, status: 403))
        guard case .forbidden(let other)? = forbidden.endpointFailure else {
            Issue.record("expected forbidden, got \(forbidden)")
            return
        }
        #expect(other.value?.type == "forbidden")
    }

    @Test("The defaults' 5XX range and an undocumented status map through the shared enum")
    func rangeAndUndocumented() async throws {
        let server = try await deleteItemError(.status(503, body: Data("upstream down".utf8)))
        guard case .serverError? = server.endpointFailure else {
            Issue.record("expected serverError, got \(server)")
            return
        }
        let teapot = try await deleteItemError(.status(418))
        guard case .undocumentedStatus(let response) = teapot else {
            Issue.record("expected an undocumented status, got \(teapot)")
            return
        }
        #expect(response.status.code == 418)
    }

    @Test("An undecodable body under a default status still yields the case, with the raw body kept")
    func undecodableBody() async throws {
        let error = try await deleteItemError(.json("not json", status: 401))
        guard case .unauthorized(let body)? = error.endpointFailure else {
            Issue.record("expected unauthorized, got \(error)")
            return
        }
        #expect(body.value == nil)
        #expect(body.decodingFailure != nil)
        #expect(String(decoding: body.raw, as: UTF8.self) == "not json")
    }
}
