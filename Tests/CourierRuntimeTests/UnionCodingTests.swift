@_spi(Generated) import CourierRuntime
import Foundation
import Testing

/// ``UnionShape`` and ``UnionCoding``, which generated unions decode and encode with: the shape
/// of every kind of JSON value, and discriminators that are strings, integers or anything else.
@Suite struct UnionCodingTests {
    /// Reads what a generated union reads, at whatever value it is decoded from.
    struct Probe: Decodable {
        var shape: UnionShape
        var tag: JSON?

        init(from decoder: any Decoder) throws {
            shape = UnionShape(of: decoder)
            tag = UnionCoding.tag("type", in: decoder)
        }
    }

    static func probe(_ text: String) throws -> Probe {
        try JSONCoding().makeDecoder().decode(Probe.self, from: Data(text.utf8))
    }

    @Test(arguments: [
        (#"{"type": 0, "a": 1}"#, UnionShape.Kind.object),
        (#"[1, {"type": 0}]"#, .array),
        (#""text""#, .string),
        ("12.5", .number),
        ("-3", .number),
        ("true", .bool),
        ("null", .null),
    ])
    func shapeOfEachKind(text: String, kind: UnionShape.Kind) throws {
        let probe = try Self.probe(text)
        #expect(probe.shape.kind == kind)
        #expect(probe.shape.is(kind))
        #expect(probe.shape.keys == (kind == .object ? ["type", "a"] : []))
    }

    @Test func requiredKeysDecideWhetherAnObjectFits() throws {
        let shape = try Self.probe(#"{"resource": "Issue", "code": "missing", "field": null}"#).shape
        #expect(shape.isObject(requiring: ["resource", "code"]))
        // A key that is present with null still counts as present: decoding the variant decides.
        #expect(shape.isObject(requiring: ["field"]))
        #expect(!shape.isObject(requiring: ["resource", "message"]))
        #expect(try !Self.probe(#""resource""#).shape.isObject(requiring: []))
    }

    /// The order of attempts: variants of another kind, or lacking a required key, are left out;
    /// objects go best fit first (most known keys present, the first declared among equals);
    /// variants any value may fit keep their places.
    @Test func objectVariantsAreAttemptedBestFitFirst() throws {
        let fits: [UnionShape.Fit] = [
            .object(required: [], known: ["role", "team"]),
            .any,
            .object(required: [], known: ["role", "organization", "seat"]),
            .kind(.string),
            .object(required: ["expires"], known: ["role", "expires"]),
        ]
        #expect(try Self.probe(#"{"role": "a", "organization": "o", "seat": 1}"#).shape.order(of: fits) == [2, 1, 0])
        #expect(try Self.probe(#"{"role": "a", "expires": "x"}"#).shape.order(of: fits) == [4, 1, 0, 2])
        #expect(try Self.probe(#"{"role": "a"}"#).shape.order(of: fits) == [0, 1, 2])
        #expect(try Self.probe(#""text""#).shape.order(of: fits) == [1, 3])
    }

    @Test(arguments: [
        (#"{"type": 2}"#, JSON.integer(2) as JSON?),
        (#"{"type": "card"}"#, .string("card")),
        (#"{"type": "0"}"#, .string("0")),
        (#"{"type": -9007199254740993}"#, .integer(-9_007_199_254_740_993)),
        (#"{"type": 1.5}"#, nil),
        (#"{"type": true}"#, nil),
        (#"{"type": null}"#, nil),
        (#"{"type": {"id": 1}}"#, nil),
        (#"{"kind": 0}"#, nil),
        (#"[{"type": 0}]"#, nil),
        (#""type""#, nil),
    ])
    func discriminatorIsAStringOrAnIntegerOrNothing(text: String, tag: JSON?) throws {
        #expect(try Self.probe(text).tag == tag)
    }

    /// Encodes like a generated union whose variant's model does not declare the discriminator.
    struct Tagged: Encodable {
        struct Card: Encodable {
            var id = "card_1"
            var last4 = "4242"
        }

        func encode(to encoder: any Encoder) throws {
            try Card().encode(to: encoder)
            try UnionCoding.encode(tag: .string("card"), forKey: "object", to: encoder)
        }
    }

    @Test func theTagIsWrittenBesideTheVariant() throws {
        let data = try JSONCoding().makeEncoder().encode(Tagged())
        #expect(try JSON(parsing: data) == ["object": "card", "id": "card_1", "last4": "4242"])
    }
}
