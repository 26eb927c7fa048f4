@testable import CourierGenerator
import Foundation
import Testing

/// The v2 payload keys (number enums, `dates`, `nullable`, `default`, `readOnly`, `JSON`): every
/// unknown key, wrong type and bad value gets one exact `path:line:column: error: message` line.
@Suite struct BadPayloadSpecTests {
    @Test func numberEnumsNeedCaseNamesOneKindAndAFittingType() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              NoCase:
                enum: [{ value: 0, case: zero }, { value: 1 }]
              Mixed:
                enum: [{ value: 0, case: zero }, open]
              Fraction:
                type: Int
                enum: [{ value: 0.5, case: half }]
              BadType:
                type: Date
                enum: [a]
              Quoted:
                type: Int
                enum: [{ value: "1", case: one }]
              Twice:
                type: Double
                enum: [{ value: 1, case: one }, { value: 1.0, case: uno }]
              Legacy:
                enum: [1, 2]
              Pet:
                properties:
                  kind: { type: Fraction, default: 1 }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:5:47: error: number 1 of model 'NoCase' needs a case name: write { value: 1, case: <name> }",
            "Specs/x.yaml:7:38: error: enum value 'open' of model 'Mixed' is a string, but the enum's values are numbers (Int); an enum is all strings or all numbers",
            "Specs/x.yaml:10:21: error: enum value '0.5' of model 'Fraction' is not a whole number that fits Int, the enum's 'type'",
            "Specs/x.yaml:12:11: error: 'type' of model 'BadType' must be Int, Int64, Double or String, found 'Date'",
            "Specs/x.yaml:16:21: error: enum value '1' of model 'Quoted' is a string, but the enum's values are numbers (Int); an enum is all strings or all numbers",
            "Specs/x.yaml:19:46: error: enum value '1.0' appears twice in model 'Twice'",
            "Specs/x.yaml:19:21: note: first written here",
            "Specs/x.yaml:24:40: error: the default of property 'kind' of model 'Pet' is '1', which is not a value of enum 'Fraction'",
        ])
    }

    @Test func typeBelongsToEnumsAndAnEmptyNumberEnumIsStillAnError() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Obj:
                type: Int
                properties: { a: Int }
              Empty:
                type: Double
                enum: []
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:5:5: error: 'type' of model 'Obj' applies to an enum; an object's type is its properties",
            "Specs/x.yaml:9:11: error: 'enum' of model 'Empty' needs at least one value",
        ])
    }

    @Test func bareNumbersStayAV1StringEnumAndTypedOrCasedNumbersMakeANumberEnum() throws {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Legacy:
                enum: [1, 2]
              Explicit:
                type: Int64
                enum: [{ value: 1, case: one }]
              Inferred:
                enum: [{ value: 1, case: one }, { value: 2.5, case: twoAndAHalf }]
              Text:
                type: String
                enum: [{ value: 1, case: one }]
            """
        let loaded = loadSpec(yaml)
        #expect(loaded.lines == [])
        let models = try #require(loaded.spec?.models)
        let kinds = Dictionary(uniqueKeysWithValues: models.map { ($0.name, $0.kind) })
        #expect(kinds["Legacy"] == .stringEnum(models[0].enumCases))
        #expect(models[0].enumCases.map(\.value) == ["1", "2"])
        #expect(kinds["Explicit"] == .numberEnum(.int64, models[1].enumCases))
        #expect(kinds["Inferred"] == .numberEnum(.double, models[2].enumCases))
        #expect(models[2].enumCases.map(\.value) == ["1.0", "2.5"])
        #expect(kinds["Text"] == .stringEnum(models[3].enumCases))
    }

    @Test func propertyAttributesAreCheckedAgainstTheTypeWhereTheyAreWritten() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Kind:
                enum: [{ value: 0, case: zero }]
              Owner: { a: Int }
              Task:
                properties:
                  due: { type: String, dates: date }
                  start: { type: Date, dates: yesterday }
                  clear: { type: Int, nullable: true }
                  json: { type: JSON?, nullable: true }
                  count: { type: Int, default: many }
                  when: { type: Date, default: now }
                  kind: { type: Kind, default: 7 }
                  owner: { type: Owner, default: x }
                  flag: { type: Bool, readOnly: yes }
                  both: { type: Int?, nullable: true, default: 1 }
                  listy: { type: Int, default: [1] }
                  colour: { type: String, colour: red }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:9:28: error: 'dates' of property 'due' of model 'Task' applies to a Date or Date? property, but the type is 'String'",
            "Specs/x.yaml:10:35: error: 'dates' of property 'start' of model 'Task' must be one of iso8601, iso8601WithFractionalSeconds, epochSeconds, date, found 'yesterday'",
            "Specs/x.yaml:11:27: error: 'nullable' of property 'clear' of model 'Task' needs an optional type ('Int?'): null and a missing key are two states of an optional property",
            "Specs/x.yaml:12:28: error: 'nullable' of property 'json' of model 'Task' is not needed: a 'JSON?' property already keeps an explicit null as JSON.null",
            "Specs/x.yaml:13:36: error: the default of property 'count' of model 'Task' must be an Int, found 'many'",
            "Specs/x.yaml:14:36: error: property 'when' of model 'Task' of type 'Date' cannot have a default",
            "Specs/x.yaml:15:36: error: the default of property 'kind' of model 'Task' is '7', which is not a value of enum 'Kind'; did you mean '0'?",
            "Specs/x.yaml:16:38: error: property 'owner' of model 'Task' has type 'Owner', a model that is not an enum, and cannot have a default",
            "Specs/x.yaml:17:37: error: 'readOnly' of property 'flag' of model 'Task' must be true or false, found 'yes'",
            "Specs/x.yaml:18:43: error: property 'both' of model 'Task' is nullable and cannot also have a default: a missing key must stay distinct from null",
            "Specs/x.yaml:19:36: error: the default of property 'listy' of model 'Task' must be a scalar, found a list",
            "Specs/x.yaml:20:31: error: unknown key 'colour' in property 'colour' of model 'Task'",
        ])
    }

    @Test func jsonIsABuiltInTypeEverywhereButParametersAndTheRuntimeNamesAreReserved() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              JSON: { a: Int }
              Nullable: { a: Int }
              DateField: { a: Int }
              Good:
                properties:
                  info: JSON?
                  list: "[JSON]"
                  map: "[String: JSON]"
            endpoints:
              echo:
                post: /echo
                query: { q: JSON }
                body: JSON
                response: JSON
                errors: { 422: { case: invalid, body: JSON } }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:3: error: model 'JSON' has the name of a built-in type; rename it",
            "Specs/x.yaml:5:3: error: model 'Nullable' becomes the Swift type 'Nullable', which generated code uses for a type of its own; rename it",
            "Specs/x.yaml:6:3: error: model 'DateField' becomes the Swift type 'DateField', which generated code uses for a type of its own; rename it",
            "Specs/x.yaml:15:14: error: query parameter 'q' has type 'JSON'; query parameters take String, Int, Int64, Double, Bool, Date, URL, a string enum, or a list of these",
        ])
    }
}
