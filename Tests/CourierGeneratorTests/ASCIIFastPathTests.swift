@testable import CourierGenerator
import Testing

/// Name conversion and comment sanitising take a byte-level path for ASCII text, for speed on
/// large specs. One non-ASCII character sends the same text down the general Unicode path; these
/// tests add one where it cannot change the result and require both paths to agree.
@Suite struct ASCIIFastPathTests {
    static let names = [
        "get-user", "getUser", "GetUser", "x-request-id", "user_ids", "userIDs", "URLsList", "IDs", "ID",
        "HTTPResponse", "getHTTPResponse", "STATUS_CODE", "JSONAPIErrors", "oauth2Token", "sha256_hash",
        "2fa", "2fa_code", "@type", "filter[author]", "-published_year", "ABCdef", "aBC", "A", "_", "",
        "line\r\nbreak", "tab\there", "mixed--__..Separators", "ETag", "IPv6Address", "APIKeys", "s", "S",
        "JSONAPI", "HTTPAPI", "JSONAPI_ERRORS",
    ]

    /// `·` (U+00B7) is punctuation, so at the end it separates nothing from nothing.
    @Test(arguments: names)
    func namesConvertAlikeOnBothPaths(name: String) {
        #expect(SwiftIdentifier(memberNamed: name) == SwiftIdentifier(memberNamed: name + "\u{B7}"))
        #expect(SwiftIdentifier(typeNamed: name) == SwiftIdentifier(typeNamed: name + "\u{B7}"))
    }

    static let comments = [
        "One line.", "  Leading and trailing  \t", "Para one.\n\nPara two.\n", "\n\nBlank lines first\n\n",
        "CR\rLF\nCRLF\r\nCRCRLF\r\r\nend", "Vertical\u{0B}tab and form\u{0C}feed", "Bell\u{07} and DEL\u{7F} dropped",
        "Tab\tkept", "NUL\u{0}gone", "*/ and /* and ///", "trailing tab\t\t\nnext  ", "",
    ]

    /// U+2029 (paragraph separator) only adds a blank last line, which the comment drops.
    @Test(arguments: comments)
    func commentsSanitiseAlikeOnBothPaths(text: String) {
        #expect(SwiftComment.documentation(text) == SwiftComment.documentation(text + "\u{2029}"))
        #expect(SwiftComment.documentation(text, indentation: "    ")
            == SwiftComment.documentation(text + "\u{2029}", indentation: "    "))
    }

    /// Every ASCII scalar: escaped in a literal exactly when it is a control character.
    @Test func asciiScalarsEscapeExactlyWhenControl() {
        for value in UInt8(0)..<0x80 {
            let scalar = Unicode.Scalar(value)
            let literal = SwiftLiteral.string(String(Character(scalar)))
            let isControl = scalar.properties.generalCategory == .control
            let isSimple = !["\\", "\"", "\n", "\r", "\t", "\0"].contains(Character(scalar))
            if isSimple {
                #expect(literal.contains("\\u{") == isControl, "U+\(String(value, radix: 16))")
            }
        }
    }
}
