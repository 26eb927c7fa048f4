import BookshelfAPI
import CourierRuntime
import DiscordAPI
import Foundation
import GitHubAPI
import MarketplaceAPI
import QiitaAPI
import ReferenceErrorMeaning
import Testing

/// Every documented failure of every generated client, for every error status and a few body
/// shapes, describes itself in a sentence of its own through `localizedDescription` (the
/// idiom of the Handling errors article), never Foundation's "The operation could not be completed" placeholder.
@Suite("Generated failures never show Foundation's placeholder")
struct NoPlaceholderMessageTests {
    static let bodies = ["", "{}", "not json", #"{"message": "Text from the server", "code": 10003, "type": "x"}"#]

    /// The descriptions of every failure `Failure.map` returns for statuses 400…599 and `bodies`.
    static func descriptions<Failure: EndpointFailure & LocalizedError>(_ type: Failure.Type) -> [String] {
        var texts: [String] = []
        for code in 400...599 {
            for body in bodies {
                if let failure = Failure.map(RawResponse(status: .init(code: code), body: Data(body.utf8))) {
                    texts.append(failure.localizedDescription)
                }
            }
        }
        return texts
    }

    static let failures: [(String, [String])] = [
        ("Bookshelf", descriptions(BookshelfFailure.self) + descriptions(DeleteBookFailure.self)),
        ("Discord", descriptions(DiscordFailure.self)),
        ("GitHub", descriptions(GitHubFailure.self) + descriptions(GitHubAPI.GetUserFailure.self)
            + descriptions(CreateIssueFailure.self) + descriptions(LockIssueFailure.self)),
        ("Marketplace", descriptions(MarketplaceFailure.self) + descriptions(CreateOrderFailure.self)
            + descriptions(GetHealthFailure.self)),
        ("Qiita", descriptions(QiitaFailure.self) + descriptions(QiitaAPI.GetItemFailure.self) + descriptions(CreateItemFailure.self)),
        ("ErrorMeaning", descriptions(ErrorMeaningFailure.self) + descriptions(GetLockFailure.self)),
    ]

    @Test("Each client's failures", arguments: failures.map(\.0))
    func noPlaceholder(service: String) throws {
        let texts = try #require(Self.failures.first { $0.0 == service }?.1)
        // Each client documents several statuses; an empty list would mean nothing was checked.
        #expect(texts.count >= 20)
        for text in Set(texts) {
            #expect(!text.isEmpty)
            #expect(!text.contains("could not be completed"), "\(service): \(text)")
            // The placeholder's tail: "(<domain> error 10.)".
            #expect(text.firstMatch(of: #/ error \d+\.\)$/#) == nil, "\(service): \(text)")
        }
    }
}
