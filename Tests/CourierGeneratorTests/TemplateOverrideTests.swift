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

    /// A spec whose failures need statements (a condition, a discriminator inside a
    /// discriminator, a failure inside a success status) and whose model codes itself (dates in
    /// their own formats, an explicit null kept, a read-only property, a default).
    static let statementsSpec = """
        service: Shelf
        baseURL: https://shelf.example.com
        errorSchemas:
          Problem:
            properties: { ok: Bool?, kind: String?, code: Int? }
        models:
          Loan:
            properties:
              id: { type: Int64, readOnly: true }
              dueOn: { type: Date, dates: date, json: due_on }
              returnedAt: { type: Date?, nullable: true, dates: epochSeconds, json: returned_at }
              renewals: { type: Int, default: 0 }
        endpoints:
          getLoan:
            get: /loans/{id}
            path: { id: String }
            response: Loan
            errors:
              200:
                when: { field: ok, equals: false }
                body: Problem
                case: failedInside
              400:
                body: Problem
                conditions:
                  - { header: retry-after, case: retryLater }
                discriminator: kind
                cases:
                  limit:
                    discriminator: code
                    cases: { 1: tooMany }
                    otherwise: limited
                otherwise: badRequest
        """

    /// The files of `spec` generated with the built-in templates, each of `overrides` (name to
    /// text) replacing the built-in template of its name.
    private func generate(_ spec: String = Self.spec, overriding overrides: [String: String]) throws -> [String: String] {
        var templates = TemplateSet.builtIn
        for (name, text) in overrides {
            templates.register(text, named: name, origin: "custom/\(name).mustache")
        }
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(spec, to: "Shelf.yaml"))
        let result = try Generator(options: GenerationOptions(templates: templates)).generate(specAt: url, displayPath: "Shelf.yaml")
        #expect(result.succeeded, "\(result.diagnostics.renderedLines)")
        return result.files
    }

    /// The files of ``spec`` generated with the built-in templates, `name` replaced by `text`.
    private func generate(overriding name: String, with text: String) throws -> [String: String] {
        try generate(overriding: [name: text])
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

    @Test("An override that reads a field its view model lacks fails when the generator starts, at the override's line")
    func overrideNamingAnAbsentFieldIsAnError() throws {
        let models = try builtIn("models", replacing: "    {{access}} var {{name}}: {{type}}\n", with: "    {{access}} var {{name}}: {{tpye}}\n")
        var templates = TemplateSet.builtIn
        templates.register(models, named: "models", origin: "custom/models.mustache")
        let line = try #require(models.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("{{tpye}}") }) + 1
        let error = #expect(throws: TemplateError.self) { try Generator(options: GenerationOptions(templates: templates)) }
        guard case .unknownName(let template, let origin, let foundLine, let column, let name, let models, let suggestion)? = error else {
            Issue.record("expected an unknown name, got \(String(describing: error))")
            return
        }
        #expect(template == "models")
        #expect(origin == "custom/models.mustache")
        #expect(foundLine == line)
        #expect(column == 30)
        #expect(name == "tpye")
        #expect(models.first == "PropertyModel")
        #expect(models.last == "ModelsFileModel")
        #expect(suggestion == "type")
    }

    @Test("A partial override is checked in every place that includes it")
    func partialOverrideIsCheckedWhereIncluded() throws {
        var templates = TemplateSet.builtIn
        templates.register("{{% CONTENT_TYPE: TEXT }}\n// {{version}} {{specPaht}}\n", named: "header", origin: "custom/header.mustache")
        let error = #expect(throws: TemplateError.self) { try Generator(options: GenerationOptions(templates: templates)) }
        #expect(error?.description.hasPrefix("custom/header.mustache:2:16: error: template 'header' reads 'specPaht', which ") == true,
                "\(String(describing: error))")
        #expect(error?.description.hasSuffix("did you mean 'specPath'?") == true, "\(String(describing: error))")
    }

    @Test("The parameters partial is a required, overridable template")
    func parametersPartialIsRequired() throws {
        #expect(Generator.requiredTemplates.contains("parameters"))
        #expect(TemplateSet.builtIn.names.contains("parameters"))
        let files = try generate(overriding: "parameters", with: "{{% CONTENT_TYPE: TEXT }}\n    // no parameters\n")
        #expect(try #require(files["ShelfClient.swift"]).contains("    // no parameters\n"))
    }

    @Test("The built-in statement templates write the failure matching and model coding the references hold")
    func builtInStatementLayout() throws {
        let files = try generate(Self.statementsSpec, overriding: [:])
        let errors = try #require(files["ShelfErrors.swift"])
        #expect(errors.contains("""
                    case 400:
                        let fields = response.fields("kind", "code")
                        if response.header("retry-after") != nil { return .retryLater(response.errorBody()) }
                        switch fields["kind"] {
                        case "limit":
                            switch fields["code"] {
                            case "1": return .tooMany(response.errorBody())
                            default: return .limited(response.errorBody())
                            }
                        default: return .badRequest(response.errorBody())
                        }

            """))
        #expect(errors.contains("""
                    switch response.status.code {
                    case 200:
                        let fields = response.fields("ok")
                        guard fields["ok"] == "false" else { return nil }
                        return .failedInside(response.errorBody())
                    default:
                        return nil
                    }

            """))
        let models = try #require(files["ShelfModels.swift"])
        #expect(models.contains("""
                    self.id = try container.decode(Int64.self, forKey: .id)
                    self.dueOn = try container.decodeDate(forKey: .dueOn, as: .calendarDate)
                    self.returnedAt = try container.decodeNullableDate(forKey: .returnedAt, as: .epochSeconds)
                    self.renewals = try container.decodeIfPresent(Int.self, forKey: .renewals) ?? 0

            """))
        #expect(models.contains("""
                    if !isRequest { try container.encode(self.id, forKey: .id) }
                    try container.encodeDate(self.dueOn, forKey: .dueOn, as: .calendarDate)
                    try container.encodeNullableDate(self.returnedAt, forKey: .returnedAt, as: .epochSeconds)
                    try container.encode(self.renewals, forKey: .renewals)

            """))
    }

    @Test("Overridden failureMatching and failureSwitch templates lay out error matching, nested switches included")
    func failureMatchingOverride() throws {
        // Every `return` on a line of its own, and a `when:` as an `if` that leaves.
        let matching = """
            {{% CONTENT_TYPE: TEXT }}
            {{#fieldPaths}}
            {{indentation}}let fields = response.fields({{fieldPaths}})
            {{/fieldPaths}}
            {{#guardCondition}}
            {{indentation}}if !({{guardCondition}}) {
            {{indentation}}    return nil
            {{indentation}}}
            {{/guardCondition}}
            {{#conditions}}
            {{indentation}}if {{condition}} {
            {{indentation}}    return {{value}}
            {{indentation}}}
            {{/conditions}}
            {{#returnValue}}
            {{indentation}}return {{returnValue}}
            {{/returnValue}}
            {{#discriminator}}
            {{> failureSwitch}}
            {{/discriminator}}

            """
        let switchTemplate = """
            {{% CONTENT_TYPE: TEXT }}
            {{indentation}}switch {{subject}} {
            {{#cases}}
            {{indentation}}case {{literal}}:
            {{#value}}
            {{indentation}}    return {{value}}
            {{/value}}
            {{#nested}}
            {{> failureSwitch}}
            {{/nested}}
            {{/cases}}
            {{indentation}}default:
            {{indentation}}    return {{fallback}}
            {{indentation}}}

            """
        let files = try generate(Self.statementsSpec, overriding: ["failureMatching": matching, "failureSwitch": switchTemplate])
        let errors = try #require(files["ShelfErrors.swift"])
        #expect(errors.contains("""
                        if response.header("retry-after") != nil {
                            return .retryLater(response.errorBody())
                        }
                        switch fields["kind"] {
                        case "limit":
                            switch fields["code"] {
                            case "1":
                                return .tooMany(response.errorBody())
                            default:
                                return .limited(response.errorBody())
                            }
                        default:
                            return .badRequest(response.errorBody())
                        }

            """))
        #expect(errors.contains("""
                        if !(fields["ok"] == "false") {
                            return nil
                        }
                        return .failedInside(response.errorBody())

            """))
        #expect(!errors.contains("default: return"))
    }

    @Test("An overridden models template lays out the coding statements its own way")
    func modelCodingOverride() throws {
        // Arguments one per line, and a read-only property's statement as a `guard`-less `if` block.
        let models = try builtIn("models", replacing: """
                    self.{{target}} = try container.{{decodeMethod}}({{#type}}{{type}}.self, {{/type}}forKey: .{{key}}{{#dateFormat}}, as: {{dateFormat}}{{/dateFormat}}){{#defaultValue}} ?? {{defaultValue}}{{/defaultValue}}

            """, with: """
                    self.{{target}} = try container.{{decodeMethod}}(
            {{#type}}
                        {{type}}.self,
            {{/type}}
                        forKey: .{{key}}{{#dateFormat}},
                        as: {{dateFormat}}{{/dateFormat}}
                    ){{#defaultValue}} ?? {{defaultValue}}{{/defaultValue}}

            """)
        let restyled = models.replacingOccurrences(of: """
                    {{#isReadOnly}}if !isRequest { {{/isReadOnly}}try container.{{encodeMethod}}(self.{{target}}, forKey: .{{key}}{{#dateFormat}}, as: {{dateFormat}}{{/dateFormat}}){{#isReadOnly}} }{{/isReadOnly}}

            """, with: """
            {{#isReadOnly}}
                    if !isRequest {
                        try container.{{encodeMethod}}(self.{{target}}, forKey: .{{key}})
                    }
            {{/isReadOnly}}
            {{^isReadOnly}}
                    try container.{{encodeMethod}}(self.{{target}}, forKey: .{{key}}{{#dateFormat}}, as: {{dateFormat}}{{/dateFormat}})
            {{/isReadOnly}}

            """)
        #expect(restyled != models, "the built-in models template no longer holds the encoding statement")
        let files = try generate(Self.statementsSpec, overriding: ["models": restyled])
        let text = try #require(files["ShelfModels.swift"])
        #expect(text.contains("""
                    self.dueOn = try container.decodeDate(
                        forKey: .dueOn,
                        as: .calendarDate
                    )
                    self.returnedAt = try container.decodeNullableDate(
                        forKey: .returnedAt,
                        as: .epochSeconds
                    )
                    self.renewals = try container.decodeIfPresent(
                        Int.self,
                        forKey: .renewals
                    ) ?? 0

            """))
        #expect(text.contains("""
                    if !isRequest {
                        try container.encode(self.id, forKey: .id)
                    }
                    try container.encodeDate(self.dueOn, forKey: .dueOn, as: .calendarDate)

            """))
    }

    @Test("The statement templates are required, overridable templates")
    func statementTemplatesAreRequired() throws {
        for name in ["failureMatching", "failureSwitch"] {
            #expect(Generator.requiredTemplates.contains(name))
            #expect(TemplateSet.builtIn.names.contains(name))
        }
    }
}
