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
public protocol TemplateModel: MustacheParent, Sendable {
    /// The fields templates can read, by the name templates use.
    static var templateFields: TemplateFields<Self> { get }
}

extension TemplateModel {
    /// The value of the field called `name`, or `nil` so that swift-mustache looks further up the
    /// context stack.
    public func child(named name: String) -> Any? {
        Self.templateFields.value(named: name, in: self)
    }
}

/// The fields of a ``TemplateModel``: template names mapped to key paths of the model.
public struct TemplateFields<Model>: Sendable, ExpressibleByDictionaryLiteral {
    /// A field's key path, and whether its value type is an `Optional`, decided once here so
    /// that a lookup of a non-optional field (most of them) needs no dynamic cast.
    private struct Field: Sendable {
        let keyPath: PartialKeyPath<Model> & Sendable
        let isOptional: Bool
    }

    private let fields: [String: Field]

    /// Fields from a dictionary literal of names and key paths.
    ///
    /// A name listed twice keeps its last key path.
    public init(dictionaryLiteral elements: (String, PartialKeyPath<Model> & Sendable)...) {
        self.fields = Dictionary(elements.map { name, keyPath in
            (name, Field(keyPath: keyPath, isOptional: type(of: keyPath).valueType is any OptionalValue.Type))
        }) { _, last in last }
    }

    /// The names templates can use, sorted.
    public var names: [String] {
        fields.keys.sorted()
    }

    /// The value of the field `name` in `model`: `nil` when the model has no such field, a null
    /// value that renders as nothing when the field is a `nil` optional, otherwise the value
    /// (unwrapped when optional).
    public func value(named name: String, in model: Model) -> Any? {
        guard let field = fields[name] else { return nil }
        let value = model[keyPath: field.keyPath]
        if field.isOptional, let optional = value as? any OptionalValue {
            return optional.wrappedValue ?? NullValue()
        }
        return value
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
