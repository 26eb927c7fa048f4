@testable import CourierGenerator
import Foundation
import Testing

@Suite struct TemplateRenderingTests {
    private struct Item: TemplateModel {
        var text: String
        static let templateFields: TemplateFields<Self> = ["text": \.text]
    }

    private struct Page: TemplateModel {
        var title: String
        var items: [Item]
        static let templateFields: TemplateFields<Self> = ["title": \.title, "items": \.items]
    }

    private static let pragma = TemplateError.requiredPragma
    private static let hostile = #"a "quoted" <tag> & 'apostrophe' &amp; done"#

    private func renderer(_ texts: [String: String]) throws -> TemplateRenderer {
        var set = TemplateSet()
        for (name, text) in texts {
            set.register(text, named: name, origin: "test/\(name).mustache")
        }
        return try TemplateRenderer(templates: set)
    }

    @Test func valuesRenderUnchangedAtTopLevelInSectionsAndThroughPartials() throws {
        let renderer = try renderer([
            "page": "\(Self.pragma)\n{{title}}\n{{#items}}[{{> item}}]\n{{/items}}{{> footer}}\n",
            "item": "\(Self.pragma)\n{{text}}",
            "footer": "\(Self.pragma)\nend: {{title}}",
        ])
        let page = Page(title: Self.hostile, items: [Item(text: Self.hostile), Item(text: "<second>")])
        let output = try renderer.render(page, template: "page")
        #expect(output == "\(Self.hostile)\n[\(Self.hostile)]\n[<second>]\nend: \(Self.hostile)\n")
    }

    @Test func valuesRenderUnchangedThroughTemplateInheritance() throws {
        let renderer = try renderer([
            "child": "\(Self.pragma)\n{{<base}}{{$body}}body: {{title}}{{/body}}{{/base}}",
            "base": "\(Self.pragma)\nbase: {{title}}\n{{$body}}default{{/body}}\n",
        ])
        let output = try renderer.render(Page(title: Self.hostile, items: []), template: "child")
        #expect(output == "base: \(Self.hostile)\nbody: \(Self.hostile)\n")
    }

    @Test func aPartialWithoutThePragmaIsRejectedByName() throws {
        #expect(throws: TemplateError.missingTextPragma(template: "item", origin: "test/item.mustache")) {
            try renderer(["page": "\(Self.pragma)\n{{> item}}", "item": "{{text}}"])
        }
    }

    @Test func thePragmaMustBeTheFirstLine() {
        #expect(TemplateSet.startsWithTextPragma("{{% CONTENT_TYPE: TEXT }}\nbody"))
        #expect(TemplateSet.startsWithTextPragma("{{%CONTENT_TYPE:TEXT}}"))
        #expect(TemplateSet.startsWithTextPragma("  {{%  CONTENT_TYPE :\tTEXT  }}  \r\nbody"))
        #expect(!TemplateSet.startsWithTextPragma("{{% CONTENT_TYPE: HTML }}\nbody"))
        #expect(!TemplateSet.startsWithTextPragma("// header\n{{% CONTENT_TYPE: TEXT }}"))
        #expect(!TemplateSet.startsWithTextPragma("{{% CONTENT_TYPE: TEXT }} trailing {{x}}"))
        #expect(!TemplateSet.startsWithTextPragma(""))
    }

    @Test func syntaxErrorsNameTheTemplateFileAndLine() throws {
        let error = #expect(throws: TemplateError.self) {
            try renderer(["broken": "\(Self.pragma)\nline two\n{{#open}}never closed"])
        }
        guard case .syntax(let template, let origin, let line, _, _) = error else {
            Issue.record("expected a syntax error, got \(String(describing: error))")
            return
        }
        #expect(template == "broken")
        #expect(origin == "test/broken.mustache")
        #expect(line == 3)
        #expect(error?.description.hasPrefix("test/broken.mustache:3:") == true)
        #expect(error?.description.contains("'open' is opened but never closed") == true)
    }

    @Test func aMissingPartialIsAnErrorInsteadOfSilentlyEmpty() throws {
        #expect(throws: TemplateError.missingPartial(name: "models/absent", template: "page", origin: "test/page.mustache")) {
            try renderer(["page": "\(Self.pragma)\n{{>  models/absent}}\n"])
        }
        // Inside a section, and inside a block that replaces a parent's.
        #expect(throws: TemplateError.missingPartial(name: "inner", template: "page", origin: "test/page.mustache")) {
            try renderer(["page": "\(Self.pragma)\n{{#items}}{{> inner}}{{/items}}\n"])
        }
        #expect(throws: TemplateError.missingPartial(name: "inner", template: "page", origin: "test/page.mustache")) {
            try renderer(["page": "\(Self.pragma)\n{{<base}}{{$b}}{{> inner}}{{/b}}{{/base}}", "base": "\(Self.pragma)\n{{$b}}{{/b}}"])
        }
        // A partial named by a value cannot be checked before rendering, so it is refused.
        let error = #expect(throws: TemplateError.self) { try renderer(["page": "\(Self.pragma)\n{{> *which}}\n"]) }
        #expect(error?.description.contains("dynamic partial names") == true)
    }

    @Test func unknownTemplatesAndMissingRequiredTemplatesAreErrors() throws {
        let renderer = try renderer(["a": "\(Self.pragma)\nA"])
        #expect(throws: TemplateError.unknownTemplate(name: "b")) {
            try renderer.render(Item(text: ""), template: "b")
        }
        #expect(throws: TemplateError.missingTemplates(names: ["b", "c"])) {
            try renderer.requireTemplates(["c", "a", "b", "c"])
        }
        try renderer.requireTemplates(["a"])
    }

    @Test func loadsADirectoryRecursivelyAndOverridesSingleTemplates() throws {
        let folder = try RenderTestFolder()
        try folder.write("\(Self.pragma)\nfrom file: {{specPath}}\n", to: "header.mustache")
        try folder.write("\(Self.pragma)\nnested\n", to: "models/struct.mustache")
        try folder.write("not a template", to: "README.md")
        // A byte order mark must not hide the pragma or reach the output.
        try folder.write("\u{FEFF}\(Self.pragma)\nbom\n", to: "bom.mustache")

        let loaded = try TemplateSet(contentsOf: folder.url)
        #expect(loaded.names == ["bom", "header", "models/struct"])
        #expect(loaded.text(named: "bom") == "\(Self.pragma)\nbom\n")
        #expect(loaded.templates["header"]?.origin == folder.url.appendingPathComponent("header.mustache").path)

        var custom = TemplateSet.builtIn
        try custom.register(contentsOf: folder.url.appendingPathComponent("header.mustache"))
        let output = try TemplateRenderer(templates: custom).render(FileHeader(specPath: "x.yaml"), template: "header")
        #expect(output == "from file: x.yaml\n")

        let merged = TemplateSet.builtIn.merging(loaded)
        #expect(merged.text(named: "header") == loaded.text(named: "header"))
        #expect(Set(merged.names) == Set(TemplateSet.builtIn.names).union(loaded.names))
    }

    @Test func aUserTemplateWithoutThePragmaNamesItsFile() throws {
        let folder = try RenderTestFolder()
        try folder.write("// Generated by Courier {{version}}\n", to: "header.mustache")
        let set = try TemplateSet(contentsOf: folder.url)
        let path = folder.url.appendingPathComponent("header.mustache").path
        #expect(throws: TemplateError.missingTextPragma(template: "header", origin: path)) {
            try TemplateRenderer(templates: set)
        }
        let error = TemplateError.missingTextPragma(template: "header", origin: path)
        #expect(error.description.hasPrefix("\(path):1:1: error:"))
        #expect(error.description.contains(TemplateError.requiredPragma))
    }

    @Test func unreadableTemplatesAreTypedErrors() throws {
        let folder = try RenderTestFolder()
        let missing = folder.url.appendingPathComponent("absent")
        #expect(throws: TemplateError.unreadableDirectory(path: missing.path, reason: "no such directory")) {
            try TemplateSet(contentsOf: missing)
        }
        try folder.write(Data([0x7B, 0x7B, 0xFF, 0xFE]), to: "binary.mustache")
        let binary = folder.url.appendingPathComponent("binary.mustache")
        #expect(throws: TemplateError.unreadableFile(path: binary.path, reason: "not valid UTF-8")) {
            try TemplateSet(contentsOf: folder.url)
        }
    }
}
