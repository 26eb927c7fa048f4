import Foundation

/// Finds the value at a ``FieldPath`` in a JSON document in one pass over its bytes.
///
/// Error bodies come from servers the client does not control, so reading one field must not
/// cost more than the body's length: the scanner builds nothing for the values it passes,
/// keeps its nesting on a heap stack instead of recursing, and still checks the whole
/// document's grammar so that a body that is not JSON yields `nil`, as decoding it would.
/// Only the value found is decoded, by `JSONDecoder`, so its text is the same as a full decode
/// would give. Two differences are deliberate: the strings it passes are not checked for valid
/// UTF-8, which a full decode would reject, so a discriminator is still found beside them; and
/// it reads UTF-8 only, where `JSONDecoder` would also read a UTF-16 or UTF-32 body.
struct DiscriminatorScanner {
    /// `JSONDecoder`'s own limit; deeper documents are rejected as it would reject them.
    static let maximumDepth = 512

    private enum Target {
        /// Nothing at the path, or a container.
        case none
        /// A scalar, by its byte offsets.
        case scalar(Range<Int>)
    }

    private struct Frame {
        var isObject: Bool
        /// Whether this container is at the path's first `depth` steps.
        var onPath: Bool
        /// Whether an object's key already matched its path step: `JSONDecoder` keeps the
        /// first of duplicate keys, so later ones are passed over.
        var matched = false
        /// The index of the element being read, for array steps.
        var count: Int
    }

    private enum Failure: Error {
        case invalid
    }

    /// The scalar's text at `steps` in `body`, or `nil` when the body is not JSON or no
    /// scalar is there.
    static func scalarText(at steps: [FieldPath.Step], in body: Data) -> String? {
        guard !steps.isEmpty else { return nil }
        let names = steps.map { step -> [UInt8]? in
            if case .member(let name) = step { return Array(name.utf8) }
            return nil
        }
        let found: Range<Int>?? = body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = Scan(bytes: bytes, steps: steps, names: names)
            do {
                return .some(try scanner.run())
            } catch {
                return .none
            }
        }
        guard case .some(.some(let range)) = found else { return nil }
        let start = body.startIndex + range.lowerBound
        let slice = body[start..<(start + range.count)]
        // An object or array there is no discriminator; decoding it would only rebuild the
        // subtree the scan was careful to skip.
        guard let first = slice.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "[") else { return nil }
        return (try? JSONDecoder().decode(JSONScalar.self, from: slice))?.text
    }

    private struct Scan {
        let bytes: UnsafeBufferPointer<UInt8>
        let steps: [FieldPath.Step]
        /// Each member step's name as UTF-8, compared with keys without unescaping them.
        let names: [[UInt8]?]
        var position = 0
        var stack: [Frame] = []
        var target = Target.none

        init(bytes: UnsafeBufferPointer<UInt8>, steps: [FieldPath.Step], names: [[UInt8]?]) {
            self.bytes = bytes
            self.steps = steps
            self.names = names
        }

        /// Scans the whole document; the byte range of the scalar at the path, if any.
        mutating func run() throws(Failure) -> Range<Int>? {
            // A UTF-8 byte order mark, which `JSONDecoder` skips too.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                position = 3
            }
            // The root is on the (empty) path prefix.
            var valueOnPath = true
            while true {
                skipWhitespace()
                guard position < bytes.count else { throw .invalid }
                let depth = stack.count
                let isTarget = valueOnPath && depth == steps.count
                let start = position
                switch bytes[position] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = bytes[position] == UInt8(ascii: "{")
                    if isTarget { target = .none }
                    guard depth < DiscriminatorScanner.maximumDepth else { throw .invalid }
                    position += 1
                    stack.append(Frame(isObject: isObject, onPath: valueOnPath && depth < steps.count, count: 0))
                    skipWhitespace()
                    guard position < bytes.count else { throw .invalid }
                    if bytes[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        position += 1
                        stack.removeLast()
                    } else {
                        valueOnPath = try beginElement()
                        continue
                    }
                case UInt8(ascii: "\""):
                    try skipString()
                    if isTarget { target = .scalar(start..<position) }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    try skipNumber()
                    if isTarget { target = .scalar(start..<position) }
                case UInt8(ascii: "t"):
                    try skipLiteral("true")
                    if isTarget { target = .scalar(start..<position) }
                case UInt8(ascii: "f"):
                    try skipLiteral("false")
                    if isTarget { target = .scalar(start..<position) }
                case UInt8(ascii: "n"):
                    try skipLiteral("null")
                    if isTarget { target = .scalar(start..<position) }
                default:
                    throw .invalid
                }
                // A value ended: close containers until one has a next element.
                while true {
                    skipWhitespace()
                    guard let frame = stack.last else {
                        guard position == bytes.count else { throw .invalid }
                        if case .scalar(let range) = target { return range }
                        return nil
                    }
                    guard position < bytes.count else { throw .invalid }
                    let byte = bytes[position]
                    if byte == UInt8(ascii: ",") {
                        position += 1
                        skipWhitespace()
                        // `JSONDecoder` accepts a comma before a closing bracket or brace.
                        if position < bytes.count, bytes[position] == (frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                            continue
                        }
                        stack[stack.count - 1].count += 1
                        valueOnPath = try beginElement()
                        break
                    }
                    guard byte == (frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw .invalid }
                    position += 1
                    stack.removeLast()
                }
            }
        }

        /// Reads what comes before an element of the innermost container (an object's key and
        /// colon) and tells whether the element is on the path.
        private mutating func beginElement() throws(Failure) -> Bool {
            guard let frame = stack.last else { throw .invalid }
            let step = stack.count - 1
            if !frame.isObject {
                return frame.onPath && steps[step] == .index(frame.count)
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw .invalid }
            let keyStart = position
            let hasEscape = try skipString()
            let matches = frame.onPath && !frame.matched && keyMatches(step: step, key: keyStart..<position, hasEscape: hasEscape)
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw .invalid }
            position += 1
            if matches { stack[step].matched = true }
            return matches
        }

        private func keyMatches(step: Int, key: Range<Int>, hasEscape: Bool) -> Bool {
            guard let name = names[step] else { return false }
            if !hasEscape {
                // Without the quotes.
                let inner = (key.lowerBound + 1)..<(key.upperBound - 1)
                return inner.count == name.count && bytes[inner].elementsEqual(name)
            }
            // Escaped keys are rare; decode just this one.
            let data = Data(UnsafeBufferPointer(rebasing: bytes[key]))
            guard let text = try? JSONDecoder().decode(String.self, from: data) else { return false }
            return Array(text.utf8) == name
        }

        private mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    position += 1
                default:
                    return
                }
            }
        }

        /// Skips a string from its opening quote; whether it had escapes.
        @discardableResult
        private mutating func skipString() throws(Failure) -> Bool {
            position += 1
            var hasEscape = false
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return hasEscape
                } else if byte == UInt8(ascii: "\\") {
                    hasEscape = true
                    position += 1
                    guard position < bytes.count else { throw .invalid }
                    switch bytes[position] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        position += 1
                    case UInt8(ascii: "u"):
                        position += 1
                        guard position + 4 <= bytes.count else { throw .invalid }
                        for _ in 0..<4 {
                            guard Self.isHexDigit(bytes[position]) else { throw .invalid }
                            position += 1
                        }
                    default:
                        throw .invalid
                    }
                } else if byte < 0x20 {
                    throw .invalid
                } else {
                    position += 1
                }
            }
            throw .invalid
        }

        private mutating func skipNumber() throws(Failure) {
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count else { throw .invalid }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                guard skipDigits() > 0 else { throw .invalid }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard skipDigits() > 0 else { throw .invalid }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                    position += 1
                }
                guard skipDigits() > 0 else { throw .invalid }
            }
        }

        private mutating func skipDigits() -> Int {
            let start = position
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                position += 1
            }
            return position - start
        }

        private mutating func skipLiteral(_ literal: StaticString) throws(Failure) {
            let count = literal.utf8CodeUnitCount
            guard position + count <= bytes.count else { throw .invalid }
            let start = position
            let matches = literal.withUTF8Buffer { expected in
                bytes[start..<(start + count)].elementsEqual(expected)
            }
            guard matches else { throw .invalid }
            position += count
        }

        private static func isHexDigit(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
                true
            default:
                false
            }
        }
    }
}
