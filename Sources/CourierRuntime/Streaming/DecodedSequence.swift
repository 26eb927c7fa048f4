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

/// Server-sent events or multipart parts whose payloads are decoded as JSON, for endpoints
/// whose events or parts carry one type.
///
/// Each element keeps what arrived (``Element/raw``: the ``ServerSentEvent`` or the
/// ``MultipartPart``) beside the decoded ``Element/value``, and reads its fields through, so
/// `element.event`, `element.id` and `element.headerFields` work as on the raw element. A
/// payload that does not decode ends the sequence with
/// ``StreamingError/undecodableEvent(id:event:reason:)`` or
/// ``StreamingError/undecodablePart(number:reason:)``.
///
/// ```swift
/// for try await update in DecodedSequence(events, as: OrderUpdate.self) {
///     print(update.id ?? "-", update.value.status)
/// }
/// ```
public struct DecodedSequence<Base: AsyncSequence & Sendable, Value: Decodable & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
    /// What arrived, and its payload decoded.
    @dynamicMemberLookup
    public struct Element: Sendable {
        /// The event or part as it arrived.
        public var raw: Base.Element
        /// The decoded payload.
        public var value: Value

        /// A field of ``raw``, such as an event's `id` or a part's `headerFields`.
        public subscript<Field>(dynamicMember field: KeyPath<Base.Element, Field>) -> Field {
            raw[keyPath: field]
        }
    }

    /// Decodes one element; its position, counting from 1, is for the error.
    typealias Decode = @Sendable (Base.Element, Int) throws(StreamingError) -> Value

    let base: Base
    let decode: Decode

    /// Reads elements one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let decode: Decode
        var number = 0

        /// The next decoded element, or `nil` at the end.
        public mutating func next() async throws -> Element? {
            guard let raw = try await base.next() else { return nil }
            number += 1
            return Element(raw: raw, value: try decode(raw, number))
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), decode: decode)
    }
}

extension DecodedSequence where Base.Element == ServerSentEvent {
    /// Decodes the data of `base`'s events as `Value`.
    public init(_ base: Base, as type: Value.Type = Value.self, coding: JSONCoding = JSONCoding()) {
        self.base = base
        decode = { event, _ throws(StreamingError) in try event.decodeData(as: Value.self, coding: coding) }
    }
}

extension DecodedSequence where Base.Element == MultipartPart {
    /// Decodes the bodies of `base`'s parts as `Value`.
    public init(_ base: Base, as type: Value.Type = Value.self, coding: JSONCoding = JSONCoding()) {
        self.base = base
        decode = { part, number throws(StreamingError) in try part.decodeBody(as: Value.self, coding: coding, number: number) }
    }
}
