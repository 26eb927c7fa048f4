import CourierLocking

/// Renders view models through a checked ``TemplateSet``.
///
/// Creating a renderer parses every template once and checks what mustache would otherwise let
/// pass silently: a template without the text pragma and a partial that does not exist. Each
/// template is then compiled once per view-model type it is rendered with (``TemplateCompiler``),
/// which resolves its names; ``compile(_:for:)`` does that up front, so that a template naming a
/// field its model lacks fails before any spec is read. A renderer is immutable apart from that
/// cache and can be shared by concurrent generations.
struct TemplateRenderer: Sendable {
    private let templates: TemplateSet
    private let compiler: TemplateCompiler
    private let compiled = Locked<[CompiledKey: CompiledTemplate]>([:])

    private struct CompiledKey: Hashable {
        var template: String
        var model: ObjectIdentifier
    }

    /// A renderer for `templates`.
    ///
    /// - Throws: ``TemplateError/missingTextPragma(template:origin:)``,
    ///   ``TemplateError/syntax(template:origin:line:column:message:)`` or
    ///   ``TemplateError/missingPartial(name:template:origin:)`` for the first template, by name,
    ///   that has the problem.
    init(templates: TemplateSet) throws(TemplateError) {
        var parsed: [String: TemplateSyntax] = [:]
        for name in templates.names {
            guard let template = templates.templates[name] else { continue }
            guard TemplateSet.startsWithTextPragma(template.text) else {
                throw .missingTextPragma(template: name, origin: template.origin)
            }
            parsed[name] = try TemplateSyntax(parsing: template.text, name: name, origin: template.origin)
        }
        for name in templates.names {
            guard let syntax = parsed[name] else { continue }
            for partial in Self.partialNames(in: syntax.nodes) where parsed[partial] == nil {
                throw .missingPartial(name: partial, template: name, origin: syntax.origin)
            }
        }
        self.templates = templates
        compiler = TemplateCompiler(templates: parsed)
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

    /// The template `name` compiled for `model` as its outermost model; compiled once and kept.
    ///
    /// - Throws: ``TemplateError/unknownTemplate(name:)``, or what ``TemplateCompiler`` finds:
    ///   a name no model in scope has, or a value used as it cannot be.
    @discardableResult
    func compile(_ name: String, for model: any TemplateModel.Type) throws(TemplateError) -> CompiledTemplate {
        let key = CompiledKey(template: name, model: ObjectIdentifier(model))
        if let template = compiled.withLock({ $0[key] }) { return template }
        let template = try compiler.compile(name, for: model)
        compiled.withLock { $0[key] = template }
        return template
    }

    /// The template `name` rendered with `model` as its outermost model.
    ///
    /// - Throws: what ``compile(_:for:)`` throws, the first time this template meets this type.
    func render<Model: TemplateModel>(_ model: Model, template name: String) throws(TemplateError) -> String {
        try compile(name, for: Model.self).render(model)
    }

    /// The partials the nodes include by name, in order.
    private static func partialNames(in nodes: [TemplateNode]) -> [String] {
        nodes.flatMap { node -> [String] in
            switch node {
            case .text, .variable: []
            case .section(_, _, let body, _): partialNames(in: body)
            case .partial(let name, _, _): [name]
            case .parent(let name, _, let blocks, _): [name] + blocks.keys.sorted().flatMap { partialNames(in: blocks[$0] ?? []) }
            case .block(_, _, let body, _): partialNames(in: body)
            }
        }
    }
}
