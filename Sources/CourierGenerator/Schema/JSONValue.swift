import Foundation

/// A JSON value whose objects keep their keys in the order written, so that the schemas Courier
/// prints read top-down like the format's documentation and are the same bytes on every run.
enum JSONValue: Sendable {
    case string(String)
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// The member named `key` of an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The value as JSON text: pretty-printed with two spaces and a final line break, or on one
    /// line when `indentedBy` is `nil`.
    func text(indentedBy indent: String? = "  ") -> String {
        var output = ""
        write(to: &output, indent: indent, depth: 0)
        return indent == nil ? output : output + "\n"
    }

    private func write(to output: inout String, indent: String?, depth: Int) {
        switch self {
        case .string(let text): output += Self.quoted(text)
        case .integer(let value): output += String(value)
        case .number(let value):
            output += value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .boolean(let value): output += value ? "true" : "false"
        case .null: output += "null"
        case .array(let items):
            writeContainer(items.map { (nil, $0) }, open: "[", close: "]", to: &output, indent: indent, depth: depth)
        case .object(let members):
            writeContainer(members.map { ($0.0, $0.1) }, open: "{", close: "}", to: &output, indent: indent, depth: depth)
        }
    }

    private func writeContainer(_ members: [(String?, JSONValue)], open: String, close: String,
                                to output: inout String, indent: String?, depth: Int) {
        guard !members.isEmpty else {
            output += open + close
            return
        }
        // Short lists of scalars stay on one line, as a person would write `"type": ["string", "number"]`.
        let inline = indent == nil || members.allSatisfy { $0.0 == nil && $0.1.isScalar } && members.count <= 8
        output += open
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { output += inline ? ", " : "," }
            if !inline, let indent { output += "\n" + String(repeating: indent, count: depth + 1) }
            if let key { output += Self.quoted(key) + ": " }
            value.write(to: &output, indent: indent, depth: depth + 1)
        }
        if !inline, let indent { output += "\n" + String(repeating: indent, count: depth) }
        output += close
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, nothing else
    /// (a `/` stays as written, so that patterns read as they are meant).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
