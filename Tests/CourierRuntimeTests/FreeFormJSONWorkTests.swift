import CourierRuntime
import Foundation
import Testing

/// A model with ``JSON`` properties decoded through `JSONDecoder` does work linear in the body:
/// measured by counting the calls `JSON.init(from:)` makes on the `Decoder` interface (container
/// requests and decode attempts, failed guesses included), not by the clock, so that the test holds
/// on a loaded machine. A quadratic step (re-reading a container per member, or a guess per level
/// that grows with depth) would multiply the count by 16 when the body grows 4 times; linear work
/// multiplies it by about 4.
///
/// What this cannot see is work inside `JSONDecoder` itself below that interface.
@Suite struct FreeFormJSONWorkTests {
    struct Page: Decodable {
        var id: Int
        var metadata: JSON
        var items: [JSON]
        var extra: JSON?
    }

    /// `count` like objects under `items`, each with a nested object and array, and a free-form map.
    static func wideBody(_ count: Int) -> Data {
        var text = #"{"id":1,"metadata":{"plan":"pro","seats":5},"items":["#
        for index in 0..<count {
            if index > 0 { text += "," }
            text += #"{"id":\#(index),"ok":\#(index % 2 == 0),"tag":"t\#(index % 7)","score":\#(Double(index) + 0.5),"#
                + #""tags":["a",null,2],"owner":{"login":"u\#(index)","site_admin":false}}"#
        }
        return Data((text + #"],"extra":null}"#).utf8)
    }

    /// Objects and arrays nested `depth` levels deep under `metadata`, with a scalar at each level.
    static func deepBody(_ depth: Int) -> Data {
        var text = #"{"id":1,"items":[],"metadata":"#
        for level in 0..<depth {
            text += level % 2 == 0 ? #"{"n":\#(level),"next":"# : #"["s","#
        }
        text += "null"
        for level in (0..<depth).reversed() {
            text += level % 2 == 0 ? "}" : "]"
        }
        return Data((text + "}").utf8)
    }

    @Test func wideBodiesCostWorkProportionalToTheirValues() throws {
        let small = try Self.countCalls(Self.wideBody(2_000))
        let large = try Self.countCalls(Self.wideBody(8_000))
        #expect(small.page.items.count == 2_000 && large.page.items.count == 8_000)
        #expect(large.page.items[7_999]["owner"]?["login"]?.stringValue == "u7999")
        // A hand-written `JSON?` through synthesized decoding reads null as nil (generated models keep it as .null).
        #expect(large.page.extra == nil)
        // Each object holds 13 values; a handful of calls per value is the constant of a linear decode.
        #expect(large.calls < 8_000 * 13 * 8, "\(large.calls) calls for 104,000 values")
        let ratio = Double(large.calls) / Double(small.calls)
        #expect(ratio > 3.5 && ratio < 4.5, "4x the values took \(ratio)x the calls (\(small.calls) → \(large.calls))")
    }

    @Test func deepBodiesCostWorkProportionalToTheirDepth() throws {
        // JSONDecoder refuses nesting beyond 512 levels; 400 stays under it.
        let shallow = try Self.countCalls(Self.deepBody(100))
        let deep = try Self.countCalls(Self.deepBody(400))
        var level = deep.page.metadata
        var levels = 0
        while let next = level["next"] ?? level[1] {
            level = next
            levels += 1
        }
        #expect(levels == 400)
        let ratio = Double(deep.calls) / Double(shallow.calls)
        #expect(ratio > 3.5 && ratio < 4.5, "4x the depth took \(ratio)x the calls (\(shallow.calls) → \(deep.calls))")
    }

    /// Decodes a `Page` from `data` through `JSONDecoder`, counting the calls below it.
    static func countCalls(_ data: Data) throws -> (page: Page, calls: Int) {
        let counter = CallCounter()
        let decoder = JSONDecoder()
        decoder.userInfo[CallCounter.key] = counter
        let page = try decoder.decode(Counted<Page>.self, from: data).value
        return (page, counter.calls)
    }
}

/// Counts calls; used by one decode on one thread at a time.
final class CallCounter: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "test.callCounter")!
    var calls = 0
}

/// Decodes `Value` through a ``CountingDecoder`` over the decoder `JSONDecoder` hands it.
struct Counted<Value: Decodable>: Decodable {
    var value: Value
    init(from decoder: any Decoder) throws {
        guard let counter = decoder.userInfo[CallCounter.key] as? CallCounter else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no counter"))
        }
        value = try Value(from: CountingDecoder(base: decoder, counter: counter))
    }
}

/// A `Decoder` that forwards to another and counts every call; nested values are decoded through
/// a counting decoder too (over the base's `superDecoder`), so that the count covers the whole tree.
struct CountingDecoder: Decoder {
    let base: any Decoder
    let counter: CallCounter
    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        counter.calls += 1
        return KeyedDecodingContainer(Keyed(base: try base.container(keyedBy: type), counter: counter))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        counter.calls += 1
        return Unkeyed(base: try base.unkeyedContainer(), counter: counter)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        counter.calls += 1
        return Single(base: try base.singleValueContainer(), counter: counter)
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let base: KeyedDecodingContainer<Key>
        let counter: CallCounter
        var codingPath: [any CodingKey] { base.codingPath }
        var allKeys: [Key] { base.allKeys }
        func contains(_ key: Key) -> Bool { counter.calls += 1; return base.contains(key) }
        func decodeNil(forKey key: Key) throws -> Bool { counter.calls += 1; return try base.decodeNil(forKey: key) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { counter.calls += 1; return try base.decode(type, forKey: key) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            counter.calls += 1
            return try T(from: CountingDecoder(base: base.superDecoder(forKey: key), counter: counter))
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            counter.calls += 1
            return KeyedDecodingContainer(Keyed<NestedKey>(base: try base.nestedContainer(keyedBy: type, forKey: key), counter: counter))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            counter.calls += 1
            return Unkeyed(base: try base.nestedUnkeyedContainer(forKey: key), counter: counter)
        }
        func superDecoder() throws -> any Decoder { CountingDecoder(base: try base.superDecoder(), counter: counter) }
        func superDecoder(forKey key: Key) throws -> any Decoder { CountingDecoder(base: try base.superDecoder(forKey: key), counter: counter) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        var base: any UnkeyedDecodingContainer
        let counter: CallCounter
        var codingPath: [any CodingKey] { base.codingPath }
        var count: Int? { base.count }
        var isAtEnd: Bool { base.isAtEnd }
        var currentIndex: Int { base.currentIndex }
        mutating func decodeNil() throws -> Bool { counter.calls += 1; return try base.decodeNil() }
        mutating func decode(_ type: Bool.Type) throws -> Bool { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: String.Type) throws -> String { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { counter.calls += 1; return try base.decode(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { counter.calls += 1; return try base.decode(type) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            counter.calls += 1
            return try T(from: CountingDecoder(base: base.superDecoder(), counter: counter))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            counter.calls += 1
            return KeyedDecodingContainer(Keyed<NestedKey>(base: try base.nestedContainer(keyedBy: type), counter: counter))
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            counter.calls += 1
            return Unkeyed(base: try base.nestedUnkeyedContainer(), counter: counter)
        }
        mutating func superDecoder() throws -> any Decoder { CountingDecoder(base: try base.superDecoder(), counter: counter) }
    }

    struct Single: SingleValueDecodingContainer {
        let base: any SingleValueDecodingContainer
        let counter: CallCounter
        var codingPath: [any CodingKey] { base.codingPath }
        func decodeNil() -> Bool { counter.calls += 1; return base.decodeNil() }
        func decode(_ type: Bool.Type) throws -> Bool { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: String.Type) throws -> String { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: Double.Type) throws -> Double { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: Float.Type) throws -> Float { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: Int.Type) throws -> Int { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: UInt.Type) throws -> UInt { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { counter.calls += 1; return try base.decode(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { counter.calls += 1; return try base.decode(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            // `JSON` reads its scalars with the typed calls above; nothing decodes a nested value here.
            counter.calls += 1
            return try base.decode(type)
        }
    }
}
