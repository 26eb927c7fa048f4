import Foundation

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
