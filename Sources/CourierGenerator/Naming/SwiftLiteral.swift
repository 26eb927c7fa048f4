/// Spells arbitrary text as Swift string literals whose value is exactly that text.
///
/// Everything the generator takes from a spec (descriptions, enum raw values, messages, paths)
/// reaches generated code through these functions, so a spec can neither break the generated
/// source nor make it read differently from what it does.
enum SwiftLiteral {
    /// A single-line string literal, in double quotes, whose value equals `text`.
    ///
    /// Escaped: `\` (so `\(` cannot start an interpolation), `"` (so neither `"` nor `"""` can end
    /// the literal), newline, carriage return, tab, NUL, every other control character, line and
    /// paragraph separators, and the Unicode bidirectional controls. The last group is written as
    /// `\u{...}` because, left raw, it can reorder how an editor or a code review shows the source
    /// (the "Trojan Source" attack) while the compiler reads something else. Everything else,
    /// including emoji, joiners and right-to-left letters, is kept as written.
    ///
    /// ```swift
    /// SwiftLiteral.string("Say \"hi\"\n")   // "Say \"hi\"\n" as source text, quotes included
    /// ```
    static func string(_ text: String) -> String {
        var literal = "\""
        literal.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case "\0": literal += "\\0"
            default:
                if needsUnicodeEscape(scalar) {
                    literal += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        literal += "\""
        return literal
    }

    /// A literal for a long, multi-line text such as a template, whose value equals `text`.
    ///
    /// Prefers a raw multi-line literal (`#"""` ... `"""#`), which keeps the text readable in the
    /// source. The number of `#` is the smallest that neither a `"` nor a `\` followed by that many
    /// `#` appears in the text, so nothing in the text can end the literal or start an escape.
    /// Each line is indented by `indentation`, which the compiler strips again because the closing
    /// delimiter carries the same indentation.
    ///
    /// Text that a multi-line literal cannot carry exactly (a carriage return, which the compiler
    /// normalises, or a control or bidirectional character, which must not appear raw in source)
    /// falls back to ``string(_:)``, which always round-trips.
    static func multiline(_ text: String, indentation: String = "") -> String {
        guard text.unicodeScalars.allSatisfy(isSafeInMultilineLiteral) else {
            return string(text)
        }
        let hashes = String(repeating: "#", count: rawDelimiterLength(for: text))
        var literal = hashes + "\"\"\"\n"
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // An empty line needs no indentation, and leaving it out avoids trailing whitespace.
            if !line.isEmpty {
                literal += indentation
            }
            literal += line
            literal += "\n"
        }
        literal += indentation + "\"\"\"" + hashes
        return literal
    }

    /// The smallest number of `#` (at least one) for a raw literal that can carry `text`.
    static func rawDelimiterLength(for text: String) -> Int {
        var length = 1
        while text.contains("\"" + String(repeating: "#", count: length))
            || text.contains("\\" + String(repeating: "#", count: length))
        {
            length += 1
        }
        return length
    }

    /// Whether `scalar` must be written as `\u{...}` rather than as itself.
    static func needsUnicodeEscape(_ scalar: Unicode.Scalar) -> Bool {
        // The ASCII answer without the Unicode property tables, which are slow to query for every
        // character of a large spec: ASCII's controls are U+0000-U+001F and U+007F, and no ASCII
        // scalar is a line or paragraph separator or a bidirectional control.
        if scalar.isASCII {
            return scalar.value < 0x20 || scalar.value == 0x7F
        }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return scalar.properties.isBidiControl
        }
    }

    private static func isSafeInMultilineLiteral(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\t" || !needsUnicodeEscape(scalar)
    }
}
