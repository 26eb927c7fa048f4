/// Parses the small languages written inside scalars: type expressions (`[String: Pet]?`),
/// body field paths (`errors[0].code`) and path templates (`/pets/{petId}`).
enum TypeExpression {
    /// Parses `text` as a type: `Name`, `[T]`, `[String: T]`, each optionally followed by `?`.
    /// Returns a message naming the problem when `text` is not a type.
    static func parse(_ text: String) -> Result<TypeReference, ExpressionError> {
        var parser = Parser(scalars: Array(text.unicodeScalars))
        do throws(ExpressionError) {
            let type = try parser.parseType()
            parser.skipSpaces()
            guard parser.isAtEnd else {
                throw ExpressionError("unexpected '\(parser.rest)' after type '\(type)'")
            }
            return .success(type)
        } catch {
            return .failure(error)
        }
    }

    /// A problem in an expression.
    struct ExpressionError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        var isAtEnd: Bool { index >= scalars.count }
        var rest: String { String(String.UnicodeScalarView(scalars[min(index, scalars.count)...])) }

        mutating func skipSpaces() {
            while index < scalars.count, scalars[index] == " " { index += 1 }
        }

        mutating func consume(_ scalar: Unicode.Scalar) -> Bool {
            skipSpaces()
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
            return true
        }

        /// How deep `[` may nest. Far beyond any real type; keeps hostile input from exhausting the stack.
        static let maximumDepth = 32
        var depth = 0

        mutating func parseType() throws(ExpressionError) -> TypeReference {
            skipSpaces()
            var type: TypeReference
            if consume("[") {
                depth += 1
                defer { depth -= 1 }
                guard depth <= Self.maximumDepth else {
                    throw ExpressionError("type is nested more than \(Self.maximumDepth) levels deep")
                }
                let first = try parseType()
                if consume(":") {
                    guard first == .primitive(.string) else {
                        throw ExpressionError("map keys must be String, found '\(first)'")
                    }
                    let value = try parseType()
                    type = .map(value)
                } else {
                    type = .array(first)
                }
                guard consume("]") else { throw ExpressionError("missing ']' in type") }
            } else {
                let name = parseName()
                guard !name.isEmpty else {
                    throw ExpressionError(isAtEnd ? "missing type name" : "unexpected '\(rest)' where a type name should be")
                }
                type = PrimitiveType(rawValue: name).map(TypeReference.primitive) ?? .named(name)
            }
            if consume("?") {
                type = .optional(type)
                skipSpaces()
                if index < scalars.count, scalars[index] == "?" {
                    throw ExpressionError("a type can be optional only once ('\(type)?')")
                }
            }
            return type
        }

        mutating func parseName() -> String {
            skipSpaces()
            var name = String.UnicodeScalarView()
            while index < scalars.count, Self.isNameScalar(scalars[index]) {
                name.append(scalars[index])
                index += 1
            }
            return String(name)
        }

        static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" || scalar == "."
        }
    }

    /// Parses a body field path: keys separated by `.`, with `[n]` array indices.
    static func parseFieldPath(_ text: String) -> Result<FieldPath, ExpressionError> {
        var components: [FieldPath.Component] = []
        var key = ""
        var scalars = text.unicodeScalars.makeIterator()
        var expectingKey = true
        func flushKey() throws(ExpressionError) {
            if !key.isEmpty {
                components.append(.key(key))
                key = ""
            } else if expectingKey {
                throw ExpressionError("empty field name in path '\(text)'")
            }
        }
        do throws(ExpressionError) {
            while let scalar = scalars.next() {
                switch scalar {
                case ".":
                    try flushKey()
                    expectingKey = true
                case "[":
                    try flushKey()
                    var digits = ""
                    var closed = false
                    while let next = scalars.next() {
                        if next == "]" { closed = true; break }
                        digits.unicodeScalars.append(next)
                    }
                    guard closed, let index = Int(digits), index >= 0 else {
                        throw ExpressionError("'[\(digits)' in path '\(text)' must be an index such as [0]")
                    }
                    components.append(.index(index))
                    expectingKey = false
                case "]", " ":
                    throw ExpressionError("unexpected '\(scalar)' in path '\(text)'")
                default:
                    if !expectingKey && key.isEmpty {
                        throw ExpressionError("expected '.' or '[' after ']' in path '\(text)'")
                    }
                    key.unicodeScalars.append(scalar)
                    expectingKey = true
                }
            }
            if !key.isEmpty {
                components.append(.key(key))
            } else if expectingKey || components.isEmpty {
                throw ExpressionError("path '\(text)' must end with a field name or index")
            }
        } catch {
            return .failure(error)
        }
        guard case .key = components.first else {
            return .failure(ExpressionError("path '\(text)' must start with a field name"))
        }
        return .success(FieldPath(components: components))
    }

    /// Splits a path template into literals and `{parameters}`.
    static func parsePathTemplate(_ text: String) -> Result<PathTemplate, ExpressionError> {
        guard text.hasPrefix("/") else {
            return .failure(ExpressionError("path '\(NodeReader.abbreviated(text))' must start with '/'"))
        }
        var segments: [PathTemplate.Segment] = []
        var literal = ""
        var parameter: String?
        for character in text {
            switch (character, parameter) {
            case ("{", nil):
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = ""
                parameter = ""
            case ("}", let name?):
                guard !name.isEmpty else { return .failure(ExpressionError("empty '{}' in path '\(text)'")) }
                segments.append(.parameter(name))
                parameter = nil
            case ("{", _?):
                return .failure(ExpressionError("'{' inside a parameter in path '\(text)'"))
            case ("}", nil):
                return .failure(ExpressionError("'}' without '{' in path '\(text)'"))
            case (_, let name?):
                parameter = name + String(character)
            case (_, nil):
                if character == "?" || character == "#" || character == " " {
                    return .failure(ExpressionError("path '\(text)' must not contain '\(character)'; declare query parameters under 'query:'"))
                }
                literal.append(character)
            }
        }
        if parameter != nil { return .failure(ExpressionError("missing '}' in path '\(text)'")) }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return .success(PathTemplate(template: text, segments: segments))
    }
}
