@testable import CourierGenerator
import Foundation
import Testing

/// Templates own the Swift syntax: a user's override can restyle any generated line, including
/// declarations the translator used to write as finished text.
@Suite("Template overrides")
struct TemplateOverrideTests {
    static let spec = """
        service: Shelf
        baseURL: https://shelf.example.com
        models:
          Book: { title: String, subtitle: String?, parent: Book? }
        endpoints:
          getBook:
            get: /books/{id}
            path: { id: String }
            query: { page: { type: Int, default: 1 } }
            response: Book
        """

    /// The files of ``spec`` generated with the built-in templates, `name` replaced by `text`.
    private func generate(overriding name: String, with text: String) throws -> [String: String] {
        var templates = TemplateSet.builtIn
        templates.register(text, named: name, origin: "custom/\(name).mustache")
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(Self.spec, to: "Shelf.yaml"))
        let result = try Generator(options: GenerationOptions(templates: templates)).generate(specAt: url, displayPath: "Shelf.yaml")
        #expect(result.succeeded, "\(result.diagnostics.renderedLines)")
        return result.files
    }

    /// The built-in template `name` with `original` replaced by `replacement`, failing the test
    /// when the built-in text no longer contains `original`.
    private func builtIn(_ name: String, replacing original: String, with replacement: String) throws -> String {
        let text = try #require(TemplateSet.builtIn.text(named: name))
        #expect(text.contains(original), "the built-in \(name) template no longer contains \(original)")
        return text.replacingOccurrences(of: original, with: replacement)
    }

    @Test("An overridden models template declares properties its own way")
    func modelsOverrideDeclaresLetProperties() throws {
        let models = try builtIn("models", replacing: "    {{access}} var {{name}}: {{type}}\n", with: "    {{access}} let {{name}}: {{type}}\n")
        let files = try generate(overriding: "models", with: models)
        let text = try #require(files["ShelfModels.swift"])
        #expect(text.contains("    public let title: String\n"))
        #expect(text.contains("    public let subtitle: String?\n"))
        #expect(!text.contains("public var title"))
        // The boxed property of the recursive model keeps its accessors from the template.
        #expect(text.contains("    public var parent: Book? {\n        get { _parent?.value }\n"))
    }

    @Test("An overridden models template lays out boxed storage and its accessors")
    func modelsOverrideRestylesBoxedStorage() throws {
        let models = try builtIn("models", replacing: "        get { {{storageName}}{{#isOptional}}?{{/isOptional}}.value }\n",
                                 with: "        get {\n            {{storageName}}{{#isOptional}}?{{/isOptional}}.value\n        }\n")
        let text = try #require(try generate(overriding: "models", with: models)["ShelfModels.swift"])
        #expect(text.contains("    public var parent: Book? {\n        get {\n            _parent?.value\n        }\n"))
        #expect(text.contains("        set { _parent = newValue.map(Indirect.init) }\n"))
        #expect(text.contains("        self._parent = parent.map(Indirect.init)\n"))
    }

    @Test("One parameters partial lays out the parameter lists of models, requests and client")
    func parametersPartialIsShared() throws {
        // One parameter per line, always: the override drops the one-line form.
        let partial = """
            {{% CONTENT_TYPE: TEXT }}
                {{$declaration}}{{/declaration}}(
            {{#parameters}}
                    {{label}}{{#internalName}} {{internalName}}{{/internalName}}: {{type}}{{#defaultValue}} = {{defaultValue}}{{/defaultValue}}{{^last()}},{{/last()}}
            {{/parameters}}
                ){{$effects}}{{/effects}} {

            """
        let files = try generate(overriding: "parameters", with: partial)
        let models = try #require(files["ShelfModels.swift"])
        let requests = try #require(files["ShelfRequests.swift"])
        let client = try #require(files["ShelfClient.swift"])
        #expect(models.contains("    public init(\n        title: String,\n        subtitle: String? = nil,\n        parent: Book? = nil\n    ) {\n"))
        #expect(requests.contains("    public init(\n        id: String,\n        page: Int = 1\n    ) {\n"))
        #expect(client.contains("    public func getBook(\n        id: String,\n        page: Int = 1\n    ) async throws(APIError<GetBookFailure>) -> Book {\n"))
    }

    @Test("The parameters partial is a required, overridable template")
    func parametersPartialIsRequired() throws {
        #expect(Generator.requiredTemplates.contains("parameters"))
        #expect(TemplateSet.builtIn.names.contains("parameters"))
        let files = try generate(overriding: "parameters", with: "{{% CONTENT_TYPE: TEXT }}\n    // no parameters\n")
        #expect(try #require(files["ShelfClient.swift"]).contains("    // no parameters\n"))
    }
}
