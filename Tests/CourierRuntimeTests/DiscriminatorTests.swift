import CourierRuntime
import Foundation
import Testing

/// `RawResponse.discriminator(at:)` reads one field of a body from a server the client does
/// not control, so it must give the answers a full decode gives, at a cost linear in the body.
@Suite struct DiscriminatorTests {
    /// Bodies whose answers must not change whatever the implementation: every scalar type,
    /// number spellings, escapes, duplicates, paths that miss, and bodies that are not JSON.
    static let corpus: [(path: String, body: String)] = [
        ("code", #"{"code":"a"}"#),
        ("code", #"{"code":1}"#),
        ("code", #"{"code":-0}"#),
        ("code", #"{"code":1.0}"#),
        ("code", #"{"code":1.5}"#),
        ("code", #"{"code":-2.50}"#),
        ("code", #"{"code":1e2}"#),
        ("code", #"{"code":1E+2}"#),
        ("code", #"{"code":2.5e-3}"#),
        ("code", #"{"code":9223372036854775807}"#),
        ("code", #"{"code":12345678901234567890}"#),
        ("code", #"{"code":1e400}"#),
        ("code", #"{"code":true}"#),
        ("code", #"{"code":false}"#),
        ("code", #"{"code":null}"#),
        ("code", #"{"code":"caf\u00e9\n\"q\""}"#),
        ("code", #"{"co\u0064e":"escaped key"}"#),
        ("code", #"{"code":"first","code":"second"}"#),
        ("error.code", #"{"error":{"code":"a"},"error":{"other":1}}"#),
        ("error.code", #"{"error":{"other":1},"error":{"code":"b"}}"#),
        ("error.code", #" { "error" : { "code" : "spaced" } } "#),
        ("errors[1].code", #"{"errors":[{"code":"x"},{"code":"y"}]}"#),
        ("errors[2].code", #"{"errors":[{"code":"x"},{"code":"y"}]}"#),
        ("errors[0]", #"{"errors":["plain"]}"#),
        ("code", #"[{"code":"root is an array"}]"#),
        ("errors.code", #"{"errors":[{"code":"x"}]}"#),
        ("errors[0].code", #"{"errors":{"code":"x"}}"#),
        ("code", #"{"other":[1,2,{"code":3}],"nested":{"code":4},"code":"top"}"#),
        ("code", #"{"code":[1]}"#),
        ("code", #"{"code":{}}"#),
        ("code", #"{"code":"a"} trailing"#),
        ("code", #"{"code":"a",}"#),
        ("code", #"{"code":"a" , }"#),
        ("code", #"{"code":"a",,,}"#),
        ("code", #"{"code":"a",,}"#),
        ("code", #"{,"code":"a"}"#),
        ("code", #"{"code":"a",}}"#),
        ("code", #"{"list":[1,],"code":"a"}"#),
        ("errors[1].code", #"{"errors":[{"code":"x"},{"code":"y"},]}"#),
        ("errors[1]", #"{"errors":["x",]}"#),
        ("code", #"{"list":[,],"code":"a"}"#),
        ("code", #"{"list":[1,,2],"code":"a"}"#),
        ("code", #"{"code":"a"},"#),
        ("code", #"{"code":"a","first":true,"code":"b"}"#),
        ("code", #"{"code":01}"#),
        ("code", #"{"code":1.}"#),
        ("code", #"{"code":-}"#),
        ("code", #"{"code":"\u12"}"#),
        ("code", #"{"code":"\x"}"#),
        ("code", "{\"code\":\"raw\ttab\"}"),
        ("code", #"{"code":"a""#),
        ("code", #"{"code" "a"}"#),
        ("code", #"{"code":tru}"#),
        ("code", #"{code:"a"}"#),
        ("code", ""),
        ("code", "   "),
        ("code", "\"code\""),
        ("code", "<html>"),
        ("code", "{\"code\":\"a\"}\n"),
        ("code", "\u{FEFF}{\"code\":\"bom\"}"),
        ("code", #"{"code":+1}"#),
        ("code", #"{"code":.5}"#),
        ("code", #"{"code":NaN}"#),
        ("code", #"{"code":"\ud800"}"#),
        ("code", #"{"code":"\ud83d\ude00"}"#),
        ("code", #"{"code":"a"} // comment"#),
        ("code", #"{"code":"a"}}"#),
        ("code", #"{"code":"a"}]"#),
        ("code", #"{"code":"a"]"#),
    ]

    @Test(arguments: corpus)
    func givesWhatAFullDecodeGives(path: String, body: String) {
        let data = Data(body.utf8)
        #expect(RawResponse(status: .badRequest, body: data).discriminator(at: path) == Self.fullDecode(path, data))
    }

    @Test func nestingWithinAndBeyondTheDecodersLimit() {
        for depth in [10, 400, 600, 100_000] {
            let body = Data((#"{"code":"c","deep":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}").utf8)
            let response = RawResponse(status: .badRequest, body: body)
            #expect(response.discriminator(at: "code") == Self.fullDecode("code", body), "depth \(depth)")
        }
        // Unclosed, as a hostile body might be: no answer, and no crash.
        let unclosed = Data(("{\"code\":\"c\",\"deep\":" + String(repeating: "{\"a\":", count: 100_000)).utf8)
        #expect(RawResponse(status: .badRequest, body: unclosed).discriminator(at: "code") == nil)
    }

    @Test func aOneMegabyteBodyOfSmallObjectsGivesItsValues() {
        let body = Self.hostileBody(objects: 100_000)
        #expect(body.count > 1_000_000)
        let response = RawResponse(status: .badRequest, body: body)
        #expect(response.discriminator(at: "code") == "quota")
        #expect(response.discriminator(at: "error.code") == "nested")
        #expect(response.discriminator(at: "errors[0].code") == "0")
        #expect(response.discriminator(at: "errors[99999].code") == "99999")
        #expect(response.discriminator(at: "errors[100000].code") == nil)
        // The same bytes cut short are not JSON.
        #expect(RawResponse(status: .badRequest, body: body.dropLast()).discriminator(at: "code") == nil)
    }

    @Test func aOneMegabyteStringIsSkippedOrReturned() {
        let huge = String(repeating: "x", count: 1 << 20)
        let body = Data(#"{"detail":"\#(huge)","code":"after","message":"\#(huge)"}"#.utf8)
        let response = RawResponse(status: .badRequest, body: body)
        #expect(response.discriminator(at: "code") == "after")
        #expect(response.discriminator(at: "message") == huge)
    }

    /// 100,000 small error objects, then the fields a mapping reads.
    static func hostileBody(objects: Int) -> Data {
        var text = #"{"errors":["#
        for index in 0..<objects {
            if index > 0 { text += "," }
            text += #"{"code":\#(index)}"#
        }
        text += #"],"error":{"code":"nested"},"code":"quota"}"#
        return Data(text.utf8)
    }

    /// The answer of decoding the whole body into a JSON tree and walking it: what
    /// `discriminator(at:)` returned before it scanned, kept here as the reference.
    static func fullDecode(_ path: String, _ body: Data) -> String? {
        guard let root = try? JSONDecoder().decode(Tree.self, from: body) else { return nil }
        var current = root
        for step in Self.steps(path) {
            switch (step, current) {
            case (.member(let name), .object(let members)):
                guard let next = members[name] else { return nil }
                current = next
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current.scalarText
    }

    enum Step {
        case member(String)
        case index(Int)
    }

    /// Enough of the path syntax for the corpus: names, `.` and `[n]`.
    static func steps(_ path: String) -> [Step] {
        var steps: [Step] = []
        for part in path.split(separator: ".") {
            let pieces = part.split(separator: "[", omittingEmptySubsequences: false)
            if let name = pieces.first, !name.isEmpty { steps.append(.member(String(name))) }
            steps += pieces.dropFirst().map { .index(Int($0.dropLast()) ?? -1) }
        }
        return steps
    }

    indirect enum Tree: Decodable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([Tree])
        case object([String: Tree])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .number(String(value))
            } else if let value = try? container.decode(Double.self) {
                self = .number(String(value))
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([Tree].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: Tree].self))
            }
        }

        var scalarText: String? {
            switch self {
            case .string(let text): text
            case .number(let text): text
            case .bool(let value): value ? "true" : "false"
            case .null, .array, .object: nil
            }
        }
    }
}
