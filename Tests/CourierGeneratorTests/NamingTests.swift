@testable import CourierGenerator
import Testing

@Suite struct NamingTests {
    @Test(arguments: [
        ("get-user", "getUser"),
        ("get_user", "getUser"),
        ("getUser", "getUser"),
        ("GetUser", "getUser"),
        ("get user", "getUser"),
        ("x-request-id", "xRequestID"),
        ("documentation_url", "documentationURL"),
        ("avatarUrl", "avatarURL"),
        ("user_ids", "userIDs"),
        ("userIDs", "userIDs"),
        ("id", "id"),
        ("ID", "id"),
        ("url_path", "urlPath"),
        ("HTTPResponse", "httpResponse"),
        ("getHTTPResponse", "getHTTPResponse"),
        ("STATUS_CODE", "statusCode"),
        ("JSONAPIErrors", "jsonapiErrors"),
        ("JSONAPI", "jsonapi"),
        ("HTTP_API_URL", "httpAPIURL"),
        ("PAGE", "page"),
        ("oauth2Token", "oauth2Token"),
        ("sha256_hash", "sha256Hash"),
        ("2fa", "_2fa"),
        ("2fa_code", "_2faCode"),
        ("@type", "type"),
        ("filter[author]", "filterAuthor"),
        ("-published_year", "publishedYear"),
        ("rate_limit_exceeded", "rateLimitExceeded"),
        ("Type", "type"),
        ("default", "default"),
        ("café_au_lait", "caféAuLait"),
    ])
    func memberNames(specName: String, expected: String) {
        #expect(SwiftIdentifier(memberNamed: specName).name == expected)
    }

    @Test(arguments: [
        ("pet_status", "PetStatus"),
        ("PetStatus", "PetStatus"),
        ("petStatus", "PetStatus"),
        ("pet-status", "PetStatus"),
        ("GitHubError", "GitHubError"),
        ("url", "URL"),
        ("api_error", "APIError"),
        ("HTTPError", "HTTPError"),
        ("json-api-errors", "JSONAPIErrors"),
        ("JSONAPIErrors", "JSONAPIErrors"),
        ("JSONAPI", "JSONAPI"),
        ("JSONAPI_ERRORS", "JSONAPIErrors"),
        ("USER_IDS", "UserIDs"),
        ("x-request-id", "XRequestID"),
        ("IDS", "IDs"),
        ("HTTPAPI", "HTTPAPI"),
        ("STATUS", "Status"),
        ("SKUS_TOTAL", "SKUsTotal"),
        ("APIDOC", "Apidoc"),
        ("STATUS_CODE", "StatusCode"),
        ("OAuthToken", "OAuthToken"),
        ("2fa", "_2fa"),
        ("@type", "Type"),
        ("Type", "Type"),
        ("self", "Self"),
    ])
    func typeNames(specName: String, expected: String) {
        #expect(SwiftIdentifier(typeNamed: specName).name == expected)
    }

    @Test(arguments: ["default", "class", "self", "Self", "Type", "Protocol", "init", "func", "return", "in", "true", "nil", "Any"])
    func keywordsAreEscapedWithBackticks(keyword: String) {
        let identifier = SwiftIdentifier(verbatim: keyword)
        #expect(identifier.needsEscaping)
        #expect(identifier.escaped == "`\(keyword)`")
    }

    @Test func specKeywordsBecomeEscapedIdentifiers() {
        #expect(SwiftIdentifier(memberNamed: "default").escaped == "`default`")
        #expect(SwiftIdentifier(memberNamed: "class").escaped == "`class`")
        #expect(SwiftIdentifier(memberNamed: "self").escaped == "`self`")
        #expect(SwiftIdentifier(typeNamed: "Type").escaped == "`Type`")
        // `type` is not a keyword, so a member named `Type` needs no backticks.
        #expect(SwiftIdentifier(memberNamed: "Type").escaped == "type")
    }

    @Test(arguments: ["getUser", "name", "get", "set", "value", "type", "_2fa", "xRequestID"])
    func ordinaryNamesAreNotEscaped(name: String) {
        let identifier = SwiftIdentifier(verbatim: name)
        #expect(!identifier.needsEscaping)
        #expect(identifier.escaped == name)
    }

    @Test func namesDifferingOnlyInPunctuationCollide() {
        #expect(SwiftIdentifier(memberNamed: "get-user") == SwiftIdentifier(memberNamed: "get_user"))
        #expect(SwiftIdentifier(typeNamed: "pet_status") == SwiftIdentifier(typeNamed: "PetStatus"))
        #expect(SwiftIdentifier(memberNamed: "not_found") != SwiftIdentifier(memberNamed: "found"))
    }

    @Test(arguments: ["", "-", "@@", "[]", "   "])
    func namesWithoutLettersOrDigitsArePlaceholders(specName: String) {
        #expect(SwiftIdentifier(memberNamed: specName).isPlaceholder)
        #expect(SwiftIdentifier(typeNamed: specName).isPlaceholder)
    }

    @Test func typeSpellingsUseSwiftNames() {
        let type = TypeReference.optional(.map(.array(.named("pet_status"))))
        #expect(type.description == "[String: [pet_status]]?")
        #expect(type.swiftSpelling == "[String: [PetStatus]]?")
        #expect(TypeReference.named("Type").swiftSpelling == "`Type`")
        #expect(TypeReference.primitive(.int64).swiftSpelling == "Int64")
    }
}
