@_spi(Generated) @testable import CourierRuntime
import Foundation
import Testing

/// `RawResponse.fields(_:)` reads several fields of one body in a single pass, with the answers
/// `discriminator(at:)` gives one field at a time, and stays linear on hostile bodies.
@Suite struct ResponseFieldsTests {
    @Test(arguments: DiscriminatorTests.corpus)
    func givesWhatOneFieldAtATimeGives(path: String, body: String) {
        let response = RawResponse(status: .badRequest, body: Data(body.utf8))
        // The path alone, and among others that share its prefix or not.
        #expect(response.fields(path)[path] == response.discriminator(at: path))
        let together = response.fields("code", path, "error.code", "errors[0].code")
        #expect(together[path] == response.discriminator(at: path))
        #expect(together["code"] == response.discriminator(at: "code"))
        #expect(together["error.code"] == response.discriminator(at: "error.code"))
        #expect(together["errors[0].code"] == response.discriminator(at: "errors[0].code"))
    }

    @Test func stripeStyleFieldsInOnePass() {
        let body = Data(#"""
            {"error": {"type": "card_error", "code": "card_declined", "decline_code": "insufficient_funds",
                       "param": null, "charge": {"id": "ch_1"}, "amount": 2, "ratio": 2.5e0, "live": false}}
            """#.utf8)
        let fields = RawResponse(status: .init(code: 402), body: body)
            .fields("error.type", "error.code", "error.decline_code", "error.param", "error.charge", "error.amount",
                    "error.ratio", "error.live", "error.missing", "error")
        #expect(fields["error.type"] == "card_error")
        #expect(fields["error.code"] == "card_declined")
        #expect(fields["error.decline_code"] == "insufficient_funds")
        #expect(fields["error.live"] == "false")
        #expect(fields["error.amount"] == "2")
        // Numbers compare as numbers whatever their spelling.
        #expect(fields.double("error.amount") == 2)
        #expect(fields.double("error.ratio") == 2.5)
        #expect(fields.double("error.type") == nil)
        // Presence: null and missing are absent; objects count, though they have no text.
        #expect(fields.contains("error.decline_code"))
        #expect(fields.contains("error.charge"))
        #expect(fields["error.charge"] == nil)
        #expect(fields.contains("error"))
        #expect(!fields.contains("error.param"))
        #expect(!fields.contains("error.missing"))
        // A path that was not asked for is not there.
        #expect(fields["error.message"] == nil)
    }

    @Test func theFirstOfDuplicateKeysWinsForEveryPath() {
        let body = Data(#"{"a": {"b": 1, "c": 2}, "a": {"b": 3, "c": 4}}"#.utf8)
        let fields = RawResponse(status: .ok, body: body).fields("a.b", "a.c")
        #expect(fields["a.b"] == "1")
        #expect(fields["a.c"] == "2")
    }

    @Test func moreFieldsThanOnePassTracksAreReadInAFewPasses() {
        // 64 paths fit in one pass; 130 take three, each linear.
        let names = (0..<130).map { "f\($0)" }
        let body = Data(("{" + names.enumerated().map { #""\#($1)":\#($0)"# }.joined(separator: ",") + "}").utf8)
        let response = RawResponse(status: .ok, body: body)
        let fields = ResponseFields(paths: names, body: body)
        #expect(names.indices.allSatisfy { fields[names[$0]] == String($0) })
        #expect(fields.work <= 3 * body.count + 130 * 130)
        #expect(response.fields("f0", "f129")["f129"] == "129")
    }

    @Test func aBodyThatIsNotJSONHasNoFields() {
        let fields = RawResponse(status: .ok, body: Data(#"{"ok": false, "error": "x""#.utf8)).fields("ok", "error")
        #expect(fields["ok"] == nil)
        #expect(!fields.contains("error"))
    }

    /// Work is bytes stepped over plus key comparisons. Linear means: one pass over the bytes
    /// however many fields are read, and each key compared at most once per field read.
    @Test func severalFieldsOfAOneMegabyteBodyCostOnePass() {
        let body = DiscriminatorTests.hostileBody(objects: 100_000)
        #expect(body.count > 1_000_000)
        let response = RawResponse(status: .badRequest, body: body)
        let one = response.fields("code")
        let four = response.fields("code", "error.code", "errors[99999].code", "errors[0].code")
        #expect(four["code"] == "quota")
        #expect(four["error.code"] == "nested")
        #expect(four["errors[99999].code"] == "99999")
        #expect(four["errors[0].code"] == "0")
        // Off the paths, nothing is compared: the keys inside the 100,000 objects cost only their bytes.
        #expect(one.work <= body.count + 10)
        print("fields-figure: hostile bytes=\(body.count) work(1 field)=\(one.work) work(4 fields)=\(four.work)")
        // Four fields cost one pass, where reading them one at a time would cost four.
        #expect(four.work <= body.count + 4 * 10, "work \(four.work) for \(body.count) bytes")
    }

    @Test func manyKeysOnThePathAreComparedOncePerField() {
        // 200,000 members at the root, all on the path's first step: the worst case for comparisons.
        var text = "{"
        let keys = 200_000
        for index in 0..<keys { text += #""k\#(index)":\#(index),"# }
        text += #""ok":false,"error":"ratelimited"}"#
        let body = Data(text.utf8)
        #expect(body.count > 1_000_000)
        let fields = RawResponse(status: .ok, body: body).fields("ok", "error", "detail.level")
        #expect(fields["ok"] == "false")
        #expect(fields["error"] == "ratelimited")
        #expect(!fields.contains("detail.level"))
        // Each of the 200,002 keys is compared with each of the 3 paths at most once.
        #expect(fields.work <= body.count + 3 * (keys + 2), "work \(fields.work) for \(body.count) bytes")
        // Twice the keys, twice the work (within the bytes' growth): no hidden quadratic term.
        var double = "{"
        for index in 0..<(2 * keys) { double += #""k\#(index)":\#(index),"# }
        double += #""ok":false,"error":"ratelimited"}"#
        let twice = RawResponse(status: .ok, body: Data(double.utf8)).fields("ok", "error", "detail.level")
        print("fields-figure: root keys=\(keys) bytes=\(body.count) work=\(fields.work); keys=\(2 * keys) work=\(twice.work)")
        #expect(Double(twice.work) <= 2.2 * Double(fields.work))
    }

    @Test func deepNestingIsRefusedAsJSONDecoderRefusesIt() {
        for depth in [10, 400, 600, 100_000] {
            let body = Data((#"{"ok":false,"deep":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}").utf8)
            let fields = RawResponse(status: .ok, body: body).fields("ok", "deep")
            #expect(fields["ok"] == (depth < DiscriminatorScanner.maximumDepth ? "false" : nil), "depth \(depth)")
            // Never more than one pass, even when the body is refused part way.
            #expect(fields.work <= body.count + 2 * 2)
        }
    }
}
