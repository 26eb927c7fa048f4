@testable import CourierGenerator
import Testing

@Suite struct TemplateModelTests {
    private struct Property: TemplateModel {
        var name: String
        var documentation: String?
        var isRequired: Bool
        static let templateFields: TemplateFields<Self> = [
            "name": \.name,
            "documentation": \.documentation,
            "isRequired": \.isRequired,
        ]
    }

    private struct Model: TemplateModel {
        var typeName: String
        var properties: [Property]
        var nested: Property?
        static let templateFields: TemplateFields<Self> = [
            "typeName": \.typeName,
            "properties": \.properties,
            "nested": \.nested,
        ]
    }

    private static let pragma = TemplateError.requiredPragma

    private func render(_ template: String, _ model: Model) throws -> String {
        var set = TemplateSet()
        set.register("\(Self.pragma)\n" + template, named: "t", origin: "t.mustache")
        return try TemplateRenderer(templates: set).render(model, template: "t")
    }

    @Test func fieldsHaveAPlaceAndAShape() {
        let property = Property(name: "id", documentation: nil, isRequired: true)
        let name = Property.templateField(named: "name")
        let documentation = Property.templateField(named: "documentation")
        let isRequired = Property.templateField(named: "isRequired")
        #expect(Property.templateField(named: "absent") == nil)
        #expect(Property.templateFieldNames == ["documentation", "isRequired", "name"])
        guard let name, let documentation, let isRequired else {
            Issue.record("every listed field is found")
            return
        }
        #expect(Set([name.slot, documentation.slot, isRequired.slot]) == [0, 1, 2])
        #expect(property.templateText(at: name.slot) == "id")
        #expect(property.templateText(at: documentation.slot) == nil)
        #expect(property.templateFlag(at: isRequired.slot))
        guard case .text = name.shape, case .optionalText = documentation.shape, case .flag = isRequired.shape,
              case .models(let element)? = Model.templateField(named: "properties")?.shape,
              case .optionalModel(let nested)? = Model.templateField(named: "nested")?.shape else {
            Issue.record("shapes follow the key paths' value types")
            return
        }
        #expect(ObjectIdentifier(element) == ObjectIdentifier(Property.self))
        #expect(ObjectIdentifier(nested) == ObjectIdentifier(Property.self))
    }

    @Test func aNilOptionalRendersAsNothingAndAPresentOneIsUnwrapped() throws {
        let property = Property(name: "id", documentation: nil, isRequired: false)
        let documented = Property(name: "id", documentation: "The id.", isRequired: false)
        let model = Model(typeName: "T", properties: [property, documented], nested: nil)
        let output = try render(
            "{{#properties}}{{name}}:{{#documentation}}[{{.}}]{{/documentation}}{{^documentation}}-{{/documentation}} {{/properties}}{{#nested}}nested{{/nested}}",
            model
        )
        #expect(output == "id:- id:[The id.] ")
    }

    @Test func aTypeTemplatesCannotReadIsRefusedWhereATemplateUsesIt() throws {
        struct Odd: TemplateModel {
            var ratio: Double
            var name: String
            static let templateFields: TemplateFields<Self> = ["ratio": \.ratio, "name": \.name]
        }
        var set = TemplateSet()
        set.register("\(Self.pragma)\n{{name}}\n{{ratio}}", named: "t", origin: "t.mustache")
        let renderer = try TemplateRenderer(templates: set)
        let error = #expect(throws: TemplateError.self) { try renderer.render(Odd(ratio: 0.5, name: "x"), template: "t") }
        #expect(error == .invalidUse(template: "t", origin: "t.mustache", line: 3, column: 1,
                                     message: "'ratio' has a type templates cannot read"))
    }

    @Test func textRendersTransformsAndOpensSectionsAsAStringWould() throws {
        let model = Model(typeName: "", properties: [Property(name: "userId", documentation: "Who.", isRequired: true)], nested: nil)
        let output = try render(
            "[{{typeName}}]{{#typeName}}empty-opens{{/typeName}}{{#properties}}{{uppercased(name)}} {{{name}}} {{#documentation}}{{.}}/{{name}}{{/documentation}}{{#empty(name)}}!{{/empty(name)}}{{/properties}}",
            model
        )
        #expect(output == "[]empty-opensUSERID userId Who./userId")
    }

    @Test func aNilFieldDoesNotShowTheEnclosingModelsFieldOfTheSameName() throws {
        struct Owner: TemplateModel {
            var documentation: String?
            var properties: [Property]
            static let templateFields: TemplateFields<Self> = ["documentation": \.documentation, "properties": \.properties]
        }
        var set = TemplateSet()
        set.register(
            "\(Self.pragma)\n{{#properties}}{{name}}=[{{documentation}}]{{#documentation}}doc{{/documentation}}{{^documentation}}none{{/documentation}} {{/properties}}",
            named: "t",
            origin: "t.mustache"
        )
        let model = Owner(
            documentation: "Type docs",
            properties: [Property(name: "a", documentation: nil, isRequired: true), Property(name: "b", documentation: "B", isRequired: true)]
        )
        let output = try TemplateRenderer(templates: set).render(model, template: "t")
        #expect(output == "a=[]none b=[B]doc ")
    }

    @Test func sectionsIterateBooleansGateAndOuterFieldsStayVisible() throws {
        let model = Model(
            typeName: "Pet",
            properties: [
                Property(name: "name", documentation: nil, isRequired: true),
                Property(name: "tag", documentation: nil, isRequired: false),
            ],
            nested: Property(name: "inner", documentation: nil, isRequired: true)
        )
        let output = try render(
            "{{#properties}}{{typeName}}.{{name}}{{^isRequired}}?{{/isRequired}};{{/properties}} {{#nested}}{{name}}{{/nested}}",
            model
        )
        #expect(output == "Pet.name;Pet.tag?; inner")
    }
}
