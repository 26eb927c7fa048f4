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

    /// What a scan found at one path.
    enum Found: Equatable, Sendable {
        /// Nothing there, or the body is not JSON.
        case absent
        /// An object or an array.
        case container
        /// A scalar (`null` included), by its byte offsets.
        case scalar(Range<Int>)
    }

    private struct Frame {
        var isObject: Bool
        /// The paths whose first `depth` steps lead to this container, one bit per path, so
        /// that the frames of a deep or wide body cost no allocation.
        var onPaths: PathSet
        /// The paths whose key already matched in this object: `JSONDecoder` keeps the first of
        /// duplicate keys, so later ones are passed over.
        var matched: PathSet = 0
        /// The index of the element being read, for array steps.
        var count: Int
    }

    private enum Failure: Error {
        case invalid
    }

    /// The result of one pass: what is at each path, and the work it took.
    struct Scanned {
        /// By path, in the order asked; all `.absent` when the body is not JSON.
        var found: [Found]
        /// Bytes stepped over plus key comparisons: what linearity is measured in. Bounded by
        /// the body's length plus its keys times the number of paths.
        var work: Int
    }

    /// The scalar's text at `steps` in `body`, or `nil` when the body is not JSON or no
    /// scalar is there.
    static func scalarText(at steps: [FieldPath.Step], in body: Data) -> String? {
        guard case .scalar(let range) = scan([steps], in: body).found[0] else { return nil }
        return scalar(in: body, at: range)?.text
    }

    /// The scalar in `body` at `range`, decoded by `JSONDecoder`.
    static func scalar(in body: Data, at range: Range<Int>) -> JSONScalar? {
        let start = body.startIndex + range.lowerBound
        let slice = body[start..<(start + range.count)]
        return try? JSONDecoder().decode(JSONScalar.self, from: slice)
    }

    /// A set of paths, by their index among the paths of one pass.
    typealias PathSet = UInt64

    /// Reads every path in one pass over `body` (one pass per 64 paths, far more than any
    /// mapping reads).
    static func scan(_ paths: [[FieldPath.Step]], in body: Data) -> Scanned {
        guard paths.count <= PathSet.bitWidth else {
            var combined = Scanned(found: [], work: 0)
            for start in stride(from: 0, to: paths.count, by: PathSet.bitWidth) {
                let part = scan(Array(paths[start..<min(start + PathSet.bitWidth, paths.count)]), in: body)
                combined.found += part.found
                combined.work += part.work
            }
            return combined
        }
        let absent = Scanned(found: Array(repeating: .absent, count: paths.count), work: 0)
        guard !paths.isEmpty, paths.allSatisfy({ !$0.isEmpty }) else { return absent }
        let names = paths.map { steps in
            steps.map { step -> [UInt8]? in
                if case .member(let name) = step { return Array(name.utf8) }
                return nil
            }
        }
        return body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = Scan(bytes: bytes, paths: paths, names: names)
            do {
                try scanner.run()
                return Scanned(found: scanner.found, work: scanner.position + scanner.comparisons)
            } catch {
                return Scanned(found: absent.found, work: scanner.position + scanner.comparisons)
            }
        }
    }

    private struct Scan {
        let bytes: UnsafeBufferPointer<UInt8>
        let paths: [[FieldPath.Step]]
        /// Each member step's name as UTF-8, compared with keys without unescaping them.
        let names: [[[UInt8]?]]
        var position = 0
        var stack: [Frame] = []
        var found: [Found]
        var comparisons = 0

        init(bytes: UnsafeBufferPointer<UInt8>, paths: [[FieldPath.Step]], names: [[[UInt8]?]]) {
            self.bytes = bytes
            self.paths = paths
            self.names = names
            self.found = Array(repeating: .absent, count: paths.count)
        }

        /// Scans the whole document, recording in `found` what is at each path.
        mutating func run() throws(Failure) {
            // A UTF-8 byte order mark, which `JSONDecoder` skips too.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                position = 3
            }
            // The root is on every (empty) path prefix.
            var valueOnPaths: PathSet = paths.count == PathSet.bitWidth ? ~0 : (1 << paths.count) - 1
            while true {
                skipWhitespace()
                guard position < bytes.count else { throw .invalid }
                let depth = stack.count
                let start = position
                switch bytes[position] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = bytes[position] == UInt8(ascii: "{")
                    record(.container, for: valueOnPaths, depth: depth)
                    guard depth < DiscriminatorScanner.maximumDepth else { throw .invalid }
                    position += 1
                    let inside = valueOnPaths == 0 ? 0 : select(valueOnPaths) { depth < paths[$0].count }
                    stack.append(Frame(isObject: isObject, onPaths: inside, count: 0))
                    skipWhitespace()
                    guard position < bytes.count else { throw .invalid }
                    if bytes[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        position += 1
                        stack.removeLast()
                    } else {
                        valueOnPaths = try beginElement()
                        continue
                    }
                case UInt8(ascii: "\""):
                    try skipString()
                    record(.scalar(start..<position), for: valueOnPaths, depth: depth)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    try skipNumber()
                    record(.scalar(start..<position), for: valueOnPaths, depth: depth)
                case UInt8(ascii: "t"):
                    try skipLiteral("true")
                    record(.scalar(start..<position), for: valueOnPaths, depth: depth)
                case UInt8(ascii: "f"):
                    try skipLiteral("false")
                    record(.scalar(start..<position), for: valueOnPaths, depth: depth)
                case UInt8(ascii: "n"):
                    try skipLiteral("null")
                    record(.scalar(start..<position), for: valueOnPaths, depth: depth)
                default:
                    throw .invalid
                }
                // A value ended: close containers until one has a next element.
                while true {
                    skipWhitespace()
                    guard let frame = stack.last else {
                        guard position == bytes.count else { throw .invalid }
                        return
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
                        valueOnPaths = try beginElement()
                        break
                    }
                    guard byte == (frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw .invalid }
                    position += 1
                    stack.removeLast()
                }
            }
        }

        /// Records what a value is for the paths it ends.
        private mutating func record(_ value: Found, for valueOnPaths: PathSet, depth: Int) {
            guard valueOnPaths != 0 else { return }
            var rest = valueOnPaths
            while rest != 0 {
                let path = rest.trailingZeroBitCount
                rest &= rest - 1
                if paths[path].count == depth { found[path] = value }
            }
        }

        /// The paths of `set` for which `include` holds.
        private func select(_ set: PathSet, _ include: (Int) -> Bool) -> PathSet {
            var selected: PathSet = 0
            var rest = set
            while rest != 0 {
                let path = rest.trailingZeroBitCount
                rest &= rest - 1
                if include(path) { selected |= 1 << path }
            }
            return selected
        }

        /// Reads what comes before an element of the innermost container (an object's key and
        /// colon) and tells for which paths the element is on the path.
        private mutating func beginElement() throws(Failure) -> PathSet {
            guard let frame = stack.last else { throw .invalid }
            let step = stack.count - 1
            if !frame.isObject {
                guard frame.onPaths != 0 else { return 0 }
                return select(frame.onPaths) { paths[$0][step] == .index(frame.count) }
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw .invalid }
            let keyStart = position
            let hasEscape = try skipString()
            var matches: PathSet = 0
            let candidates = frame.onPaths & ~frame.matched
            if candidates != 0 {
                let key = keyStart..<position
                // An escaped key is rare; it is decoded once, whatever the number of paths.
                var unescaped: [UInt8]?
                if hasEscape {
                    let data = Data(UnsafeBufferPointer(rebasing: bytes[key]))
                    unescaped = (try? JSONDecoder().decode(String.self, from: data)).map { Array($0.utf8) } ?? []
                }
                var rest = candidates
                while rest != 0 {
                    let path = rest.trailingZeroBitCount
                    rest &= rest - 1
                    comparisons += 1
                    if keyMatches(names[path][step], key: key, unescaped: unescaped) { matches |= 1 << path }
                }
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw .invalid }
            position += 1
            if matches != 0 { stack[step].matched |= matches }
            return matches
        }

        private func keyMatches(_ name: [UInt8]?, key: Range<Int>, unescaped: [UInt8]?) -> Bool {
            guard let name else { return false }
            if let unescaped { return unescaped == name }
            // Without the quotes.
            let inner = (key.lowerBound + 1)..<(key.upperBound - 1)
            return inner.count == name.count && bytes[inner].elementsEqual(name)
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
