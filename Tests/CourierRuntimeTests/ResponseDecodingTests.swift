@_spi(Generated) import CourierRuntime
import Foundation
import HTTPTypes
import Testing

/// Reading a success response beyond one JSON body: text in its charset, `String` as JSON or
/// text by the content type, and header field values as typed values.
@Suite struct ResponseDecodingTests {
    static func response(_ body: Data, contentType: String? = nil, fields: [(String, String)] = []) -> RawResponse {
        var headerFields = HTTPFields()
        if let contentType { headerFields[.contentType] = contentType }
        for (name, value) in fields {
            if let name = HTTPField.Name(name) { headerFields.append(HTTPField(name: name, value: value)) }
        }
        return RawResponse(status: .ok, headerFields: headerFields, body: body)
    }

    @Test("Text decodes in the named charset, quoted or not, any case; UTF-8 without one")
    func charsets() throws {
        let accented = "café ✓"
        #expect(try Self.response(Data(accented.utf8)).decodeText() == accented)
        #expect(try Self.response(Data(accented.utf8), contentType: "text/plain; charset=\"UTF-8\"").decodeText() == accented)
        #expect(try Self.response(Data([0x63, 0x61, 0x66, 0xE9]), contentType: "text/csv;charset=iso-8859-1").decodeText() == "café")
        #expect(try Self.response(Data([0x80]), contentType: "text/plain; charset=windows-1252").decodeText() == "€")
        let utf16 = try #require("hé".data(using: .utf16LittleEndian))
        #expect(try Self.response(utf16, contentType: "text/plain; charset=utf-16le").decodeText() == "hé")
    }

    @Test("Bytes not valid in their charset, and unknown charsets, fail without replacing anything")
    func badText() {
        #expect(throws: DecodingFailure.self) { try Self.response(Data([0xC3, 0x28])).decodeText() }
        #expect(throws: DecodingFailure.self) { try Self.response(Data([0xE9]), contentType: "text/plain; charset=us-ascii").decodeText() }
        #expect(throws: DecodingFailure.self) { try Self.response(Data("a".utf8), contentType: "text/plain; charset=koi8-r").decodeText() }
    }

    @Test("A String body is text unless the response says JSON; then it is a JSON string")
    func stringBodies() throws {
        #expect(try Self.response(Data(#""quoted""#.utf8), contentType: "text/plain").decodeBody(String.self) == #""quoted""#)
        #expect(try Self.response(Data(#""quoted""#.utf8), contentType: "application/json").decodeBody(String.self) == "quoted")
        #expect(try Self.response(Data(#""x""#.utf8), contentType: "application/problem+json").decodeBody(String.self) == "x")
        #expect(try Self.response(Data(), contentType: "text/plain").decodeBody(String.self) == "")
        #expect(throws: DecodingFailure.self) { try Self.response(Data(), contentType: "application/json").decodeBody(Int.self) }
    }

    @Test("Header field values read as their types; absent is nil; ill-formed is a failure at headers.<name>")
    func headerValues() throws {
        let date = Date(timeIntervalSince1970: 784_111_777)
        let response = Self.response(Data(), fields: [
            ("X-Count", " 42 "), ("X-Big", "9000000000"), ("X-Ratio", "1.5"), ("X-On", "TRUE"), ("X-Off", "?0"),
            ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"), ("X-Obsolete", "Sunday, 06-Nov-94 08:49:37 GMT"),
            ("X-Asctime", "Sun Nov  6 08:49:37 1994"), ("X-ISO", "1994-11-06T08:49:37Z"), ("X-Reset", "784111777"),
            ("Location", "/jobs/42"), ("X-Nan", "nan"), ("X-Twice", "1"), ("X-Twice", "2"),
        ])
        #expect(try response.headerField("X-Count", as: Int.self) == 42)
        #expect(try response.headerField("x-count", as: Int.self) == 42, "names are case-insensitive")
        #expect(try response.headerField("X-Big", as: Int64.self) == 9_000_000_000)
        #expect(try response.headerField("X-Ratio", as: Double.self) == 1.5)
        #expect(try response.headerField("X-On", as: Bool.self) == true)
        #expect(try response.headerField("X-Off", as: Bool.self) == false)
        for name in ["Last-Modified", "X-Obsolete", "X-Asctime", "X-ISO", "X-Reset"] {
            #expect(try response.headerField(name, as: Date.self) == date, "\(name)")
        }
        #expect(try response.headerField("Location", as: URL.self)?.relativeString == "/jobs/42")
        #expect(try response.headerField("X-Absent", as: Int.self) == nil)
        #expect(try response.headerField("X-Twice", as: String.self) == "1, 2")
        for (name, path) in [("X-Nan", "headers.X-Nan"), ("X-Twice", "headers.X-Twice")] {
            do {
                _ = try response.headerField(name, as: Double.self)
                Issue.record("\(name) should not read as a number")
            } catch {
                #expect(error.codingPath == path)
            }
        }
        do {
            _ = try response.requiredHeaderField("X-Absent", as: String.self)
            Issue.record("a missing required field must fail")
        } catch {
            #expect(error.codingPath == "headers.X-Absent")
            #expect(error.reason.contains("requires"))
        }
    }

    @Test("String enums read by raw value")
    func enumValues() throws {
        enum Cache: String, Sendable { case hit = "HIT", miss = "MISS" }
        let response = Self.response(Data(), fields: [("X-Cache", "HIT"), ("X-Other", "STALE")])
        #expect(try response.headerField("X-Cache", as: Cache.self) == .hit)
        #expect(throws: DecodingFailure.self) { try response.headerField("X-Other", as: Cache.self) }
    }
}
