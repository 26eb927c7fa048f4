import CourierLocking
import Foundation

/// Compiles parsed templates for a view-model type into a ``CompiledTemplate``.
///
/// Every name a template uses is resolved here, once, against the fields of the models that
/// will be in scope where the name stands (the root model, then the element or value of each
/// enclosing section): a name becomes "field 3 of the model two sections up". Transforms are
/// checked against what the field holds. A name no model in scope has, a transform that does
/// not apply, or a list printed as text is a ``TemplateError`` with the template's line and
/// column, before anything is rendered, where mustache would print nothing.
///
/// Partials are compiled into each place that includes them, since what their names mean depends
/// on the models around them; a partial that includes itself (a nested switch) is compiled one
/// level at a time, the first time rendering reaches that level.
struct TemplateCompiler: Sendable {
    /// The parsed templates by name: every template a compiled one may include.
    let templates: [String: TemplateSyntax]

    /// `name` compiled for `root` as the outermost model.
    ///
    /// - Throws: ``TemplateError/unknownTemplate(name:)``, ``TemplateError/missingPartial(name:template:origin:)``,
    ///   ``TemplateError/unknownName(template:origin:line:column:name:models:suggestion:)`` or
    ///   ``TemplateError/invalidUse(template:origin:line:column:message:)``.
    func compile(_ name: String, for root: any TemplateModel.Type) throws(TemplateError) -> CompiledTemplate {
        guard let template = templates[name] else { throw .unknownTemplate(name: name) }
        let scope = Scope(template: template, frames: [Frame(type: root, isElement: false)], overrides: [:], including: [name])
        return CompiledTemplate(steps: try compile(template.nodes, in: scope))
    }

    // MARK: Scope

    /// A model that will be in scope at render time: its type, and whether a list section put it
    /// there (which is what `first()`, `last()` and `index()` ask about).
    struct Frame: @unchecked Sendable {
        var type: any TemplateModel.Type
        var isElement: Bool
    }

    /// A block replacement from a parent tag, with the template it is written in.
    struct Override: Sendable {
        var nodes: [TemplateNode]
        var template: TemplateSyntax
    }

    /// Where compilation stands: the template whose nodes these are (for diagnostics), the
    /// models in scope, innermost last, the block replacements in force, and the chain of
    /// partials being compiled (to find a partial that includes itself).
    struct Scope: Sendable {
        var template: TemplateSyntax
        var frames: [Frame]
        var overrides: [String: Override]
        var including: [String]
    }

    private func compile(_ nodes: [TemplateNode], in scope: Scope) throws(TemplateError) -> [RenderStep] {
        var steps: [RenderStep] = []
        for node in nodes {
            switch node {
            case .text(let text):
                steps.append(.text(text))
            case .variable(let name, let position):
                let reference = try resolve(name, at: position, in: scope)
                switch reference.result {
                case .text, .integer, .flag:
                    steps.append(.value(reference))
                case .model(let type) where isText(type):
                    steps.append(.value(reference))
                case .model(let type):
                    throw invalid("'\(name)' is a \(typeName(type)), which has fields rather than text; "
                                  + "open it as a section ({{#\(name)}}…{{/\(name)}}) and print its fields", at: position, in: scope)
                case .list:
                    throw invalid("'\(name)' is a list; open it as a section ({{#\(name)}}…{{/\(name)}}) to print each element",
                                  at: position, in: scope)
                case .position:
                    throw invalid("'\(name)' needs a transform such as 'first()', 'last()' or 'index()'", at: position, in: scope)
                }
            case .section(let name, let inverted, let body, let position):
                let reference = try resolve(name, at: position, in: scope)
                var inner = scope
                if !inverted {
                    switch reference.result {
                    case .flag: break
                    case .text, .integer: inner.frames.append(Frame(type: TemplateText.self, isElement: false))
                    case .model(let type): inner.frames.append(Frame(type: type, isElement: false))
                    case .list(let type): inner.frames.append(Frame(type: type, isElement: true))
                    case .position:
                        throw invalid("'\(name)' needs a transform such as 'first()' or 'last()'", at: position, in: scope)
                    }
                }
                steps.append(.section(reference, inverted: inverted, body: try compile(body, in: inner)))
            case .partial(let name, let indentation, let position):
                steps += try include(name, indentation: indentation, overrides: [:], at: position, in: scope)
            case .parent(let name, let indentation, let blocks, let position):
                var overrides = blocks.mapValues { Override(nodes: $0, template: scope.template) }
                // A replacement from further out wins, as in mustache: the outermost caller decides.
                overrides.merge(scope.overrides) { _, outer in outer }
                steps += try include(name, indentation: indentation, overrides: overrides, at: position, in: scope)
            case .block(let name, let indentation, let body, _):
                var compiled: [RenderStep]
                if let override = scope.overrides[name] {
                    var inner = scope
                    inner.template = override.template
                    compiled = try compile(override.nodes, in: inner)
                } else {
                    compiled = try compile(body, in: scope)
                }
                if !indentation.isEmpty { compiled = [.indented(indentation, compiled)] }
                steps += compiled
            }
        }
        return steps
    }

    private func include(_ name: String, indentation: String, overrides: [String: Override], at position: TemplatePosition,
                         in scope: Scope) throws(TemplateError) -> [RenderStep] {
        guard let partial = templates[name] else {
            throw .missingPartial(name: name, template: scope.template.name, origin: scope.template.origin)
        }
        var inner = Scope(template: partial, frames: scope.frames, overrides: overrides.isEmpty ? scope.overrides : overrides,
                          including: scope.including + [name])
        let steps: [RenderStep]
        if scope.including.contains(name) {
            // The models in scope grow with each level of a recursive partial, so each level is
            // compiled when rendering first reaches it, and kept.
            inner.including = [name]
            let level = inner
            steps = [.deferred(DeferredSteps { () throws(TemplateError) in try compile(partial.nodes, in: level) })]
        } else {
            steps = try compile(partial.nodes, in: inner)
        }
        return indentation.isEmpty ? steps : [.indented(indentation, steps)]
    }

    // MARK: Names

    private func resolve(_ name: TagName, at position: TemplatePosition, in scope: Scope) throws(TemplateError) -> ValueReference {
        var reference: ValueReference
        let top = scope.frames.count - 1
        if name.path.isEmpty {
            guard let frame = scope.frames.last, frame.isElement else {
                throw invalid("'\(name)' asks where it is in a list, but no section over a list encloses it here",
                              at: position, in: scope)
            }
            reference = ValueReference(source: .position(depth: top), result: .position)
        } else if name.path == "." {
            let type = scope.frames[top].type
            reference = ValueReference(source: .current(depth: top), result: isText(type) ? .text : .model(type))
        } else {
            let isLocal = name.path.hasPrefix(".")
            let segments = name.path.split(separator: ".", omittingEmptySubsequences: false).dropFirst(isLocal ? 1 : 0).map(String.init)
            guard let first = segments.first, segments.allSatisfy({ !$0.isEmpty }) else {
                throw invalid("'\(name)' is not a name", at: position, in: scope)
            }
            let candidates = isLocal ? top...top : 0...top
            guard let depth = candidates.reversed().first(where: { scope.frames[$0].type.templateField(named: first) != nil }),
                  var field = scope.frames[depth].type.templateField(named: first) else {
                throw unknown(name, segment: first, among: candidates.map { scope.frames[$0].type }, at: position, in: scope)
            }
            var slots = [field.slot]
            for segment in segments.dropFirst() {
                guard let type = field.shape.modelType else {
                    throw invalid("'\(name)': '\(segment)' is read from a value that is not a model", at: position, in: scope)
                }
                guard let next = type.templateField(named: segment) else {
                    throw unknown(name, segment: segment, among: [type], at: position, in: scope)
                }
                field = next
                slots.append(next.slot)
            }
            guard let shape = ValueShape(field.shape) else {
                throw invalid("'\(name)' has a type templates cannot read", at: position, in: scope)
            }
            reference = ValueReference(source: .field(depth: depth, slots: slots, read: shape.read), result: shape)
        }
        for transform in name.transforms.reversed() {
            guard let (operation, result) = ValueTransform.resolve(transform, on: reference.result) else {
                throw invalid("'\(transform)' does not apply to \(reference.result.description); "
                              + ValueTransform.available(on: reference.result), at: position, in: scope)
            }
            reference.transforms.append(operation)
            reference.result = result
        }
        return reference
    }

    private func isText(_ type: any TemplateModel.Type) -> Bool {
        ObjectIdentifier(type) == ObjectIdentifier(TemplateText.self)
    }

    private func typeName(_ type: any TemplateModel.Type) -> String {
        isText(type) ? "text" : "\(type)"
    }

    private func unknown(_ name: TagName, segment: String, among types: [any TemplateModel.Type], at position: TemplatePosition,
                         in scope: Scope) -> TemplateError {
        let models = types.reversed().filter { !isText($0) }
        let names = Set(models.flatMap { $0.templateFieldNames })
        return .unknownName(template: scope.template.name, origin: scope.template.origin, line: position.line,
                            column: position.column, name: segment, models: models.map { "\($0)" },
                            suggestion: Suggestions.closest(to: segment, among: names.sorted()))
    }

    private func invalid(_ message: String, at position: TemplatePosition, in scope: Scope) -> TemplateError {
        .invalidUse(template: scope.template.name, origin: scope.template.origin, line: position.line, column: position.column,
                    message: message)
    }
}

extension TemplateFieldShape {
    /// The model type a dotted name can continue into.
    fileprivate var modelType: (any TemplateModel.Type)? {
        switch self {
        case .model(let type), .optionalModel(let type): type
        default: nil
        }
    }
}

// MARK: - What compilation produces

/// A template compiled for one root model type: steps whose every name is a position.
struct CompiledTemplate: Sendable {
    let steps: [RenderStep]

    /// The template rendered with `model` as the outermost model.
    ///
    /// - Throws: only when rendering reaches a level of a recursive partial that fails to
    ///   compile, which the first level, compiled up front, already rules out in practice.
    func render(_ model: any TemplateModel) throws(TemplateError) -> String {
        var renderer = StepRenderer(root: model)
        try renderer.run(steps)
        return renderer.output
    }
}

/// One instruction of a compiled template.
indirect enum RenderStep: Sendable {
    /// Text from the template.
    case text(String)
    /// A value printed.
    case value(ValueReference)
    /// A section: a condition, a model opened, or a list walked.
    case section(ValueReference, inverted: Bool, body: [RenderStep])
    /// A standalone partial or block: every line it writes starts with the indentation.
    case indented(String, [RenderStep])
    /// A level of a recursive partial, compiled when first rendered.
    case deferred(DeferredSteps)
}

/// Steps compiled on first use, then kept.
final class DeferredSteps: Sendable {
    private let compile: @Sendable () throws(TemplateError) -> [RenderStep]
    private let compiled = Locked<[RenderStep]?>(nil)

    init(_ compile: @escaping @Sendable () throws(TemplateError) -> [RenderStep]) {
        self.compile = compile
    }

    func steps() throws(TemplateError) -> [RenderStep] {
        if let steps = compiled.withLock({ $0 }) { return steps }
        // Compiled outside the lock: two renders that race compile the same steps twice.
        let steps = try compile()
        compiled.withLock { $0 = steps }
        return steps
    }
}

/// What a value is, as far as the compiler knows.
enum ValueShape: @unchecked Sendable, CustomStringConvertible {
    case text
    case flag
    case integer
    case model(any TemplateModel.Type)
    case list(any TemplateModel.Type)
    /// Where the current element stands in its list: only transforms read it.
    case position

    init?(_ field: TemplateFieldShape) {
        switch field {
        case .text, .optionalText: self = .text
        case .flag: self = .flag
        case .integer, .optionalInteger: self = .integer
        case .model(let type), .optionalModel(let type): self = .model(type)
        case .models(let type): self = .list(type)
        case .texts: self = .list(TemplateText.self)
        case .unsupported: return nil
        }
    }

    /// How the field's value is read.
    var read: ValueReference.Read {
        switch self {
        case .text: .text
        case .flag: .flag
        case .integer: .integer
        case .model: .model
        case .list, .position: .list
        }
    }

    var description: String {
        switch self {
        case .text: "text"
        case .flag: "a true-or-false value"
        case .integer: "a number"
        case .model(let type): "a \(type)"
        case .list: "a list"
        case .position: "a position in a list"
        }
    }
}

/// A name resolved: where its value comes from, and the transforms applied to it in order.
struct ValueReference: Sendable {
    /// How the last field of a path is read.
    enum Read: Sendable {
        case text, flag, integer, model, list
    }

    enum Source: Sendable {
        /// A field of the model `depth` frames from the root, through nested models for a dotted name.
        case field(depth: Int, slots: [Int], read: Read)
        /// The model at `depth` itself (`{{.}}`).
        case current(depth: Int)
        /// The position of the element at `depth` in its list.
        case position(depth: Int)
    }

    var source: Source
    var transforms: [ValueTransform] = []
    var result: ValueShape

    init(source: Source, result: ValueShape) {
        self.source = source
        self.result = result
    }
}

/// A transform (`{{uppercased(name)}}`), resolved for the shape it applies to.
enum ValueTransform: Sendable {
    case uppercased, lowercased, capitalized, reversedText, isEmptyText
    case count, isEmptyList, reversedList, firstElement, lastElement
    case plusOne, minusOne, isZero, isEven, isOdd
    case isFirst, isLast, index, isEvenPosition, isOddPosition

    /// The transform called `name` on a value of `shape`, and the shape it gives.
    static func resolve(_ name: String, on shape: ValueShape) -> (ValueTransform, ValueShape)? {
        switch (name, shape) {
        case ("uppercased", .text): (.uppercased, .text)
        case ("lowercased", .text): (.lowercased, .text)
        case ("capitalized", .text): (.capitalized, .text)
        case ("reversed", .text): (.reversedText, .text)
        case ("empty", .text): (.isEmptyText, .flag)
        case ("count", .list): (.count, .integer)
        case ("empty", .list): (.isEmptyList, .flag)
        case ("reversed", .list(let type)): (.reversedList, .list(type))
        case ("first", .list(let type)): (.firstElement, .model(type))
        case ("last", .list(let type)): (.lastElement, .model(type))
        case ("plusone", .integer): (.plusOne, .integer)
        case ("minusone", .integer): (.minusOne, .integer)
        case ("equalzero", .integer): (.isZero, .flag)
        case ("even", .integer): (.isEven, .flag)
        case ("odd", .integer): (.isOdd, .flag)
        case ("first", .position): (.isFirst, .flag)
        case ("last", .position): (.isLast, .flag)
        case ("index", .position): (.index, .integer)
        case ("even", .position): (.isEvenPosition, .flag)
        case ("odd", .position): (.isOddPosition, .flag)
        default: nil
        }
    }

    /// The transforms there are for `shape`, as a sentence for a diagnostic.
    static func available(on shape: ValueShape) -> String {
        let names = switch shape {
        case .text: "uppercased, lowercased, capitalized, reversed, empty"
        case .list: "count, empty, reversed, first, last"
        case .integer: "plusone, minusone, equalzero, even, odd"
        case .position: "first, last, index, even, odd"
        case .flag, .model: ""
        }
        return names.isEmpty ? "it has no transforms" : "its transforms are \(names)"
    }
}

// MARK: - Rendering

/// Runs compiled steps over a stack of models: the root, then each opened section's value.
private struct StepRenderer {
    /// A model in scope, and its place when a list section put it there.
    private struct Frame {
        var model: any TemplateModel
        var position: (index: Int, count: Int)?
    }

    /// A value read at render time.
    private enum Value {
        case none
        case text(String)
        case flag(Bool)
        case integer(Int)
        case model(any TemplateModel)
        case list(TemplateList, reversed: Bool)
        case position(index: Int, count: Int)
    }

    private var frames: [Frame]
    private(set) var output = ""
    /// The indentation every new line gets, from the standalone partials being rendered.
    private var indentation = ""

    init(root: any TemplateModel) {
        frames = [Frame(model: root, position: nil)]
    }

    mutating func run(_ steps: [RenderStep]) throws(TemplateError) {
        for step in steps {
            switch step {
            case .text(let text):
                write(text)
            case .value(let reference):
                switch value(of: reference) {
                case .text(let text): write(text)
                case .integer(let number): write(String(number))
                case .flag(let flag): write(flag ? "true" : "false")
                case .model(let model): write(model.templateText ?? "")
                case .none, .list, .position: break
                }
            case .section(let reference, let inverted, let body):
                try section(value(of: reference), inverted: inverted, body: body)
            case .indented(let more, let body):
                let outer = indentation
                indentation += more
                try run(body)
                indentation = outer
            case .deferred(let deferred):
                try run(try deferred.steps())
            }
        }
    }

    private mutating func section(_ value: Value, inverted: Bool, body: [RenderStep]) throws(TemplateError) {
        switch value {
        case .none:
            if inverted { try run(body) }
        case .flag(let flag):
            if flag != inverted { try run(body) }
        case .text(let text):
            if !inverted { try run(body, with: TemplateText(text)) }
        case .integer(let number):
            if !inverted { try run(body, with: TemplateText(String(number))) }
        case .model(let model):
            if !inverted { try run(body, with: model) }
        case .list(let list, let reversed):
            let count = list.count
            if inverted {
                if count == 0 { try run(body) }
                return
            }
            for index in 0..<count {
                let element = list.element(reversed ? count - 1 - index : index)
                frames.append(Frame(model: element, position: (index, count)))
                defer { frames.removeLast() }
                try run(body)
            }
        case .position:
            break
        }
    }

    private mutating func run(_ body: [RenderStep], with model: any TemplateModel) throws(TemplateError) {
        frames.append(Frame(model: model, position: nil))
        defer { frames.removeLast() }
        try run(body)
    }

    /// Appends `text`, indenting each line that starts inside a standalone partial; empty lines
    /// stay empty, so that no line of generated code ends in spaces.
    private mutating func write(_ text: String) {
        guard !text.isEmpty else { return }
        guard !indentation.isEmpty else {
            output += text
            return
        }
        let bytes = text.utf8
        let newline = UInt8(ascii: "\n")
        var atLineStart = output.utf8.last == newline
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: newline) ?? bytes.endIndex
            if atLineStart && start < end { output += indentation }
            output += text[start..<end]
            guard end < bytes.endIndex else { break }
            output += "\n"
            atLineStart = true
            start = bytes.index(after: end)
        }
    }

    private func value(of reference: ValueReference) -> Value {
        var value: Value
        switch reference.source {
        case .field(let depth, let slots, let read):
            var owner = frames[depth].model
            for slot in slots.dropLast() {
                guard let next = owner.templateModel(at: slot) else { return .none }
                owner = next
            }
            let slot = slots[slots.count - 1]
            switch read {
            case .text: value = owner.templateText(at: slot).map(Value.text) ?? .none
            case .flag: value = .flag(owner.templateFlag(at: slot))
            case .integer: value = owner.templateInteger(at: slot).map(Value.integer) ?? .none
            case .model: value = owner.templateModel(at: slot).map(Value.model) ?? .none
            case .list: value = .list(owner.templateList(at: slot), reversed: false)
            }
        case .current(let depth):
            let model = frames[depth].model
            value = model.templateText.map(Value.text) ?? .model(model)
        case .position(let depth):
            guard let position = frames[depth].position else { return .none }
            value = .position(index: position.index, count: position.count)
        }
        for transform in reference.transforms {
            value = Self.apply(transform, to: value)
        }
        return value
    }

    private static func apply(_ transform: ValueTransform, to value: Value) -> Value {
        switch (transform, value) {
        case (.uppercased, .text(let text)): .text(text.uppercased())
        case (.lowercased, .text(let text)): .text(text.lowercased())
        case (.capitalized, .text(let text)): .text(text.capitalized)
        case (.reversedText, .text(let text)): .text(String(text.reversed()))
        case (.isEmptyText, .text(let text)): .flag(text.isEmpty)
        case (.count, .list(let list, _)): .integer(list.count)
        case (.isEmptyList, .list(let list, _)): .flag(list.count == 0)
        case (.reversedList, .list(let list, let reversed)): .list(list, reversed: !reversed)
        case (.firstElement, .list(let list, let reversed)):
            list.count == 0 ? .none : .model(list.element(reversed ? list.count - 1 : 0))
        case (.lastElement, .list(let list, let reversed)):
            list.count == 0 ? .none : .model(list.element(reversed ? 0 : list.count - 1))
        case (.plusOne, .integer(let number)): .integer(number + 1)
        case (.minusOne, .integer(let number)): .integer(number - 1)
        case (.isZero, .integer(let number)): .flag(number == 0)
        case (.isEven, .integer(let number)): .flag(number & 1 == 0)
        case (.isOdd, .integer(let number)): .flag(number & 1 == 1)
        case (.isFirst, .position(let index, _)): .flag(index == 0)
        case (.isLast, .position(let index, let count)): .flag(index == count - 1)
        case (.index, .position(let index, _)): .integer(index)
        case (.isEvenPosition, .position(let index, _)): .flag(index & 1 == 0)
        case (.isOddPosition, .position(let index, _)): .flag(index & 1 == 1)
        // A missing value stays missing through every transform, as in mustache.
        default: .none
        }
    }
}
