/// Turns arbitrary text into Swift comments that stay comments.
///
/// Line comments (`///`, `//`) end only at a line break, so the text's line breaks are the one
/// way out; every kind of line break (including `\r`, U+2028 and U+0085, which some editors show as
/// new lines) starts a new comment line instead. `*/` needs nothing: it closes nothing in a line
/// comment. Control characters and bidirectional controls are dropped: a comment cannot escape
/// them, the compiler warns about some (NUL), and bidirectional controls can make a comment look
/// as if it ended early ("Trojan Source").
enum SwiftComment {
    /// A documentation comment of `///` lines for `text`, each line starting with `indentation`,
    /// joined by `\n`, without a final line break.
    ///
    /// Trailing whitespace is trimmed from every line, leading and trailing blank lines are
    /// removed, and blank lines inside the text stay as `///` (they separate Markdown paragraphs).
    /// Text that is empty or only whitespace yields an empty string, so that templates can write
    /// `{{#doc}}...{{/doc}}` and emit no comment at all.
    static func documentation(_ text: String, indentation: String = "") -> String {
        var lines = asciiSanitizedLines(text)
            ?? text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { sanitized(Substring($0)) }
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        return lines.map { line in
            line.isEmpty ? indentation + "///" : indentation + "/// " + line
        }.joined(separator: "\n")
    }

    /// `text` made fit to follow `//` on one line, as in the file header's spec path.
    ///
    /// Line breaks become spaces, control and bidirectional characters are dropped, and runs of
    /// whitespace at the ends are trimmed.
    static func inline(_ text: String) -> String {
        let joined = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .joined(separator: " ")
        return sanitized(Substring(joined)).trimmingLeadingWhitespace()
    }

    /// The lines of ASCII `text`, each as ``sanitized(_:)`` makes it; `nil` when the text is
    /// not ASCII.
    ///
    /// Doc comments are nearly always ASCII, and splitting them into `Character`s and asking each
    /// scalar's Unicode properties made sanitising a sixth of a large spec's generation time. On
    /// ASCII bytes the rules are exact: the line breaks are LF, VT, FF and CR, with CR LF one
    /// break (one `Character`); the characters dropped are the controls other than tab (U+0000-U+001F
    /// and U+007F); after that the only whitespace left to trim is space and tab.
    private static func asciiSanitizedLines(_ text: String) -> [String]? {
        var lines: [String] = []
        var line: [UInt8] = []
        var previousWasCR = false
        func finishLine() {
            while let last = line.last, last == 0x20 || last == 0x09 { line.removeLast() }
            lines.append(String(decoding: line, as: UTF8.self))
            line.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            switch byte {
            case 0x0A:
                if !previousWasCR { finishLine() }
            case 0x0B, 0x0C, 0x0D:
                finishLine()
            case 0x09:
                line.append(byte)
            case 0..<0x20, 0x7F:
                break
            default:
                line.append(byte)
            }
            previousWasCR = byte == 0x0D
        }
        finishLine()
        return lines
    }

    /// The line without characters a comment cannot carry, and without trailing whitespace.
    private static func sanitized(_ line: Substring) -> String {
        var result = String.UnicodeScalarView()
        for scalar in line.unicodeScalars where scalar == "\t" || !SwiftLiteral.needsUnicodeEscape(scalar) {
            result.append(scalar)
        }
        var text = String(result)
        while let last = text.last, last.isWhitespace {
            text.removeLast()
        }
        return text
    }
}

extension String {
    fileprivate func trimmingLeadingWhitespace() -> String {
        String(drop(while: \.isWhitespace))
    }
}
