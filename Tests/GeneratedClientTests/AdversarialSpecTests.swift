@testable import CourierGenerator
import CourierRuntime
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import ReferenceEscaping
import Testing

/// The adversarial spec (`Tests/References/Escaping/spec.yaml`): quotes, backslashes, `\(`,
/// `"""`, `*/`, HTML, emoji and right-to-left text in enum values, keys, defaults, headers and
/// messages. Its generated code is compiled as the `ReferenceEscaping` target; these tests check
/// that every string in it equals what the spec says, as the parser read it.
@Suite("Adversarial spec: strings survive exactly")
struct AdversarialSpecTests {
    static let specURL = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/References/Escaping/spec.yaml")

    static func spec() throws -> ServiceSpec {
        let result = SpecLoader().loadSpec(at: specURL)
        return try #require(result.spec, "\(result.diagnostics.renderedLines)")
    }

    @Test("Every enum value is a known case whose raw value equals the spec's text")
    func enumValues() throws {
        let values = try #require(try Self.spec().model(named: "Mood")).enumCases.map(\.value)
        #expect(values.count == 11)
        #expect(values.contains("\\(interpolated)") && values.contains("\"\"\"") && values.contains("*/"))
        for value in values {
            let mood = Mood(rawValue: value)
            if case .unknown = mood {
                Issue.record("\(value.debugDescription) decoded as unknown")
            }
            #expect(mood.rawValue == value)
        }
        #expect(Mood(rawValue: "\\(interpolated") == .unknown("\\(interpolated"))
    }

    @Test("Hostile JSON keys and values round-trip")
    func jsonKeys() throws {
        let note = Note(text: "ends with \\", quoted: "\"\"\"", slashed: .commentEnd, rtl: "שלום")
        let data = try JSONCoding().makeEncoder().encode(note)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(object == ["text": "ends with \\", "the \"key\"": "\"\"\"", "a\\b": "*/", "שלום": "שלום"])
        #expect(try JSONCoding().makeDecoder().decode(Note.self, from: data) == note)
    }

    @Test("Query names, defaults, the path template and the operation name equal the spec's")
    func requestStrings() throws {
        let endpoint = try #require(try Self.spec().endpoint(named: "say"))
        let request = SayRequest(word: "w", body: Note(text: "t"))
        #expect(request.path.template == endpoint.path.template)
        #expect(request.operationName == "say")
        let expected = endpoint.queryParameters.map { parameter -> Parameters.Item in
            let text = parameter.defaultValue?.description ?? ""
            return Parameters.Item(name: parameter.name, value: .string(text))
        }
        #expect(request.query.items == expected)
        #expect(request.query.items.first?.name == "filter[\"name\"]")
    }

    @Test("Fixed header values equal the spec's")
    func headers() throws {
        let header = try #require(try Self.spec().headers.first)
        let client = EscapingClient(transport: StubTransport())
        let name = try #require(HTTPField.Name(header.name))
        #expect(client.client.configuration.defaultHeaderFields[name] == header.value)
    }

    @Test("Error messages and discriminator values equal the spec's")
    func errorStrings() throws {
        let endpoint = try #require(try Self.spec().endpoint(named: "say"))
        let messages = Dictionary(uniqueKeysWithValues: endpoint.errorCases.compactMap { item in item.message.map { (item.name, $0) } })
        let bad = try #require(SayFailure.map(RawResponse(status: 400, body: Data(#"{"message": "m"}"#.utf8))))
        #expect(bad.errorDescription == messages["badInput"])
        #expect(bad.errorDescription?.contains("\\(nothing)") == true)

        guard case .discriminated(let discriminator) = endpoint.effectiveErrors.first(where: { $0.status == .exact(409) })?.outcome else {
            Issue.record("409 is not discriminated")
            return
        }
        for entry in discriminator.cases {
            let body = try JSONSerialization.data(withJSONObject: ["message": entry.value])
            let failure = try #require(SayFailure.map(RawResponse(status: 409, body: body)))
            let name = switch failure {
            case .quotedValue: "quotedValue"
            case .rtlValue: "rtlValue"
            default: "\(failure)"
            }
            #expect(name == entry.errorCase.name, "\(entry.value.debugDescription)")
            // A case without a message of its own names the status (format v2), never nil.
            #expect(failure.errorDescription == (entry.errorCase.message ?? "The server answered 409 Conflict."))
        }
        let other = try #require(SayFailure.map(RawResponse(status: 409, body: Data(#"{"message": "?"}"#.utf8))))
        #expect(other.errorDescription == "Line one\nLine two")
        #expect(other.errorDescription == messages["otherConflict"])
    }
}
