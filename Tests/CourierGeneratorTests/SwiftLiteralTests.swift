@testable import CourierGenerator
import Foundation
import Testing

@Suite struct SwiftLiteralTests {
    @Test func escapesWhatWouldEndOrInterpolateTheLiteral() {
        #expect(SwiftLiteral.string(#"say "hi""#) == #""say \"hi\"""#)
        #expect(SwiftLiteral.string(#"C:\path"#) == #""C:\\path""#)
        #expect(SwiftLiteral.string(#"\(secret)"#) == #""\\(secret)""#)
        #expect(SwiftLiteral.string(#"""""#) == #""\"\"\"""#)
        #expect(SwiftLiteral.string("") == #""""#)
    }

    @Test func escapesLineBreaksAndControlCharacters() {
        #expect(SwiftLiteral.string("a\nb\r\nc\td") == #""a\nb\r\nc\td""#)
        #expect(SwiftLiteral.string("\0") == #""\0""#)
        #expect(SwiftLiteral.string("\u{7}\u{1B}\u{7F}\u{85}") == #""\u{7}\u{1B}\u{7F}\u{85}""#)
        #expect(SwiftLiteral.string("\u{2028}\u{2029}") == #""\u{2028}\u{2029}""#)
    }

    @Test func escapesEveryBidirectionalControl() {
        let controls: [UInt32] = [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in controls {
            let scalar = Unicode.Scalar(value)!
            let literal = SwiftLiteral.string("a\(Character(scalar))b")
            #expect(literal == "\"a\\u{\(String(value, radix: 16, uppercase: true))}b\"")
            #expect(!literal.unicodeScalars.contains(scalar))
        }
    }

    @Test func keepsEmojiJoinersAndRightToLeftLetters() {
        let text = "👨‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿 שָׁלוֹם مرحبا é"
        #expect(SwiftLiteral.string(text) == "\"" + text + "\"")
    }

    @Test func rawDelimiterAvoidsEverySequenceInTheText() {
        #expect(SwiftLiteral.rawDelimiterLength(for: "plain") == 1)
        #expect(SwiftLiteral.rawDelimiterLength(for: ##"a "# b"##) == 2)
        #expect(SwiftLiteral.rawDelimiterLength(for: ###"a \# "## b"###) == 3)
        #expect(SwiftLiteral.multiline("x", indentation: "  ") == "#\"\"\"\n  x\n  \"\"\"#")
    }

    @Test func multilineFallsBackForTextItCannotCarry() {
        #expect(SwiftLiteral.multiline("a\r\nb") == #""a\r\nb""#)
        #expect(SwiftLiteral.multiline("a\u{202E}b") == #""a\u{202E}b""#)
        #expect(SwiftLiteral.multiline("tab\there").hasPrefix("#\"\"\""))
    }

    /// Compiles one program holding every literal and comment, runs it, and compares the bytes
    /// each literal evaluates to with the input. Also proves that no comment breaks out: each
    /// nasty text carries an `#error` that would stop compilation if it became code.
    @Test func literalsEvaluateToExactlyTheirInput() async throws {
        let cases = SwiftLiteralSamples.all
        var program = "// Round-trip program written by SwiftLiteralTests.\n"
        program += "import Foundation\n\n"
        for (index, text) in cases.enumerated() {
            let documentation = SwiftComment.documentation(text, indentation: "    ")
            program += "enum Case\(index) {\n"
            if !documentation.isEmpty {
                program += documentation + "\n"
            }
            program += "    // \(SwiftComment.inline(text))\n"
            program += "    static let single = \(SwiftLiteral.string(text))\n"
            program += "    static let multi = \(SwiftLiteral.multiline(text, indentation: "        "))\n"
            program += "}\n"
        }
        program += "\nlet values: [(String, String)] = [\n"
        for index in cases.indices {
            program += "    (Case\(index).single, Case\(index).multi),\n"
        }
        program += "]\n"
        program += """
            for (single, multi) in values {
                print(single.utf8.map { String($0, radix: 16) }.joined(separator: " "))
                print(multi.utf8.map { String($0, radix: 16) }.joined(separator: " "))
            }

            """

        let output = try await SwiftProgramRunner.compileAndRun(program)
        var expected = ""
        for text in cases {
            let hex = text.utf8.map { String($0, radix: 16) }.joined(separator: " ")
            expected += hex + "\n" + hex + "\n"
        }
        let outputLines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(outputLines.count == expectedLines.count)
        for (index, text) in cases.enumerated() where 2 * index + 1 < outputLines.count {
            #expect(outputLines[2 * index] == expectedLines[2 * index], "single-line literal for \(text.debugDescription)")
            #expect(outputLines[2 * index + 1] == expectedLines[2 * index + 1], "multi-line literal for \(text.debugDescription)")
        }
    }
}

/// Texts chosen to break naive escaping.
enum SwiftLiteralSamples {
    static let all: [String] = [
        "",
        "plain",
        #"quote " inside"#,
        #"""" triple quotes """"#,
        #"backslash \ and \\ and trailing \"#,
        ##"interpolation \(1 + 1) and \#(2)"##,
        ###"raw delimiters "# "## \# \## ""#"###,
        "line\nbreak\n",
        "\nleading newline",
        "windows\r\nline\rbreaks",
        "tab\tand\u{0B}vertical\u{0C}feed",
        "nul \0 in the middle",
        "bell \u{7} escape \u{1B} delete \u{7F} next-line \u{85}",
        "separators \u{2028} and \u{2029}",
        "bidi \u{202A}\u{202B}\u{202C}\u{202D}\u{202E} isolates \u{2066}\u{2067}\u{2068}\u{2069} marks \u{200E}\u{200F}\u{061C}",
        "if access \u{202E} \u{2066}// admin\u{2069} \u{2066}",
        "emoji 👨‍👩‍👧‍👦 🏴󠁧󠁢󠁳󠁣󠁴󠁿 👍🏽 and zero-width joiner \u{200D}",
        "right-to-left שָׁלוֹם עולם and مرحبا بالعالم",
        "\u{301}combining mark first, last e\u{301}",
        "quote then combining mark \"\u{301} and backslash then one \\\u{301}",
        "*/ closes nothing /* opens nothing",
        "html <b>&amp;</b> & \"quoted\" 'single'",
        "comment breakout\n#error(\"broke out via newline\")",
        "comment breakout\r#error(\"broke out via carriage return\")",
        "comment breakout\r\n#error(\"broke out via CRLF\")",
        "comment breakout\u{2028}#error(\"broke out via line separator\")",
        "trailing spaces   \n   \n\t\n",
        "    indented\n        more",
        "\u{FEFF}byte order mark and \u{FFFD} replacement",
    ]
}
