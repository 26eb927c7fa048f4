@testable import CourierGenerator
import Foundation
import Testing

/// The specs in Specs/ are clean and say what their services need.
@Suite struct ExampleSpecsTests {
    static let specs = ["Bookshelf.yaml", "GitHub.yaml", "Marketplace.yaml", "Qiita.yaml"]

    private func load(_ name: String) throws -> ServiceSpec {
        let url = packageRoot.appendingPathComponent("Specs").appendingPathComponent(name)
        let result = loadValidated(at: url, displayPath: "Specs/\(name)")
        #expect(result.diagnostics.renderedLines == [])
        return try #require(result.spec)
    }

    @Test(arguments: ExampleSpecsTests.specs)
    func exampleSpecIsClean(name: String) throws {
        let spec = try load(name)
        #expect(spec.endpoints.count >= 8)
        #expect(spec.errorSchemas.count >= 1)
    }

    @Test func discordIsCleanAndSaysWhatItsErrorsMean() throws {
        let spec = try load("Discord.yaml")
        #expect(spec.endpoints.map(\.name) == ["getGateway", "getChannel", "modifyChannel", "createMessage"])
        #expect(spec.rateLimit?.resetAfter == "X-RateLimit-Reset-After")
        #expect(spec.rateLimit?.retryAfterField?.description == "retry_after")
        let cases = spec.defaultErrors.flatMap(\.allCases)
        let unknownChannel = try #require(cases.first { $0.name == "unknownChannel" })
        #expect(unknownChannel.messageField?.description == "message")
        #expect(unknownChannel.message == "This channel does not exist.")
        #expect(cases.filter { $0.retryable == true }.map(\.name) == ["rateLimited", "gatewayUnavailable"])
    }

    @Test func qiitaNamesItsRateLimitHeaders() throws {
        let spec = try load("Qiita.yaml")
        #expect(spec.rateLimit?.limit == "Rate-Limit")
        #expect(spec.rateLimit?.remaining == "Rate-Remaining")
        #expect(spec.rateLimit?.reset == "Rate-Reset")
    }

    @Test func gitHubTellsRateLimitsFromPermissionErrors() throws {
        let spec = try load("GitHub.yaml")
        let createIssue = try #require(spec.endpoint(named: "createIssue"))
        let statuses = createIssue.effectiveErrors.map(\.status)
        #expect(statuses == [.exact(401), .exact(403), .exact(404), .exact(410), .exact(422), .exact(429), .range(5), .default])
        let forbidden = try #require(createIssue.effectiveErrors.first { $0.status == .exact(403) })
        guard case .discriminated(let discriminator) = forbidden.outcome else {
            Issue.record("403 should discriminate on a header")
            return
        }
        #expect(discriminator.source == .header("x-ratelimit-remaining"))
        #expect(discriminator.fallback.name == "forbidden")
        let validation = try #require(createIssue.effectiveErrors.first { $0.status == .exact(422) })
        guard case .discriminated(let byCode) = validation.outcome else {
            Issue.record("422 should discriminate on errors[0].code")
            return
        }
        #expect(byCode.source.description == "errors[0].code")
        #expect(spec.model(named: "User")?.properties.first { $0.name == "avatarUrl" }?.jsonKey == "avatar_url")
        #expect(spec.model(named: "User")?.properties.first { $0.name == "avatarUrl" }?.swiftName.name == "avatarURL")
    }

    @Test func bookshelfMapsEveryListedStatusAndFallsBack() throws {
        let spec = try load("Bookshelf.yaml")
        #expect(spec.defaultErrors.map(\.status) == [400, 401, 403, 404, 405, 406, 408, 500].map(StatusMatcher.exact) + [.default])
        #expect(spec.errorSchema(named: "LaravelError")?.properties.map(\.name) == ["code", "message", "detail"])
    }

    @Test func qiitaRateLimitIsABodyDiscriminator() throws {
        let spec = try load("Qiita.yaml")
        let forbidden = try #require(spec.defaultErrors.first { $0.status == .exact(403) })
        guard case .discriminated(let discriminator) = forbidden.outcome else {
            Issue.record("403 should discriminate on type")
            return
        }
        #expect(discriminator.source == .bodyField(FieldPath(components: [.key("type")])))
        #expect(discriminator.cases.map(\.value) == ["rate_limit_exceeded"])
        #expect(discriminator.cases.first?.errorCase.name == "rateLimited")
    }

    @Test func marketplaceUsesTheSharedErrorFile() throws {
        let spec = try load("Marketplace.yaml")
        #expect(spec.includedFiles == ["Specs/Shared/PlatformErrors.yaml"])
        #expect(spec.errorSchema(named: "PlatformError")?.properties.map(\.name) == ["code", "message", "details", "timestamp"])
        #expect(spec.defaultErrors.map(\.status) == [400, 401, 403, 404, 408, 422, 429].map(StatusMatcher.exact) + [.range(5)])
        #expect(spec.model(named: "Category")?.isRecursive == true)
        #expect(spec.endpoint(named: "createOrder")?.resilience.idempotencyKey != nil)
        #expect(spec.headers.first { $0.name == "X-Api-Key" }?.isSecret == true)
    }

    /// Every example service, as the package's `Generated/` targets hold them.
    static let allServices = ["Bookshelf", "Discord", "GitHub", "Marketplace", "OpenAI", "Qiita", "Slack", "Stripe"]

    @Test("The request protocol's comment promises an extension only where the service has one, and names what it holds",
          arguments: ExampleSpecsTests.allServices)
    func requestProtocolCommentIsTrue(service: String) throws {
        let url = packageRoot.appendingPathComponent("Specs/\(service).yaml")
        let result = try Generator().generate(specAt: url, displayPath: "Specs/\(service).yaml")
        let requests = try #require(result.files["\(service)Requests.swift"])
        let lines = requests.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let declaration = try #require(lines.firstIndex(of: "public protocol \(service)APIRequest: APIRequest {}"))
        let comment = lines[declaration - 1]
        let hasExtension = lines.contains("extension \(service)APIRequest {")
        #expect(comment.contains("Its extension supplies") == hasExtension, "\(comment)")
        // What it says it supplies is what the extension declares.
        let body = hasExtension ? lines.drop { $0 != "extension \(service)APIRequest {" }.prefix { $0 != "}" }.joined(separator: "\n") : ""
        #expect(comment.contains("timeout") == body.contains("var timeout:"), "\(comment)")
        #expect(comment.contains("retry and circuit-breaker hints") == body.contains("var resilience:"), "\(comment)")
        #expect(comment.contains("secret header fields") == body.contains("var secretHeaderNames:"), "\(comment)")
    }

    @Test("Some example services share defaults through the extension and some have none, so both comments are checked")
    func bothKindsOfRequestProtocolAreCovered() throws {
        let withExtension = try Self.allServices.filter { service in
            let url = packageRoot.appendingPathComponent("Specs/\(service).yaml")
            let result = try Generator().generate(specAt: url, displayPath: "Specs/\(service).yaml")
            return result.files["\(service)Requests.swift"]?.contains("extension \(service)APIRequest {") == true
        }
        #expect(!withExtension.isEmpty && withExtension.count < Self.allServices.count, "\(withExtension)")
    }
}
