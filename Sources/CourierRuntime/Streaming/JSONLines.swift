import Foundation

/// The values of a JSON Lines body (`application/jsonl`, `application/x-ndjson`), decoded one
/// line at a time as the bytes arrive.
///
/// Lines end at LF or CRLF (a lone CR too); blank lines, such as keep-alives, are skipped. A
/// line that does not decode ends the sequence with ``StreamingError/undecodableLine(number:reason:)``.
public struct JSONLines<Base: AsyncSequence & Sendable, Value: Decodable & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
    /// A decoded line.
    public typealias Element = Value

    let base: Base
    let coding: JSONCoding
    let maximumLineLength: Int

    /// Decodes the lines of `base`.
    ///
    /// - Parameters:
    ///   - base: The body's chunks.
    ///   - coding: How keys and dates are decoded.
    ///   - maximumLineLength: The most bytes one line may hold; 16 MiB by default.
    public init(_ base: Base, coding: JSONCoding = JSONCoding(), maximumLineLength: Int = 16 * 1024 * 1024) {
        self.base = base
        self.coding = coding
        self.maximumLineLength = maximumLineLength
    }

    /// Reads values one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var lines: LineSplitter
        let decoder: JSONDecoder
        var ready: [Value] = []
        var lineNumber = 0
        var finished = false

        /// The next value, or `nil` when the body has ended.
        public mutating func next() async throws -> Value? {
            while ready.isEmpty {
                if finished { return nil }
                guard let chunk = try await base.next() else {
                    finished = true
                    // A last line without a line ending still counts.
                    let last = lines.remainder
                    if let value = try decode(last) { return value }
                    return nil
                }
                var decoded: [Value] = []
                var splitter = lines
                defer { lines = splitter }
                try splitter.feed(chunk) { line in
                    if let value = try decode(line) { decoded.append(value) }
                }
                ready = decoded
            }
            return ready.removeFirst()
        }

        private mutating func decode(_ line: [UInt8]) throws -> Value? {
            lineNumber += 1
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return nil }
            do {
                return try decoder.decode(Value.self, from: Data(line))
            } catch {
                throw StreamingError.undecodableLine(number: lineNumber, reason: String(describing: error))
            }
        }
    }

    /// Starts reading from the beginning of the body.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), lines: LineSplitter(maximumLineLength: maximumLineLength), decoder: coding.makeDecoder())
    }
}
