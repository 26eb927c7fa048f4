import Mustache

/// A view model that templates read by name, without reflection.
///
/// swift-mustache finds a value either through `MustacheParent.child(named:)` or, for any other
/// type, by walking a `Mirror` of the value on every lookup; reflection on plain structs was
/// measured about 4x slower for this workload (issue 5), so every view model conforms to this
/// protocol instead. A conforming type lists its fields once, as key paths, which keeps the
/// lookup a dictionary access and lets the compiler check every field:
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
/// A field that is `nil` renders as nothing: `{{documentation}}` is empty,
/// `{{#documentation}}...{{/documentation}}` is skipped and `{{^documentation}}` is taken. It does
/// not fall through to a field of the same name in an enclosing model, as a missing name does in
/// mustache, so a property without documentation never shows its type's. Names a model does not
/// list do fall through, which is how a section over `properties` can still read the enclosing
/// model's `typeName`. Arrays of models render as sections, one pass per element.
protocol TemplateModel: MustacheParent, Sendable {
    /// The fields templates can read, by the name templates use.
    static var templateFields: TemplateFields<Self> { get }
}

extension TemplateModel {
    /// The value of the field called `name`, or `nil` so that swift-mustache looks further up the
    /// context stack.
    func child(named name: String) -> Any? {
        Self.templateFields.value(named: name, in: self)
    }
}

/// The fields of a ``TemplateModel``: template names mapped to key paths of the model.
struct TemplateFields<Model>: Sendable, ExpressibleByDictionaryLiteral {
    /// How a field is read, decided once from its key path's value type, so that a lookup
    /// needs no dynamic cast on the way out.
    ///
    /// Unchecked because a conditional cast cannot name `Sendable`: every key path here is one
    /// the initialiser received as `& Sendable`, and the casts only narrow its static type.
    private enum Field: @unchecked Sendable {
        /// A `String`, handed over as ``TemplateText``; most fields are.
        case text(KeyPath<Model, String>)
        /// A `String?`.
        case optionalText(KeyPath<Model, String?>)
        /// Anything else, and whether its type is an `Optional`.
        case value(PartialKeyPath<Model> & Sendable, isOptional: Bool)
    }

    private let fields: [String: Field]

    /// Fields from a dictionary literal of names and key paths.
    ///
    /// A name listed twice keeps its last key path.
    init(dictionaryLiteral elements: (String, PartialKeyPath<Model> & Sendable)...) {
        self.fields = Dictionary(elements.map { name, keyPath in
            let field: Field
            if let text = keyPath as? KeyPath<Model, String> {
                field = .text(text)
            } else if let text = keyPath as? KeyPath<Model, String?> {
                field = .optionalText(text)
            } else {
                field = .value(keyPath, isOptional: type(of: keyPath).valueType is any OptionalValue.Type)
            }
            return (name, field)
        }) { _, last in last }
    }

    /// The names templates can use, sorted.
    var names: [String] {
        fields.keys.sorted()
    }

    /// The value of the field `name` in `model`: `nil` when the model has no such field, a null
    /// value that renders as nothing when the field is a `nil` optional, a ``TemplateText``
    /// for text, otherwise the value (unwrapped when optional).
    func value(named name: String, in model: Model) -> Any? {
        switch fields[name] {
        case nil:
            return nil
        case .text(let keyPath):
            return TemplateText(model[keyPath: keyPath])
        case .optionalText(let keyPath):
            return model[keyPath: keyPath].map(TemplateText.init) ?? NullValue()
        case .value(let keyPath, let isOptional):
            let value = model[keyPath: keyPath]
            if isOptional, let optional = value as? any OptionalValue {
                return optional.wrappedValue ?? NullValue()
            }
            return value
        }
    }
}

/// A text field as swift-mustache is handed it.
///
/// A plain `String` in an `Any` goes through four failing protocol casts and
/// `String(describing:)` every time a template prints it, the largest single cost of rendering;
/// this type is caught by the second cast and printed as it is. It renders, transforms
/// (`{{uppercased(name)}}` in a user's template) and opens sections exactly as the string would.
struct TemplateText: MustacheCustomRenderable, MustacheParent, MustacheTransformable, Sendable, Hashable {
    /// The text.
    let text: String

    /// Wraps `text`.
    init(_ text: String) {
        self.text = text
    }

    /// The text, printed as it is (templates declare the text content type, so nothing is escaped).
    var renderText: String { text }

    /// Never null: an empty string still opens a section, as a `String` does.
    var isNull: Bool { false }

    /// Nothing: inside `{{#text}}…{{/text}}` other names are looked up in the enclosing models,
    /// as they are around a `String`, without reflecting on this wrapper.
    func child(named name: String) -> Any? { nil }

    /// swift-mustache's string transforms (`uppercased`, `empty`, …).
    func transform(_ name: String) -> Any? {
        text.transform(name)
    }
}

/// A field that is present but `nil`: renders as nothing and, unlike a missing name, stops
/// swift-mustache from looking for the name in enclosing models.
struct NullValue: MustacheCustomRenderable, Sendable {
    var renderText: String { "" }
    var isNull: Bool { true }
}

/// Lets ``TemplateFields`` see through an `Optional` held in an `Any`.
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? {
        // Nested optionals flatten fully, so `String??.some(nil)` is missing as well.
        switch self {
        case .some(let wrapped as any OptionalValue): wrapped.wrappedValue
        case .some(let wrapped): wrapped
        case .none: nil
        }
    }
}
