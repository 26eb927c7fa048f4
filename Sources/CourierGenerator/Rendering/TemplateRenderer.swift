import CourierLocking
import Foundation
import Mustache

/// Renders view models through a checked ``TemplateSet``.
///
/// Creating a renderer parses every template once and checks what swift-mustache would otherwise
/// let pass silently: a template without the text pragma (values HTML-escaped) and a partial that
/// does not exist (rendered as nothing). A renderer is immutable and can be shared by concurrent
/// generations.
struct TemplateRenderer: Sendable {
    /// The templates compiled per access level, with `{{access}}` written in as the word
    /// itself: it is the same in a whole file, and a tag looked up in every declaration walks
    /// the whole context stack each time (5 to 10% of rendering a large service). Each level
    /// is compiled when first used, since a run rarely uses more than one.
    private let libraries: CompiledVariants
    private let templates: TemplateSet

    /// A renderer for `templates`.
    ///
    /// - Throws: ``TemplateError/missingTextPragma(template:origin:)``,
    ///   ``TemplateError/syntax(template:origin:line:column:message:)`` or
    ///   ``TemplateError/missingPartial(name:template:origin:)`` for the first template, by name,
    ///   that has the problem.
    init(templates: TemplateSet) throws(TemplateError) {
        for name in templates.names {
            guard let template = templates.templates[name] else { continue }
            guard TemplateSet.startsWithTextPragma(template.text) else {
                throw .missingTextPragma(template: name, origin: template.origin)
            }
            do {
                // Parsed as written, so that an error's line and column are the file's.
                _ = try MustacheTemplate(string: template.text)
            } catch let error as MustacheTemplate.ParserError {
                throw .syntax(
                    template: name,
                    origin: template.origin,
                    line: error.context.lineNumber,
                    column: error.context.columnNumber,
                    message: Self.explanation(of: error.error)
                )
            } catch {
                throw .syntax(template: name, origin: template.origin, line: 1, column: 1, message: "\(error)")
            }
        }
        for name in templates.names {
            guard let template = templates.templates[name] else { continue }
            for partial in Self.partialNames(in: template.text) where templates.templates[partial] == nil {
                throw .missingPartial(name: partial, template: name, origin: template.origin)
            }
        }
        self.libraries = CompiledVariants(templates: templates)
        self.templates = templates
    }

    /// Checks that the set contains every template in `names`, so that a `--templates` directory
    /// missing one fails before anything is generated rather than halfway through.
    ///
    /// - Throws: ``TemplateError/missingTemplates(names:)`` listing all missing names, sorted.
    func requireTemplates(_ names: some Sequence<String>) throws(TemplateError) {
        let missing = Set(names).filter { templates.templates[$0] == nil }.sorted()
        guard missing.isEmpty else {
            throw .missingTemplates(names: missing)
        }
    }

    /// The tag templates write for the access level of the declarations; see ``libraries``.
    static let accessTag = "{{access}}"


    /// The template `name` rendered with `model` as its context.
    ///
    /// Models conform to `MustacheParent` (usually through ``TemplateModel``), so that
    /// swift-mustache looks their values up by name instead of by reflection.
    ///
    /// - Throws: ``TemplateError/unknownTemplate(name:)`` when the set has no such template.
    func render(_ model: some MustacheParent, template name: String, access: AccessLevel = .public) throws(TemplateError) -> String {
        guard let text = libraries.library(for: access).render(model, withTemplate: name) else {
            throw .unknownTemplate(name: name)
        }
        return text
    }

    /// The names of the partials that `text` includes by a fixed name (`{{> name}}`, `{{< name}}`).
    ///
    /// Dynamic partials (`{{> *variable}}`) are resolved at render time and cannot be checked here,
    /// and neither can tags after a delimiter change (`{{=<% %>=}}`), which the default templates
    /// do not use.
    static func partialNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            rest = rest[open.upperBound...]
            guard let marker = rest.first, marker == ">" || marker == "<" else { continue }
            let afterMarker = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            guard afterMarker.first != "*" else { continue }
            let name = afterMarker.prefix { partialNameCharacters.contains($0) }
            if !name.isEmpty {
                names.append(String(name))
            }
        }
        return names
    }

    /// What a swift-mustache parser error means, in words a template author can act on.
    private static func explanation(of error: any Error) -> String {
        guard let error = error as? MustacheTemplate.Error, let text = parserErrorExplanations[error] else {
            return "\(error)"
        }
        return text
    }

    // A dictionary rather than a switch, so that a case added in a later swift-mustache release
    // falls back to its name instead of breaking the build.
    private static let parserErrorExplanations: [MustacheTemplate.Error: String] = [
        .sectionCloseNameIncorrect: "a section is closed with another name than it was opened with",
        .unfinishedName: "a tag is not closed, or its name contains a character mustache does not allow",
        .expectedSectionEnd: "a section is opened but never closed",
        .invalidSetDelimiter: "the set-delimiter tag is malformed",
        .transformAppliedToInheritanceSection: "a transform cannot be applied to an inheritance block",
        .illegalTokenInsideInheritSection: "only block definitions may appear inside a partial with inheritance",
        .textInsideInheritSection: "only block definitions may appear inside a partial with inheritance",
        .invalidConfigVariableSyntax: "the pragma is malformed; write it as {{% CONTENT_TYPE: TEXT }}",
        .unrecognisedConfigVariable: "unknown pragma or content type; the only one Courier uses is {{% CONTENT_TYPE: TEXT }}",
    ]

    /// The characters swift-mustache accepts in a partial's name.
    private static let partialNameCharacters = Set<Character>(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()/"
    )
}

/// The templates of one set compiled for each access level, each the first time it is asked for.
private final class CompiledVariants: Sendable {
    private let templates: TemplateSet
    // Renders on several threads ask for a library at once.
    private let compiled = Locked<[AccessLevel: MustacheLibrary]>([:])

    init(templates: TemplateSet) {
        self.templates = templates
    }

    func library(for access: AccessLevel) -> MustacheLibrary {
        compiled.withLock { compiled in
            if let library = compiled[access] { return library }
            var library = MustacheLibrary()
            for name in templates.names {
                guard let template = templates.templates[name] else { continue }
                let text = template.text.replacingOccurrences(of: TemplateRenderer.accessTag, with: access.rawValue)
                // The renderer compiled the text with the tag; the word in its place cannot break it.
                guard let parsed = try? MustacheTemplate(string: text) else { continue }
                library.register(parsed, named: name)
            }
            compiled[access] = library
            return library
        }
    }
}
