import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// ``JSON``: both ways of decoding (the linear parser and `Decoder`) agree with each other and
/// with `JSONDecoder`, values survive encoding unchanged, and malformed or hostile input gets
/// a typed error naming its byte offset instead of a crash.
@Suite struct FreeFormJSONTests {
    /// Every kind of value, nested, with escapes, non-ASCII text and numbers at the edges.
    static let document = #"""
    {
      "id": 9007199254740993,
      "ratio": 0.25,
      "big": 12345678901234567890,
      "negative": -9223372036854775808,
      "whole": 5.0,
      "exponent": 1e3,
      "tiny": 1.5e-7,
      "name": "caf\u00e9 \ud83d\ude00 \"quoted\" \\ \/ \n\t",
      "raw": "日本語 ✓",
      "flags": [true, false, null],
      "empty": {},
      "none": [],
      "errors": {"name": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}},
      "mixed": [1, "two", 3.5, {"four": [4]}, [[]], null]
    }
    """#

    static let expected: JSON = [
        "id": .integer(9_007_199_254_740_993),
        "ratio": 0.25,
        "big": .number(12_345_678_901_234_567_168),  // the nearest Double to 12345678901234567890
        "negative": .integer(.min),
        "whole": 5,
        "exponent": 1000,
        "tiny": 1.5e-7,
        "name": "café 😀 \"quoted\" \\ / \n\t",
        "raw": "日本語 ✓",
        "flags": [true, false, nil],
        "empty": [:],
        "none": [],
        "errors": ["name": ["_errors": [["code": "BASE_TYPE_REQUIRED", "message": "This field is required"]]]],
        "mixed": [1, "two", 3.5, ["four": [4]], [[]], nil],
    ]

    @Test func parsingKeepsEveryValue() throws {
        let parsed = try JSON(parsing: Data(Self.document.utf8))
        #expect(parsed == Self.expected)
    }

    @Test func decodingThroughJSONDecoderGivesTheSameValueAsParsing() throws {
        let data = Data(Self.document.utf8)
        #expect(try JSONDecoder().decode(JSON.self, from: data) == Self.expected)
        #expect(try JSONCoding().makeDecoder().decode(JSON.self, from: data) == Self.expected)
    }

    @Test func encodingWritesTheValueBackUnchanged() throws {
        let coding = JSONCoding()
        let encoded = try coding.makeEncoder().encode(Self.expected)
        #expect(try JSON(parsing: encoded) == Self.expected)
        #expect(try coding.makeDecoder().decode(JSON.self, from: encoded) == Self.expected)
        // The description is compact JSON that parses back to the same value.
        #expect(try JSON(parsing: Self.expected.description) == Self.expected)
    }

    @Test func descriptionIsCompactJSONWithSortedKeys() {
        let value: JSON = ["b": [1, 2.5, "x\u{1}\"", nil], "a": true]
        #expect(value.description == #"{"a":true,"b":[1,2.5,"x\u0001\"",null]}"#)
    }

    /// A model with a free-form member, as generated code will declare it.
    struct Event: Codable, Equatable {
        var kind: String
        var metadata: JSON
        var extras: [String: JSON]?
    }

    @Test func freeFormMembersOfAModelDecodeAndEncode() throws {
        let text = #"{"kind":"push","metadata":{"ref":"main","commits":[{"sha":"abc","added":2}],"forced":false},"extras":{"a":null,"b":[1.5]}}"#
        let event = try JSONCoding().makeDecoder().decode(Event.self, from: Data(text.utf8))
        #expect(event.metadata["commits"]?[0]?["added"]?.intValue == 2)
        #expect(event.metadata["forced"]?.boolValue == false)
        #expect(event.extras?["a"]?.isNull == true)
        #expect(event.extras?["b"]?[0]?.doubleValue == 1.5)
        let again = try JSONCoding().makeDecoder().decode(Event.self, from: JSONCoding().makeEncoder().encode(event))
        #expect(again == event)
    }

    @Test func duplicateKeysKeepTheFirstOnBothPathsAsJSONDecoderDoes() throws {
        let data = Data(#"{"a": 1, "a": 2, "b": {"c": "x", "c": "y"}}"#.utf8)
        let expected: JSON = ["a": 1, "b": ["c": "x"]]
        #expect(try JSON(parsing: data) == expected)
        #expect(try JSONDecoder().decode(JSON.self, from: data) == expected)
        struct A: Decodable { var a: Int }
        #expect(try JSONDecoder().decode(A.self, from: data).a == 1)
    }

    @Test func numbersAtTheEdges() throws {
        #expect(try JSON(parsing: "9223372036854775807") == .integer(.max))
        #expect(try JSON(parsing: "-9223372036854775808") == .integer(.min))
        // One past Int64.max has no exact Int64; it is the nearest Double, as JSONDecoder gives.
        #expect(try JSON(parsing: "9223372036854775808") == .number(9_223_372_036_854_775_808))
        #expect(try JSON(parsing: "-0") == .integer(0))
        #expect(try JSON(parsing: "2.5e-3") == .number(0.0025))
        #expect(try JSON(parsing: "1E2") == .integer(100))
        // A number beyond Double's range is an error, as in JSONDecoder, not infinity.
        #expect(throws: JSON.ParseError(.invalidNumber, offset: 1)) { try JSON(parsing: "[1e400]") }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Double.self, from: Data("1e400".utf8)) }
        // Both paths give the same values for numbers that sit between the cases.
        let text = "[1.5, 9007199254740993, 2, 5.0, 1e3, -0, 1e17, 12345678901234567890, 0.1]"
        #expect(try JSON(parsing: text) == JSONDecoder().decode(JSON.self, from: Data(text.utf8)))
    }

    @Test func accessorsAndSubscripts() {
        let value: JSON = ["list": [1, 2.5, "s", true, nil, [:]], "n": 3.0]
        #expect(value["list"]?[0]?.intValue == 1)
        #expect(value["list"]?[1]?.intValue == nil)
        #expect(value["list"]?[1]?.doubleValue == 2.5)
        #expect(value["list"]?[2]?.stringValue == "s")
        #expect(value["list"]?[3]?.boolValue == true)
        #expect(value["list"]?[4]?.isNull == true)
        #expect(value["list"]?[5]?.objectValue == [:])
        #expect(value["list"]?.arrayValue?.count == 6)
        #expect(value["n"]?.intValue == 3)
        // Out of range, negative, or the wrong kind: nil, never a trap.
        #expect(value["list"]?[6] == nil)
        #expect(value["list"]?[-1] == nil)
        #expect(value[0] == nil)
        #expect(value["list"]?["key"] == nil)
        #expect(value["missing"] == nil)
        #expect(JSON.string("1").intValue == nil)
    }

    @Test func deepNestingIsATypedErrorNotAStackOverflow() throws {
        // Far deeper than any stack could recurse.
        let hostile = Data(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: JSON.ParseError(.tooDeep(limit: 512), offset: 512)) { try JSON(parsing: hostile) }
        // The limit itself is accepted, as JSONDecoder accepts it.
        let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let parsed = try JSON(parsing: atLimit)
        var depth = 0
        var current: JSON? = parsed
        while let array = current?.arrayValue {
            depth += 1
            current = array.first
        }
        #expect(depth == 512)
        // The third container, at byte 6, is one too deep for a limit of 2.
        #expect(throws: JSON.ParseError(.tooDeep(limit: 2), offset: 6)) {
            try JSON(parsing: #"{"a":[{"b":1}]}"#, maximumDepth: 2)
        }
    }

    @Test func deepNestingThroughJSONDecoderStaysWithinItsLimitAndTheStack() throws {
        // JSONDecoder's own limit bounds the recursion through containers; at that depth,
        // alternating objects and arrays, decoding must not run out of stack on a task.
        var text = ""
        for level in 0..<500 { text += level % 2 == 0 ? #"{"k":"# : "[" }
        text += "1"
        for level in (0..<500).reversed() { text += level % 2 == 0 ? "}" : "]" }
        let data = Data(text.utf8)
        let decoded = try JSONDecoder().decode(JSON.self, from: data)
        #expect(decoded == (try JSON(parsing: data)))
        let tooDeep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(JSON.self, from: tooDeep) }
    }

    /// Input, reason and the offset of the byte where it stops being JSON.
    static let malformed: [(String, JSON.ParseError.Reason, Int)] = [
        ("", .unexpectedEnd, 0),
        ("   ", .unexpectedEnd, 3),
        ("[1, 2", .unexpectedEnd, 5),
        ("{\"a\" 1}", .unexpectedByte(UInt8(ascii: "1")), 5),
        ("{\"a\": 1,, }", .unexpectedByte(UInt8(ascii: ",")), 8),
        ("{a: 1}", .unexpectedByte(UInt8(ascii: "a")), 1),
        ("[1] x", .trailingCharacters, 4),
        ("[01]", .invalidNumber, 1),
        ("[1.]", .invalidNumber, 1),
        ("[-]", .invalidNumber, 1),
        ("[.5]", .unexpectedByte(UInt8(ascii: ".")), 1),
        ("[tru]", .unexpectedByte(UInt8(ascii: "]")), 4),
        ("[nul", .unexpectedEnd, 4),
        ("\"abc", .unexpectedEnd, 4),
        ("\"a\u{1}b\"", .controlCharacterInString, 2),
        (#"["\x"]"#, .invalidEscape, 2),
        (#"["\u12G4"]"#, .invalidUnicodeEscape, 2),
        (#"["ok", "\ud83d"]"#, .invalidUnicodeEscape, 8),
        (#"["\ude00"]"#, .invalidUnicodeEscape, 2),
        (#"["\ud83d\u0041"]"#, .invalidUnicodeEscape, 2),
    ]

    @Test(arguments: 0..<malformed.count)
    func malformedInputIsATypedErrorNamingTheByteOffset(index: Int) {
        let (text, reason, offset) = Self.malformed[index]
        #expect(throws: JSON.ParseError(reason, offset: offset), "\(text.debugDescription)") {
            try JSON(parsing: text)
        }
    }

    @Test func invalidUTF8IsRejectedAtItsOffsetAsJSONDecoderRejectsIt() {
        // `"ab` + a lone continuation byte + `"`.
        let loneContinuation = Data([0x22, 0x61, 0x62, 0x80, 0x22])
        #expect(throws: JSON.ParseError(.invalidUTF8, offset: 3)) { try JSON(parsing: loneContinuation) }
        // An overlong encoding of "/".
        let overlong = Data([0x22, 0xC0, 0xAF, 0x22])
        #expect(throws: JSON.ParseError(.invalidUTF8, offset: 1)) { try JSON(parsing: overlong) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(String.self, from: loneContinuation) }
    }

    @Test func theErrorDescribesItselfForLogs() {
        let error = JSON.ParseError(.unexpectedByte(0x7D), offset: 12)
        #expect(error.description == "Invalid JSON at byte 12: unexpected byte 0x7D.")
        #expect(error.localizedDescription == error.description)
    }

    @Test func everyPrefixOfADocumentFailsWithATypedErrorAndNoCrash() {
        let bytes = Array(Self.document.utf8)
        for length in 0..<bytes.count {
            let prefix = Data(bytes[0..<length])
            do {
                _ = try JSON(parsing: prefix)
                Issue.record("a prefix of \(length) bytes parsed")
            } catch {
                #expect(error.offset <= length)
            }
        }
    }

    @Test func aByteOrderMarkAndATrailingCommaAreAcceptedAsJSONDecoderAcceptsThem() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array(#"{"a": [1, 2,], "b": 3,}"#.utf8))
        let expected: JSON = ["a": [1, 2], "b": 3]
        #expect(try JSON(parsing: data) == expected)
        #expect(try JSONDecoder().decode(JSON.self, from: data) == expected)
    }

    @Test func literalsBuildTheCases() {
        let value: JSON = ["s": "x", "i": 1, "d": 1.5, "b": false, "n": nil, "a": [1], "o": ["k": "v"]]
        #expect(value == .object([
            "s": .string("x"), "i": .integer(1), "d": .number(1.5), "b": .bool(false), "n": .null,
            "a": .array([.integer(1)]), "o": .object(["k": .string("v")]),
        ]))
    }

    @Test func decodingALargeBodyTakesLinearTimeOnBothPaths() throws {
        // 100,000 small objects: a quadratic step would take minutes here, not seconds.
        var text = "["
        for index in 0..<100_000 {
            if index > 0 { text += "," }
            text += #"{"id":\#(index),"ok":\#(index % 2 == 0),"tag":"t\#(index % 7)","score":\#(Double(index) + 0.5)}"#
        }
        text += "]"
        let data = Data(text.utf8)
        let parsed = try JSON(parsing: data)
        #expect(parsed.arrayValue?.count == 100_000)
        #expect(parsed[99_999]?["id"]?.intValue == 99_999)
        #expect(try JSONDecoder().decode(JSON.self, from: data) == parsed)
    }

    /// An endpoint whose body, success or failure, is free-form.
    struct GetMetadata: APIRequest {
        typealias Response = JSON
        typealias Failure = MetadataFailure
        var method: HTTPRequest.Method { .get }
        var path: RequestPath { "/metadata" }
    }

    enum MetadataFailure: EndpointFailure {
        case invalid(ErrorBody<JSON>)
        static func map(_ response: RawResponse) -> MetadataFailure? {
            response.status.code == 400 ? .invalid(response.errorBody()) : nil
        }
    }

    @Test(arguments: TransportKind.allCases)
    func freeFormBodiesThroughTheClientKeepTheirKeysAsSent(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/metadata", .respond(.json(#"{"user_id": 7, "tags": ["a"], "nested": {"created_at": null}}"#)))
            // A snake-case client converts model keys; a free-form body keeps the server's.
            let api = client(for: server, kind) { $0.coding = JSONCoding(keyStyle: .snakeCase) }
            let value = try await api.send(GetMetadata())
            #expect(value == ["user_id": 7, "tags": ["a"], "nested": ["created_at": nil]])
            #expect(server.requestCount("GET", "/metadata") == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aMalformedFreeFormBodyIsADecodingFailureNamingTheOffset(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/metadata", .respond(.json(#"{"a": tru}"#)))
            let api = client(for: server, kind)
            let error = await capture { () async throws(APIError<MetadataFailure>) -> JSON in try await api.send(GetMetadata()) }
            guard case .decoding(let failure) = error else {
                Issue.record("expected a decoding failure, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == "Invalid JSON at byte 9: unexpected byte 0x7D.")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFreeFormErrorBodyIsParsedAndKeptRaw(kind: TransportKind) async throws {
        try await withServer { server in
            let text = #"{"code": 50035, "errors": {"name": {"_errors": [{"code": "BASE_TYPE_REQUIRED"}]}}}"#
            server.route("GET", "/metadata", .respond(.json(text, status: 400)))
            let api = client(for: server, kind) { $0.resilience = .singleAttempt }
            let error = await capture { () async throws(APIError<MetadataFailure>) -> JSON in try await api.send(GetMetadata()) }
            guard case .endpoint(.invalid(let body), _) = error else {
                Issue.record("expected the documented failure, got \(String(describing: error))")
                return
            }
            #expect(body.value?["errors"]?["name"]?["_errors"]?[0]?["code"]?.stringValue == "BASE_TYPE_REQUIRED")
            #expect(body.value?["code"]?.intValue == 50035)
            #expect(body.text == text)
            #expect(body.decodingFailure == nil)
        }
    }
}
