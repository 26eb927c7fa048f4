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

    @Test func looksUpFieldsByName() {
        let property = Property(name: "id", documentation: nil, isRequired: true)
        #expect(Property.templateFields.value(named: "name", in: property) as? TemplateText == TemplateText("id"))
        #expect(Property.templateFields.value(named: "isRequired", in: property) as? Bool == true)
        #expect(Property.templateFields.value(named: "absent", in: property) == nil)
        #expect(Property.templateFields.names == ["documentation", "isRequired", "name"])
    }

    @Test func aNilOptionalRendersAsNothingAndAPresentOneIsUnwrapped() throws {
        let property = Property(name: "id", documentation: nil, isRequired: false)
        #expect(Property.templateFields.value(named: "documentation", in: property) is NullValue)
        let documented = Property(name: "id", documentation: "The id.", isRequired: false)
        #expect(Property.templateFields.value(named: "documentation", in: documented) as? TemplateText == TemplateText("The id."))

        let model = Model(typeName: "T", properties: [property, documented], nested: nil)
        let output = try render(
            "{{#properties}}{{name}}:{{#documentation}}[{{.}}]{{/documentation}}{{^documentation}}-{{/documentation}} {{/properties}}{{#nested}}nested{{/nested}}",
            model
        )
        #expect(output == "id:- id:[The id.] ")
    }

    @Test func nestedOptionalsFlattenFully() {
        struct Doubly: TemplateModel {
            var value: String??
            static let templateFields: TemplateFields<Self> = ["value": \.value]
        }
        #expect(Doubly.templateFields.value(named: "value", in: Doubly(value: .some(nil))) is NullValue)
        #expect(Doubly.templateFields.value(named: "value", in: Doubly(value: "x")) as? String == "x")
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
