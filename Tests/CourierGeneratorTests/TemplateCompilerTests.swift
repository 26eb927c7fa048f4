@testable import CourierGenerator
import Foundation
import Testing

/// The template engine: mustache's syntax, names resolved when a template is compiled for its
/// view model, and what a template that names something its model lacks is told.
@Suite struct TemplateCompilerTests {
    private struct Parameter: TemplateModel {
        var label: String
        var defaultValue: String?
        static let templateFields: TemplateFields<Self> = ["label": \.label, "defaultValue": \.defaultValue]
    }

    private struct Method: TemplateModel {
        var name: String
        var parameters: [Parameter]
        var tags: [String]
        var attempts: Int
        var isAsync: Bool
        static let templateFields: TemplateFields<Self> = [
            "name": \.name, "parameters": \.parameters, "tags": \.tags, "attempts": \.attempts, "isAsync": \.isAsync,
        ]
    }

    private struct Switch: TemplateModel {
        var subject: String
        var cases: [Case]
        static let templateFields: TemplateFields<Self> = ["subject": \.subject, "cases": \.cases]
    }

    private struct Case: TemplateModel {
        var literal: String
        var nested: Switch?
        static let templateFields: TemplateFields<Self> = ["literal": \.literal, "nested": \.nested]
    }

    private struct File: TemplateModel {
        var access: String
        var methods: [Method]
        var primary: Method?
        var root: Switch?
        static let templateFields: TemplateFields<Self> = [
            "access": \.access, "methods": \.methods, "primary": \.primary, "root": \.root,
        ]
    }

    private static let pragma = TemplateError.requiredPragma

    private static let file = File(
        access: "public",
        methods: [
            Method(name: "list", parameters: [Parameter(label: "page", defaultValue: "1"), Parameter(label: "size", defaultValue: nil)],
                   tags: ["a", "b"], attempts: 3, isAsync: true),
            Method(name: "get", parameters: [], tags: [], attempts: 0, isAsync: false),
        ],
        primary: Method(name: "main", parameters: [], tags: [], attempts: 1, isAsync: false),
        root: nil
    )

    private func renderer(_ templates: [String: String]) throws(TemplateError) -> TemplateRenderer {
        var set = TemplateSet()
        for (name, text) in templates {
            set.register("\(Self.pragma)\n" + text, named: name, origin: "\(name).mustache")
        }
        return try TemplateRenderer(templates: set)
    }

    private func render(_ templates: [String: String], _ model: File = Self.file) throws(TemplateError) -> String {
        try renderer(templates).render(model, template: "t")
    }

    // MARK: Names resolved when compiled

    @Test func aNameNoModelInScopeHasIsAnErrorAtItsLineWithASuggestion() throws {
        let error = #expect(throws: TemplateError.self) {
            try render(["t": "{{#methods}}\n  {{#parameters}}{{lable}}{{/parameters}}\n{{/methods}}"])
        }
        // Line 3 of the file: the pragma is line 1.
        #expect(error == .unknownName(template: "t", origin: "t.mustache", line: 3, column: 18, name: "lable",
                                      models: ["Parameter", "Method", "File"], suggestion: "label"))
        #expect(error?.description == "t.mustache:3:18: error: template 't' reads 'lable', which Parameter, Method, File do not have; did you mean 'label'?")
    }

    @Test func aNameInAPartialIsReportedInThePartialsFile() throws {
        let error = #expect(throws: TemplateError.self) {
            try render(["t": "{{#methods}}\n{{> row}}\n{{/methods}}", "row": "{{name}}\n{{nmae}}"])
        }
        guard case .unknownName(let template, let origin, let line, _, let name, _, let suggestion)? = error else {
            Issue.record("expected an unknown name, got \(String(describing: error))")
            return
        }
        #expect(template == "row")
        #expect(origin == "row.mustache")
        #expect(line == 3)
        #expect(name == "nmae")
        #expect(suggestion == "name")
    }

    @Test func anErrorSurfacesWhenCompiledEvenWhereRenderingWouldSkipTheSection() throws {
        // No method has `isAsync` false with tags, so mustache would never look the name up.
        let error = #expect(throws: TemplateError.self) {
            try render(["t": "{{#methods}}{{^isAsync}}{{#tags}}{{absent}}{{/tags}}{{/isAsync}}{{/methods}}"],
                       File(access: "", methods: [], primary: nil, root: nil))
        }
        guard case .unknownName(_, _, _, _, "absent", let models, nil)? = error else {
            Issue.record("expected an unknown name, got \(String(describing: error))")
            return
        }
        // A string element is not a model: only the models are named.
        #expect(models == ["Method", "File"])
    }

    @Test func valuesUsedAsTheyCannotBeAreErrors() throws {
        let cases: [(String, String)] = [
            ("{{methods}}", "'methods' is a list"),
            ("{{primary}}", "'primary' is a Method, which has fields rather than text"),
            ("{{#methods}}{{#parameters}}{{#defaultValue}}{{^last()}},{{/last()}}{{/defaultValue}}{{/parameters}}{{/methods}}",
             "'last()' asks where it is in a list, but no section over a list encloses it here"),
            ("{{uppercased(methods)}}", "'uppercased' does not apply to a list; its transforms are count, empty, reversed, first, last"),
            ("{{access.name}}", "'access.name': 'name' is read from a value that is not a model"),
        ]
        for (template, message) in cases {
            let error = #expect(throws: TemplateError.self) { try render(["t": template]) }
            #expect(error?.description.contains(message) == true, "\(template): \(String(describing: error))")
        }
    }

    // MARK: Rendering

    @Test func sectionsConditionsListsAndOuterNames() throws {
        let output = try render([
            "t": """
                {{#methods}}
                {{access}} func {{name}}({{#parameters}}{{label}}{{#defaultValue}} = {{.}}{{/defaultValue}}{{^last()}}, {{/last()}}{{/parameters}}){{#isAsync}} async{{/isAsync}}
                {{/methods}}
                {{^methods}}none{{/methods}}
                {{#primary}}primary: {{name}}, {{access}}{{/primary}}
                """,
        ])
        // The inverted section's line is not standalone (it has text), so its line break stays.
        #expect(output == "public func list(page = 1, size) async\npublic func get()\n\nprimary: main, public")
    }

    @Test func transformsAndPositions() throws {
        let output = try render([
            "t": """
                {{#methods}}{{index()}}:{{uppercased(name)}}{{#first()}}!{{/first()}} {{count(tags)}} {{plusone(attempts)}} {{#empty(tags)}}untagged{{/empty(tags)}}{{#reversed(tags)}}{{.}}{{/reversed(tags)}}{{#even()}}/even{{/even()}};{{/methods}}
                {{#first(methods)}}{{name}}{{/first(methods)}} {{capitalized(access)}} {{#equalzero(count(methods))}}no{{/equalzero(count(methods))}}
                """,
        ])
        #expect(output == "0:LIST! 2 4 ba/even;1:GET 0 1 untagged;\nlist Public ")
    }

    @Test func dottedNamesReachIntoNestedModels() throws {
        let output = try render(["t": "{{primary.name}} {{#primary.parameters}}x{{/primary.parameters}}{{^primary.parameters}}none{{/primary.parameters}}"])
        #expect(output == "main none")
    }

    @Test func standaloneLinesCommentsAndDelimitersLeaveNoTrace() throws {
        let output = try render([
            "t": """
                {{! a comment
                    over two lines }}
                {{#methods}}
                  {{name}}
                {{/methods}}
                {{=<% %>=}}
                <%access%> {{literal}}
                <%={{ }}=%>
                {{access}}
                """,
        ])
        #expect(output == "  list\n  get\npublic {{literal}}\npublic")
    }

    @Test func aStandalonePartialIndentsEveryLineItWritesButLeavesEmptyLinesEmpty() throws {
        let output = try render([
            "t": "struct S {\n    {{> members}}\n}\n",
            "members": "{{#methods}}\nfunc {{name}}() {\n}\n\n{{/methods}}",
        ])
        #expect(output == "struct S {\n    func list() {\n    }\n\n    func get() {\n    }\n\n}\n")
    }

    @Test func inheritanceReplacesBlocksAndTheOutermostReplacementWins() throws {
        let output = try render([
            "t": "{{<outer}}{{$title}}from t{{/title}}{{/outer}}",
            "outer": "{{<base}}{{$title}}from outer{{/title}}{{$body}}outer body{{/body}}{{/base}}",
            "base": "{{$title}}default{{/title}}: {{$body}}default body{{/body}}",
        ])
        #expect(output == "from t: outer body")
    }

    @Test func aPartialThatIncludesItselfRendersEveryLevel() throws {
        let leaf = Switch(subject: "c", cases: [Case(literal: "z", nested: nil)])
        let middle = Switch(subject: "b", cases: [Case(literal: "y", nested: leaf)])
        let root = Switch(subject: "a", cases: [Case(literal: "x", nested: middle), Case(literal: "w", nested: nil)])
        let model = File(access: "", methods: [], primary: nil, root: root)
        let templates = [
            "t": "{{#root}}\n{{> switch}}\n{{/root}}",
            "switch": "switch {{subject}} {\n{{#cases}}\ncase {{literal}}:\n{{#nested}}\n{{> switch}}\n{{/nested}}\n{{/cases}}\n}\n",
        ]
        let renderer = try renderer(templates)
        let output = try renderer.render(model, template: "t")
        #expect(output == "switch a {\ncase x:\nswitch b {\ncase y:\nswitch c {\ncase z:\n}\n}\ncase w:\n}\n")
        // Rendered again, the levels compiled on the first render are reused.
        #expect(try renderer.render(model, template: "t") == output)
    }

    @Test func syntaxErrorsHaveTheirPosition() throws {
        let cases: [(String, Int, Int, String)] = [
            ("a\n{{#open}}", 3, 1, "'open' is opened but never closed"),
            ("{{#a}}{{/b}}", 2, 7, "'a' (line 2) is closed with another name, 'b'"),
            ("{{/a}}", 2, 1, "'a' is closed here but was never opened"),
            ("x {{name", 2, 3, "a tag is not closed"),
            ("{{na me}}", 2, 1, "'na me' is not a name"),
            ("{{% CONTENT_TYPE: HTML }}", 2, 1, "unknown pragma or content type"),
            ("{{<base}}text{{x}}{{/base}}", 2, 1, "only block definitions"),
        ]
        for (text, line, column, message) in cases {
            let error = #expect(throws: TemplateError.self) {
                try TemplateSyntax(parsing: "\(Self.pragma)\n" + text, name: "t", origin: "t.mustache")
            }
            guard case .syntax(_, _, let foundLine, let foundColumn, let foundMessage)? = error else {
                Issue.record("\(text): expected a syntax error, got \(String(describing: error))")
                continue
            }
            #expect(foundLine == line, "\(text)")
            #expect(foundColumn == column, "\(text)")
            #expect(foundMessage.contains(message), "\(text): \(foundMessage)")
        }
    }
}
