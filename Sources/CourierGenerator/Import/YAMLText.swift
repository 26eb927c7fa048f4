import Foundation

/// Writes YAML text a person can read and Courier reads back exactly: block mappings, flow lists
/// of short scalars, and scalars quoted only when the plain form would mean something else.
struct YAMLText {
    private(set) var lines: [String] = []

    /// `key: value` at `depth` (two spaces a level); `value` is written as a scalar.
    mutating func field(_ key: String, _ value: String, depth: Int) {
        lines.append(indent(depth) + Self.key(key) + ": " + Self.scalar(value))
    }

    /// `key: value` with `value` already YAML (a flow list, a number, `true`).
    mutating func field(_ key: String, raw value: String, depth: Int) {
        lines.append(indent(depth) + Self.key(key) + ": " + value)
    }

    /// `key:`, opening a block of the lines that follow at `depth + 1`.
    mutating func open(_ key: String, depth: Int) {
        lines.append(indent(depth) + Self.key(key) + ":")
    }

    /// A status key (`404`, `4XX`, `default`), written plain: Courier reads status keys as text.
    mutating func status(_ key: String, _ value: String?, depth: Int) {
        lines.append(indent(depth) + key + ":" + (value.map { " " + $0 } ?? ""))
    }

    /// A line written as it is, at `depth`.
    mutating func line(_ text: String, depth: Int) {
        lines.append(indent(depth) + text)
    }

    /// A comment line.
    mutating func comment(_ text: String, depth: Int = 0) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(indent(depth) + "# " + line)
        }
    }

    /// A line written as given, such as an editor's modeline.
    mutating func line(_ text: String) {
        lines.append(text)
    }

    mutating func blank() {
        lines.append("")
    }

    var text: String { lines.joined(separator: "\n") + "\n" }

    private func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }

    /// A flow list of scalars: `[a, b, "c, d"]`.
    static func list(_ items: [String]) -> String {
        "[" + items.map { flowScalar($0) }.joined(separator: ", ") + "]"
    }

    /// A mapping key: plain when it reads back as the same string, else double-quoted.
    static func key(_ text: String) -> String {
        isPlainSafe(text, inFlow: false) ? text : doubleQuoted(text)
    }

    /// A scalar value in block context.
    static func scalar(_ text: String) -> String {
        isPlainSafe(text, inFlow: false) ? text : doubleQuoted(text)
    }

    /// A scalar inside `[…]` or `{…}`, where `, [ ] { }` end a plain scalar.
    static func flowScalar(_ text: String) -> String {
        isPlainSafe(text, inFlow: true) ? text : doubleQuoted(text)
    }

    /// Words YAML 1.1 or 1.2 resolvers read as something other than a string. Courier reads
    /// every scalar as text, but a person's editor and other tools may not, so these are quoted.
    private static let specialWords: Set<String> = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~",
        "True", "False", "Yes", "No", "On", "Off", "Y", "N", "Null", "NULL", "TRUE", "FALSE", "YES", "NO", "ON", "OFF",
        ".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN", "<<",
    ]

    /// Whether `text` written plain reads back as exactly `text`, as a string.
    static func isPlainSafe(_ text: String, inFlow: Bool) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if specialWords.contains(text) || looksNumeric(text) { return false }
        if first == " " || last == " " || last == ":" { return false }
        if "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) {
            // `-`, `?` and `:` may start a plain scalar when a non-space follows, but a person
            // reading `- x` or `? x` sees structure: quote them all.
            return false
        }
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
                || scalar.value == 0xFEFF {
                return false
            }
            if scalar == "#" && previous == " " { return false }
            if previous == ":" && scalar == " " { return false }
            if inFlow && ",[]{}".unicodeScalars.contains(scalar) { return false }
            previous = scalar
        }
        return true
    }

    /// Whether a resolver could read `text` as a number (`1`, `-2.5`, `1e3`, `0x1F`, `0o7`, `1_000`).
    static func looksNumeric(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        guard let first = body.first else { return false }
        if first == "." { return body.dropFirst().first?.isNumber == true }
        guard first.isNumber else { return false }
        return body.allSatisfy { $0.isHexDigit || "._xXoObBeE+-:".contains($0) }
    }

    /// `"…"` with the characters a double-quoted scalar must escape escaped.
    static func doubleQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x85 || scalar.value == 0x2028
                    || scalar.value == 0x2029 || scalar.value == 0xFEFF {
                    result += String(format: "\\u%04X", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
