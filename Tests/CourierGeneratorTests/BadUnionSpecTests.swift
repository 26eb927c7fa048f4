@testable import CourierGenerator
import Foundation
import Testing

/// Unions (`oneOf`) and compositions (`allOf`): each mistake gets one exact
/// `path:line:column: error: message` line, and a valid spec keeps what it declares.
@Suite struct BadUnionSpecTests {
    static let header = """
        service: Bad
        baseURL: https://bad.example.com
        endpoints:
          e: { get: /e }
        models:
          A: { x: Int, y: String }
          B: { x: String }

        """

    @Test func compositionTypeClashNamesTheFirstDeclaration() {
        let yaml = Self.header + """
              C:
                allOf: [A, B]
              D:
                allOf:
                  - A
                  - properties: { y: Int?, x: Int }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:9:16: error: property 'x' of model 'C' is declared as 'String' here, but as 'Int' at Specs/x.yaml:6:8; "
                + "a property of an 'allOf' model must have one type",
            "Specs/x.yaml:6:8: note: 'x' is first declared here",
            "Specs/x.yaml:13:23: error: property 'y' of model 'D' is declared as 'Int?' here, but as 'String' at Specs/x.yaml:6:16; "
                + "a property of an 'allOf' model must have one type",
            "Specs/x.yaml:6:16: note: 'y' is first declared here",
        ])
    }

    @Test func compositionCyclesAndPartsThatAreNotObjects() {
        let yaml = Self.header + """
              E:
                allOf: [F]
              F:
                allOf: [E]
              Kind:
                enum: [a, b]
              U:
                oneOf: [A, B]
              G:
                allOf: [Kind, U, Missing]
              N:
                allOf: [A]
                discriminator: x
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:8:3: error: model 'E' is composed of itself (E → F → E); an 'allOf' part cannot lead back to the model",
            "Specs/x.yaml:17:13: error: 'allOf' of model 'G' can only combine object models; 'Kind' is an enum",
            "Specs/x.yaml:17:19: error: 'allOf' of model 'G' can only combine object models; 'U' is a union ('oneOf')",
            "Specs/x.yaml:17:22: error: type 'Missing' used by 'allOf' of model 'G' is not defined",
            "Specs/x.yaml:20:5: error: 'discriminator' belongs to a union ('oneOf'), not to model 'N', which is a composition ('allOf')",
        ])
    }

    @Test func variantsMustBeDistinctAndNotOptional() {
        let yaml = Self.header + """
              H:
                oneOf: [A, A]
              K:
                oneOf: [K, A]
              L:
                oneOf: [A?, { type: B, case: a }, { typ: A }]
              M:
                oneOf: []
                properties: {}
              Q:
                oneOf: [{ type: A, case: same }, { type: B, case: same }]
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:9:16: error: union 'H' lists 'A' twice; without a discriminator the second can never be chosen",
            "Specs/x.yaml:9:13: note: first listed here",
            "Specs/x.yaml:10:3: error: union 'K' is a variant of itself (K → K); a variant must hold a value, such as an object or an array",
            "Specs/x.yaml:13:13: error: a variant of model 'L' cannot be optional ('A?'); make the property that holds the union optional instead",
            "Specs/x.yaml:13:41: error: unknown key 'typ' in a variant of model 'L'; did you mean 'type'?",
            "Specs/x.yaml:14:3: error: model 'M' has 'oneOf' and 'properties'; a model is one of an object, an enum, a union ('oneOf') or a composition ('allOf')",
            "Specs/x.yaml:18:38: error: two variants of union 'Q' become the case 'same'; give one a 'case:'",
            "Specs/x.yaml:18:13: note: the first is declared here",
        ])
    }

    @Test func discriminatorMappingsAreChecked() {
        let yaml = Self.header + """
              I:
                oneOf: [A, String]
                discriminator: x
              J:
                oneOf: [A, B]
                discriminator: { property: kind, mapping: { one: A, two: Nope, three: B, 1: B } }
              P:
                oneOf: [{ type: A, case: one }, { type: A, case: two }]
                discriminator: { property: x, mapping: { a: one, 2: two } }
              R:
                oneOf: [A, B]
                discriminator: { property: kind, mapping: { A: B } }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:9:13: error: variant 'A' of union 'I' has no value in 'mapping'; an integer discriminator needs one",
            "Specs/x.yaml:9:16: error: variant 'String' of union 'I' must be an object model, because the union has a discriminator",
            "Specs/x.yaml:13:62: error: 'Nope' in the mapping of union 'J' is not one of its variants",
            "Specs/x.yaml:16:46: error: discriminator value 'a' of union 'P' must be an integer, because 'x' is one",
            "Specs/x.yaml:18:16: error: discriminator value \"A\" of union 'R' picks two variants",
            "Specs/x.yaml:18:13: note: first used here",
        ])
    }

    @Test func compositionFlattensInOrderOfFirstAppearance() throws {
        let yaml = Self.header + """
              C:
                allOf:
                  - A
                  - properties: { z: Bool?, x: Int }
              Outer:
                allOf: [C, { properties: { w: "[C]" } }]
            """
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        let outer = try #require(spec?.models.first { $0.name == "Outer" })
        #expect(outer.properties.map(\.name) == ["x", "y", "z", "w"])
        #expect(outer.properties.map(\.type.description) == ["Int", "String", "Bool?", "[C]"])
    }

    @Test func discriminatorValuesAreTypedByTheVariantsDeclarations() throws {
        let yaml = Self.header + """
              Discord:
                oneOf: [A, { type: B2, case: b }]
                discriminator: { property: x, mapping: { "0": A, "2": b } }
              B2: { x: Int }
              ByName:
                oneOf: [A, B]
                discriminator: kind
              Plain:
                oneOf: [A, B]
                discriminator: { property: kind, mapping: { 7: A, "8": B } }
            """
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        let unions = Dictionary(uniqueKeysWithValues: (spec?.models ?? []).compactMap { model in model.union.map { (model.name, $0) } })
        #expect(unions["Discord"]?.variants.map(\.tags) == [[.integer(0)], [.integer(2)]])
        #expect(unions["ByName"]?.variants.map(\.tags) == [[.string("A")], [.string("B")]])
        // Not every key is a plain integer, and no variant declares `kind`: strings.
        #expect(unions["Plain"]?.variants.map(\.tags) == [[.string("7")], [.string("8")]])
    }
}
