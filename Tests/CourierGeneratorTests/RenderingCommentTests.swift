@testable import CourierGenerator
import Testing

@Suite struct SwiftCommentTests {
    @Test func emptyOrBlankTextGivesNoComment() {
        #expect(SwiftComment.documentation("") == "")
        #expect(SwiftComment.documentation(" \n\t\n  \r\n") == "")
    }

    @Test func everyKindOfLineBreakStartsANewDocLine() {
        let text = "one\ntwo\r\nthree\rfour\u{2028}five\u{2029}six\u{85}seven\u{0B}eight\u{0C}nine"
        #expect(
            SwiftComment.documentation(text)
                == "/// one\n/// two\n/// three\n/// four\n/// five\n/// six\n/// seven\n/// eight\n/// nine"
        )
    }

    @Test func trimsTrailingWhitespaceAndOuterBlankLinesButKeepsParagraphs() {
        let text = "\n\n  Summary.   \n\n  Details\tafter a tab.\t\n\n\n"
        #expect(SwiftComment.documentation(text, indentation: "    ") == "    ///   Summary.\n    ///\n    ///   Details\tafter a tab.")
    }

    @Test func commentMarkersInTheTextAreHarmless() {
        #expect(SwiftComment.documentation("a */ b /* c // d") == "/// a */ b /* c // d")
    }

    @Test func dropsControlAndBidirectionalCharacters() {
        let text = "nul\0 bell\u{7} rlo\u{202E} isolate\u{2066}x\u{2069} mark\u{200F} emoji 👨‍👩‍👧 שלום"
        #expect(SwiftComment.documentation(text) == "/// nul bell rlo isolatex mark emoji 👨‍👩‍👧 שלום")
    }

    @Test func everyLineOfEverySampleIsADocLine() {
        for sample in SwiftLiteralSamples.all {
            let comment = SwiftComment.documentation(sample, indentation: "  ")
            guard !comment.isEmpty else { continue }
            for line in comment.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(line.hasPrefix("  ///"), "line \(line.debugDescription) of \(sample.debugDescription)")
                #expect(!line.unicodeScalars.contains { SwiftLiteral.needsUnicodeEscape($0) && $0 != "\t" })
                #expect(line.last?.isWhitespace != true)
            }
        }
    }

    @Test func inlineTextStaysOnOneLine() {
        #expect(SwiftComment.inline("  Specs/My\nService\r\n.yaml\u{202E}  ") == "Specs/My Service .yaml")
        #expect(SwiftComment.inline("") == "")
    }
}
