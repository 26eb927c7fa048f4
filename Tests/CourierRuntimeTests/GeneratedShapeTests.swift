import CourierRuntime
import CourierTesting
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

// What the generator emits for one small service, written by hand here to prove the
// runtime API keeps generated code this small. The spec would say: GET /pets/{petId}
// with query `fields`, 200 -> Pet, 404 -> NotFound(Problem), 5xx -> Unavailable(Problem),
// and a body discriminator `error.code == "quota"` on 429.

struct Pet: Codable, Sendable, Equatable {
    var id: Int
    var name: String
    var bornAt: Date?
}

enum GetPetFailure: EndpointFailure, LocalizedError {
    case notFound(ErrorBody<Problem>)
    case quotaExceeded(ErrorBody<Problem>)
    case unavailable(ErrorBody<Problem>)

    static func map(_ response: RawResponse) -> GetPetFailure? {
        switch response.status.code {
        case 404: .notFound(response.errorBody())
        case 429 where response.discriminator(at: "error.code") == "quota": .quotaExceeded(response.errorBody())
        case 500...599: .unavailable(response.errorBody())
        default: nil
        }
    }

    var errorDescription: String? {
        switch self {
        case .notFound: "No pet with that ID."
        case .quotaExceeded: "You have used up today's quota."
        case .unavailable: "The pet store is closed right now."
        }
    }
}

struct GetPet: APIRequest {
    typealias Response = Pet
    typealias Failure = GetPetFailure

    var petId: Int
    var fields: [String]?

    var method: HTTPRequest.Method { .get }
    var path: RequestPath { RequestPath("/pets/{petId}", ["petId": petId]) }
    var query: Parameters { ["fields": fields] }
    var operationName: String { "getPet" }
}

struct PetStoreClient: Sendable {
    let client: APIClient

    init(
        baseURL: URL = URL(string: "https://petstore.example/v1")!,
        transport: any HTTPTransport = URLSessionTransport(),
        configuration: APIClient.Configuration = APIClient.Configuration(coding: JSONCoding(keyStyle: .snakeCase))
    ) {
        client = APIClient(baseURL: baseURL, transport: transport, configuration: configuration)
    }

    /// Fetches one pet.
    func getPet(id petId: Int, fields: [String]? = nil) async throws(APIError<GetPetFailure>) -> Pet {
        try await client.send(GetPet(petId: petId, fields: fields))
    }
}

@Suite struct GeneratedShapeTests {
    @Test(arguments: TransportKind.allCases)
    func aGeneratedFacadeOverARealServer(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/v1/pets/1", .respond(.json(#"{"id":1,"name":"Rex","born_at":"2020-02-02T00:00:00Z"}"#)))
            server.route("GET", "/v1/pets/2", .respond(.json(#"{"error":{"code":"quota"}}"#, status: 429, headers: [("Retry-After", "60")])))
            // The overall deadline is shorter than the server's Retry-After: the 429 comes
            // back at once, with the hint, instead of after a minute's wait.
            let pets = PetStoreClient(baseURL: server.baseURL.appendingPathComponent("v1"), transport: kind.make(),
                                      configuration: APIClient.Configuration(coding: JSONCoding(keyStyle: .snakeCase),
                                                                             timeouts: APIClient.Timeouts(deadline: .seconds(20))))

            let rex = try await pets.getPet(id: 1, fields: ["name", "born_at"])
            #expect(rex == Pet(id: 1, name: "Rex", bornAt: Date(timeIntervalSince1970: 1_580_601_600)))
            #expect(server.receivedRequests.first?.requestLine == "GET /v1/pets/1?fields=name&fields=born_at HTTP/1.1")

            let error = await capture { () async throws(APIError<GetPetFailure>) in try await pets.getPet(id: 2) }
            guard case .endpoint(.quotaExceeded, let response) = error else {
                Issue.record("expected quotaExceeded, got \(String(describing: error))")
                return
            }
            #expect(response.rateLimit.retryAfter == .seconds(60))
            #expect(server.requestCount("GET", "/v1/pets/2") == 1)
        }
    }

    @Test func callersSwitchOverTheTypedErrors() async {
        let stub = StubTransport()
        stub.on(.get, "/v1/pets/{petId}", .status(404), .failure(.notConnected), .status(418), .json("[]"))
        let pets = PetStoreClient(transport: stub, configuration: APIClient.Configuration(resilience: .singleAttempt))
        var messages: [String] = []
        for _ in 0..<4 {
            do {
                _ = try await pets.getPet(id: 9)
            } catch {
                switch error {
                case .endpoint(.notFound, _):
                    messages.append("missing")
                case .endpoint(let failure, _):
                    messages.append(failure.localizedDescription)
                case .transport(let transport) where transport.kind == .notConnected:
                    messages.append("offline")
                case .undocumentedStatus(let response):
                    messages.append("status \(response.status.code)")
                case .transport, .decoding, .invalidRequest, .circuitOpen:
                    messages.append(error.localizedDescription)
                }
            }
        }
        #expect(messages == ["missing", "offline", "status 418", "The server's response could not be read."])
    }

    @Test func typedCatchClausesReadLikeTheSpec() async {
        let stub = StubTransport()
        stub.on(.get, "/v1/pets/{petId}", .json(#"{"error":{"code":"quota"}}"#, status: 429, headers: ["Retry-After": "30"]))
        let pets = PetStoreClient(transport: stub, configuration: APIClient.Configuration(timeouts: APIClient.Timeouts(deadline: .seconds(10))))
        var retryAfter: RateLimit.RetryAfter?
        do {
            _ = try await pets.getPet(id: 1)
        } catch .endpoint(.quotaExceeded, let response) {
            retryAfter = response.rateLimit.retryAfter
        } catch {
            Issue.record("expected quotaExceeded, got \(error)")
        }
        #expect(retryAfter == .seconds(30))
        #expect(stub.requests(.get, "/v1/pets/{petId}").count == 1, "Retry-After beyond the deadline: not retried")
    }
}
