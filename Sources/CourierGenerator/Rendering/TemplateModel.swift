/// A view model that templates read by name.
///
/// A conforming type lists its fields once, as key paths:
///
/// ```swift
/// struct PropertyModel: TemplateModel {
///     var name: String
///     var type: String
///     var documentation: String?
///
///     static let templateFields: TemplateFields<Self> = [
///         "name": \.name,
///         "type": \.type,
///         "documentation": \.documentation,
///     ]
/// }
/// ```
///
/// ``TemplateCompiler`` resolves every name a template uses to one of these fields when it
/// compiles the template for the model's type, so that rendering reads fields by their place in
/// the list: no lookup by name and no dynamic cast per value. A name that no model in scope lists
/// is an error at compile time, with the template's line.
///
/// A field that is `nil` renders as nothing: `{{documentation}}` is empty,
/// `{{#documentation}}...{{/documentation}}` is skipped and `{{^documentation}}` is taken. It does
/// not fall through to a field of the same name in an enclosing model, as a missing name does in
/// mustache, so a property without documentation never shows its type's. Names a model does not
/// list do fall through, which is how a section over `properties` can still read the enclosing
/// model's `typeName`. Arrays of models render as sections, one pass per element.
protocol TemplateModel: Sendable {
    /// The fields templates can read, by the name templates use.
    static var templateFields: TemplateFields<Self> { get }

    /// What `{{.}}` prints when this model is the current value; `nil` for a model, which has
    /// fields rather than text.
    var templateText: String? { get }
}

extension TemplateModel {
    var templateText: String? { nil }

    /// The field templates call `name`, with its place and shape; `nil` when there is none.
    static func templateField(named name: String) -> (slot: Int, shape: TemplateFieldShape)? {
        templateFields.field(named: name)
    }

    /// The names templates can use, sorted; for diagnostics.
    static var templateFieldNames: [String] { templateFields.names }

    // What rendering reads, by slot: each forwards to the field list of the model's own type,
    // so that a call through `any TemplateModel` needs no cast.

    func templateText(at slot: Int) -> String? { Self.templateFields.text(at: slot, in: self) }
    func templateFlag(at slot: Int) -> Bool { Self.templateFields.flag(at: slot, in: self) }
    func templateInteger(at slot: Int) -> Int? { Self.templateFields.integer(at: slot, in: self) }
    func templateModel(at slot: Int) -> (any TemplateModel)? { Self.templateFields.model(at: slot, in: self) }
    func templateList(at slot: Int) -> TemplateList { Self.templateFields.list(at: slot, in: self) }
}

/// What a field holds, as the template compiler sees it.
enum TemplateFieldShape: @unchecked Sendable {
    /// A `String`.
    case text
    /// A `String?`.
    case optionalText
    /// A `Bool`: a section over it is a condition.
    case flag
    /// An `Int`, printed in decimal.
    case integer
    /// An `Int?`.
    case optionalInteger
    /// A nested model.
    case model(any TemplateModel.Type)
    /// A nested model that may be absent.
    case optionalModel(any TemplateModel.Type)
    /// An array of models: a section over it renders once per element.
    case models(any TemplateModel.Type)
    /// An array of strings: a section over it renders once per string, which `{{.}}` prints.
    case texts
    /// A type templates cannot read; the compiler reports a template that uses it.
    case unsupported(Any.Type)
}

/// The fields of a ``TemplateModel``: template names mapped to key paths of the model.
struct TemplateFields<Model>: Sendable, ExpressibleByDictionaryLiteral {
    /// How a field is read, decided once from its key path's value type.
    ///
    /// Unchecked because a conditional cast cannot name `Sendable`: every key path here is one
    /// the initialiser received as `& Sendable`, and the casts only narrow its static type.
    private enum Reader: @unchecked Sendable {
        case text(KeyPath<Model, String>)
        case optionalText(KeyPath<Model, String?>)
        case flag(KeyPath<Model, Bool>)
        case integer(KeyPath<Model, Int>)
        case optionalInteger(KeyPath<Model, Int?>)
        case model(@Sendable (Model) -> (any TemplateModel)?)
        case models(@Sendable (Model) -> TemplateList)
        case texts(KeyPath<Model, [String]>)
        case unsupported
    }

    private let readers: [Reader]
    private let shapes: [TemplateFieldShape]
    private let slots: [String: Int]

    /// Fields from a dictionary literal of names and key paths.
    ///
    /// A name listed twice keeps its last key path.
    init(dictionaryLiteral elements: (String, PartialKeyPath<Model> & Sendable)...) {
        var readers: [Reader] = []
        var shapes: [TemplateFieldShape] = []
        var slots: [String: Int] = [:]
        for (name, keyPath) in elements {
            let (reader, shape) = Self.reader(for: keyPath)
            if let slot = slots[name] {
                readers[slot] = reader
                shapes[slot] = shape
            } else {
                slots[name] = readers.count
                readers.append(reader)
                shapes.append(shape)
            }
        }
        self.readers = readers
        self.shapes = shapes
        self.slots = slots
    }

    private static func reader(for keyPath: PartialKeyPath<Model> & Sendable) -> (Reader, TemplateFieldShape) {
        if let path = keyPath as? KeyPath<Model, String> { return (.text(path), .text) }
        if let path = keyPath as? KeyPath<Model, String?> { return (.optionalText(path), .optionalText) }
        if let path = keyPath as? KeyPath<Model, Bool> { return (.flag(path), .flag) }
        if let path = keyPath as? KeyPath<Model, Int> { return (.integer(path), .integer) }
        if let path = keyPath as? KeyPath<Model, Int?> { return (.optionalInteger(path), .optionalInteger) }
        if let path = keyPath as? KeyPath<Model, [String]> { return (.texts(path), .texts) }
        let valueType = type(of: keyPath).valueType
        if let list = valueType as? any TemplateModelList.Type, let read = list.reader(keyPath) {
            return (.models(read), .models(list.elementType))
        }
        if let optional = valueType as? any OptionalTemplateModel.Type, let read = optional.reader(keyPath) {
            return (.model(read), .optionalModel(optional.wrappedType))
        }
        if let model = valueType as? any TemplateModel.Type, let read = model.reader(keyPath) {
            return (.model(read), .model(model))
        }
        return (.unsupported, .unsupported(valueType))
    }

    /// The names templates can use, sorted.
    var names: [String] {
        slots.keys.sorted()
    }

    /// The field called `name`, with its place in the list and its shape.
    func field(named name: String) -> (slot: Int, shape: TemplateFieldShape)? {
        slots[name].map { ($0, shapes[$0]) }
    }

    // The readers below are called only for a slot whose shape the compiler checked, so a
    // mismatch cannot happen; each still answers something harmless rather than trapping.

    func text(at slot: Int, in model: Model) -> String? {
        switch readers[slot] {
        case .text(let path): model[keyPath: path]
        case .optionalText(let path): model[keyPath: path]
        case .integer(let path): String(model[keyPath: path])
        case .optionalInteger(let path): model[keyPath: path].map { String($0) }
        case .flag(let path): String(model[keyPath: path])
        default: nil
        }
    }

    func flag(at slot: Int, in model: Model) -> Bool {
        guard case .flag(let path) = readers[slot] else { return false }
        return model[keyPath: path]
    }

    func integer(at slot: Int, in model: Model) -> Int? {
        switch readers[slot] {
        case .integer(let path): model[keyPath: path]
        case .optionalInteger(let path): model[keyPath: path]
        default: nil
        }
    }

    func model(at slot: Int, in model: Model) -> (any TemplateModel)? {
        guard case .model(let read) = readers[slot] else { return nil }
        return read(model)
    }

    /// The list in the field, read once: a computed list is computed once per section.
    func list(at slot: Int, in model: Model) -> TemplateList {
        switch readers[slot] {
        case .models(let read):
            return read(model)
        case .texts(let path):
            let texts = model[keyPath: path]
            return TemplateList(count: texts.count) { TemplateText(texts[$0]) }
        default:
            return TemplateList(count: 0) { _ in TemplateText("") }
        }
    }
}

/// A list field's elements as a section walks them.
struct TemplateList {
    /// How many elements there are.
    let count: Int
    /// The element at an index below ``count``.
    let element: (Int) -> any TemplateModel
}

/// A text value as the current model of a section: `{{.}}` prints it, and every other name is
/// looked up in the models around it.
struct TemplateText: TemplateModel, Hashable {
    /// The text.
    let text: String

    /// Wraps `text`.
    init(_ text: String) {
        self.text = text
    }

    var templateText: String? { text }

    static let templateFields: TemplateFields<Self> = [:]
}

// Registration only: how a key path's value type is recognised as models, once per field.

private protocol TemplateModelList {
    static var elementType: any TemplateModel.Type { get }
    static func reader<Model>(_ keyPath: PartialKeyPath<Model>) -> (@Sendable (Model) -> TemplateList)?
}

extension Array: TemplateModelList where Element: TemplateModel {
    fileprivate static var elementType: any TemplateModel.Type { Element.self }

    fileprivate static func reader<Model>(_ keyPath: PartialKeyPath<Model>) -> (@Sendable (Model) -> TemplateList)? {
        guard let path = keyPath as? KeyPath<Model, [Element]> else { return nil }
        let box = SendableKeyPath(path)
        return { model in
            let elements = model[keyPath: box.path]
            return TemplateList(count: elements.count) { elements[$0] }
        }
    }
}

private protocol OptionalTemplateModel {
    static var wrappedType: any TemplateModel.Type { get }
    static func reader<Model>(_ keyPath: PartialKeyPath<Model>) -> (@Sendable (Model) -> (any TemplateModel)?)?
}

extension Optional: OptionalTemplateModel where Wrapped: TemplateModel {
    fileprivate static var wrappedType: any TemplateModel.Type { Wrapped.self }

    fileprivate static func reader<Model>(_ keyPath: PartialKeyPath<Model>) -> (@Sendable (Model) -> (any TemplateModel)?)? {
        guard let path = keyPath as? KeyPath<Model, Wrapped?> else { return nil }
        let box = SendableKeyPath(path)
        return { $0[keyPath: box.path] }
    }
}

extension TemplateModel {
    fileprivate static func reader<Model>(_ keyPath: PartialKeyPath<Model>) -> (@Sendable (Model) -> (any TemplateModel)?)? {
        guard let path = keyPath as? KeyPath<Model, Self> else { return nil }
        let box = SendableKeyPath(path)
        return { $0[keyPath: box.path] }
    }
}

/// A key path that came in as `& Sendable` and lost the marker to a conditional cast.
private struct SendableKeyPath<Root, Value>: @unchecked Sendable {
    let path: KeyPath<Root, Value>
    init(_ path: KeyPath<Root, Value>) { self.path = path }
}
