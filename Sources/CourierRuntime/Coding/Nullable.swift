/// A value that the server may send as an explicit `null`, distinct from leaving the key out.
///
/// Generated models use it as `Nullable<Wrapped>?` for a property the spec marks
/// `nullable: true`, so that each of the three states has its own spelling:
///
/// | Swift | JSON |
/// |---|---|
/// | `nil` | the key is left out |
/// | `.null` | `"key": null` |
/// | `.value(x)` | `"key": x` |
///
/// A PATCH body clears a field with `.null` (GitHub's `"milestone": null`) and leaves it alone
/// with `nil`. Decoding keeps the same distinction: a missing key is `nil`, an explicit `null`
/// is `.null`. A double optional (`Wrapped??`) could hold the same states, but `nil` and
/// `.some(nil)` read alike at a call site and the compiler flattens them in places; a named case
/// says what is sent.
public enum Nullable<Wrapped> {
    /// An explicit JSON `null`.
    case null
    /// A value.
    case value(Wrapped)

    /// The value, or `nil` for ``null``.
    public var value: Wrapped? {
        if case .value(let wrapped) = self { return wrapped }
        return nil
    }

    /// `.value(wrapped)`, or ``null`` when `wrapped` is `nil`.
    public init(_ wrapped: Wrapped?) {
        self = wrapped.map(Nullable.value) ?? .null
    }
}

extension Nullable: Sendable where Wrapped: Sendable {}
extension Nullable: Equatable where Wrapped: Equatable {}
extension Nullable: Hashable where Wrapped: Hashable {}

extension Nullable: Decodable where Wrapped: Decodable {
    /// Reads `null` as ``null`` and anything else as a `Wrapped`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .null : .value(try container.decode(Wrapped.self))
    }
}

extension Nullable: Encodable where Wrapped: Encodable {
    /// Writes ``null`` as `null` and a value as itself.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .value(let wrapped): try container.encode(wrapped)
        }
    }
}

extension KeyedDecodingContainer {
    /// `nil` when `key` is missing, ``Nullable/null`` when it holds `null`, the value otherwise.
    ///
    /// `decodeIfPresent` cannot serve: it answers `nil` for an explicit `null` too, which is the
    /// distinction a `nullable` property exists to keep.
    @_spi(Generated) public func decodeNullable<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Nullable<Value>? {
        guard contains(key) else { return nil }
        return try decodeNil(forKey: key) ? .null : .value(decode(Value.self, forKey: key))
    }

    /// `nil` when `key` is missing, otherwise the value decoded from whatever the key holds,
    /// `null` included: a free-form ``JSON`` property keeps an explicit `null` as ``JSON/null``.
    @_spi(Generated) public func decodeKeepingNull<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        guard contains(key) else { return nil }
        return try decode(Value.self, forKey: key)
    }
}
