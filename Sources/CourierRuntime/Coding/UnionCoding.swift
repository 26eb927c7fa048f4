/// What generated unions (`oneOf` models) call to decode and encode themselves.
///
/// A union decodes from the decoder it is handed, so the bytes are parsed once by the
/// decoder, however deeply unions nest. Without a discriminator, a variant is attempted only
/// when the value's shape can fit it (``UnionShape``): the JSON kind, and for an object the
/// variant's required keys. Real unions differ in that shape (GitHub's `errors` items are
/// objects or strings), so each value is decoded once and nested unions stay linear instead
/// of re-decoding a subtree once per variant that fails late.
@_spi(Generated) public enum UnionCoding {
    /// The discriminator's value when it is a string or an integer; `nil` when the value is not
    /// an object, lacks the key, or holds anything else there (the union then decodes as unknown).
    public static func tag(_ key: String, in decoder: any Decoder) -> JSON? {
        guard let container = try? decoder.container(keyedBy: UnionKey.self) else { return nil }
        let key = UnionKey(key)
        guard container.contains(key) else { return nil }
        if let text = try? container.decode(String.self, forKey: key) { return .string(text) }
        if let number = try? container.decode(Int64.self, forKey: key) { return .integer(number) }
        return nil
    }

    /// Writes the discriminator beside a variant whose model does not declare it, so that an
    /// encoded union carries the value that decodes it again.
    public static func encode(tag: JSON, forKey key: String, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: UnionKey.self)
        try container.encode(tag, forKey: UnionKey(key))
    }
}

/// The shallow shape of a JSON value: its kind and, for an object, its keys. Reading it costs
/// the size of one level, never of the whole subtree.
@_spi(Generated) public struct UnionShape: Sendable {
    /// The kinds of JSON values.
    public enum Kind: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool
        /// A number.
        case number
        /// A string.
        case string
        /// An array.
        case array
        /// An object.
        case object
    }

    /// The value's kind.
    public let kind: Kind
    /// An object's keys; empty for other kinds.
    public let keys: Set<String>

    /// Reads the shape of the value `decoder` is at.
    public init(of decoder: any Decoder) {
        if let container = try? decoder.container(keyedBy: UnionKey.self) {
            kind = .object
            keys = Set(container.allKeys.map(\.stringValue))
            return
        }
        keys = []
        if (try? decoder.unkeyedContainer()) != nil {
            kind = .array
        } else if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                kind = .null
            } else if (try? single.decode(String.self)) != nil {
                kind = .string
            } else if (try? single.decode(Bool.self)) != nil {
                kind = .bool
            } else {
                kind = .number
            }
        } else {
            kind = .null
        }
    }

    /// Whether the value is an object with every one of `keys`: a variant whose required
    /// properties are missing cannot decode, so it is not attempted.
    public func isObject(requiring keys: [String]) -> Bool {
        kind == .object && keys.allSatisfy(self.keys.contains)
    }

    /// Whether the value is of `kind`.
    public func `is`(_ kind: Kind) -> Bool {
        self.kind == kind
    }

    /// What values one variant of a union can decode, for ``order(of:)``.
    public enum Fit: Sendable {
        /// Any value may fit (a date, free-form JSON, a nested union): tried in its place.
        case any
        /// Only a value of this kind.
        case kind(Kind)
        /// Only an object holding every one of `required`, and the better the more of `known`
        /// (its properties' keys) it holds.
        case object(required: [String], known: [String])
    }

    /// The variants worth attempting, by index into `fits`, in the order to attempt them.
    ///
    /// A variant whose kind the value is not, or whose required keys it lacks, is left out.
    /// Object variants are attempted best first: the one that knows the most of the value's
    /// keys, the first declared among equals. Variants whose properties are all optional all
    /// fit any object, and declaration order alone would decode every value as the first of
    /// them (a membership as the wrong one of four kinds). The others keep their places.
    public func order(of fits: [Fit]) -> [Int] {
        var order: [Int] = []
        var objects: [(position: Int, variant: Int, score: Int)] = []
        for (variant, fit) in fits.enumerated() {
            switch fit {
            case .any:
                order.append(variant)
            case .kind(let kind):
                if self.kind == kind { order.append(variant) }
            case .object(let required, let known):
                guard isObject(requiring: required) else { continue }
                objects.append((order.count, variant, known.reduce(0) { keys.contains($1) ? $0 + 1 : $0 }))
                order.append(variant)
            }
        }
        let ranked = objects.sorted { $0.score != $1.score ? $0.score > $1.score : $0.variant < $1.variant }
        for (slot, best) in zip(objects, ranked) {
            order[slot.position] = best.variant
        }
        return order
    }
}

/// Any key, for reading a discriminator or an object's keys.
struct UnionKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ key: String) { stringValue = key }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
