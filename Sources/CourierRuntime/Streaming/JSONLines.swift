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

extension ServerSentEvent {
    /// The event's data decoded as JSON.
    ///
    /// - Parameters:
    ///   - type: What the data decodes to.
    ///   - coding: How keys and dates are decoded.
    /// - Throws: ``StreamingError/undecodableEvent(id:event:reason:)``.
    public func decodeData<Value: Decodable>(as type: Value.Type, coding: JSONCoding = JSONCoding()) throws(StreamingError) -> Value {
        do {
            return try coding.makeDecoder().decode(Value.self, from: Data(data.utf8))
        } catch {
            throw .undecodableEvent(id: id, event: event, reason: String(describing: error))
        }
    }
}

/// Server-sent events whose data is decoded as JSON, for endpoints whose events carry one type.
///
/// Each element keeps the event's type and id beside the decoded value; an event whose data
/// does not decode ends the sequence with ``StreamingError/undecodableEvent(id:event:reason:)``.
public struct TypedServerSentEvents<Base: AsyncSequence & Sendable, Value: Decodable & Sendable>: AsyncSequence, Sendable
where Base.Element == ServerSentEvent {
    /// An event and its decoded data.
    public struct Element: Sendable {
        /// The event type (`message` unless the server named one).
        public var event: String
        /// The last event ID at this event.
        public var id: String?
        /// The decoded data.
        public var value: Value
    }

    let base: Base
    let coding: JSONCoding

    /// Decodes the data of `base`'s events as `Value`.
    public init(_ base: Base, as type: Value.Type = Value.self, coding: JSONCoding = JSONCoding()) {
        self.base = base
        self.coding = coding
    }

    /// Reads events one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let coding: JSONCoding

        /// The next decoded event, or `nil` at the end.
        public mutating func next() async throws -> Element? {
            guard let event = try await base.next() else { return nil }
            return Element(event: event.event, id: event.id, value: try event.decodeData(as: Value.self, coding: coding))
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), coding: coding)
    }
}
