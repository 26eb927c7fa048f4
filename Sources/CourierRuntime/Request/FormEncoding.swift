import Foundation

extension FormEncoder {
    /// How a form body (or a `deepObject` query parameter) spells nested objects and arrays.
    ///
    /// The defaults are the bracket style that Stripe, Rails and PHP read:
    /// `metadata[order_id]=6735`, `expand[]=customer`, and for an array of objects
    /// `items[0][price]=p_1`.
    public struct Style: Sendable, Hashable {
        /// How a field of a nested object is named.
        public enum Objects: Sendable, Hashable {
            /// `metadata[order_id]`.
            case brackets
            /// `metadata.order_id`.
            case dots
        }

        /// How the elements of an array are named.
        ///
        /// Whatever the style, an element that is itself an object or an array is named by its
        /// index (`items[0][price]`), because without one a server cannot tell which fields
        /// belong to the same element.
        public enum Arrays: Sendable, Hashable {
            /// `expand[]=a&expand[]=b`.
            case brackets
            /// `expand[0]=a&expand[1]=b`.
            case indexed
            /// `expand=a&expand=b`.
            case repeated
            /// `expand=a,b` (the comma is percent-encoded in a form body, as the form rules say).
            case comma
        }

        /// How nested objects are spelled; `.brackets` by default.
        public var objects: Objects
        /// How arrays are spelled; `.brackets` by default.
        public var arrays: Arrays

        /// Creates a style.
        public init(objects: Objects = .brackets, arrays: Arrays = .brackets) {
            self.objects = objects
            self.arrays = arrays
        }

        /// `metadata[order_id]=6735`, `expand[]=customer`, `items[0][price]=p_1`.
        public static let brackets = FormEncoder.Style()
    }
}

/// Turns an `Encodable` value into the ordered name/value pairs of an
/// `application/x-www-form-urlencoded` body, and serializes them.
///
/// Names follow the client's ``JSONCoding`` exactly as its JSON encoder does: a model's
/// `CodingKeys` (which carry the spec's wire names), converted to snake case when the key
/// style says so; the keys of a `[String: Value]` dictionary (Stripe's `metadata`) are never
/// converted, as `JSONEncoder` leaves them too, and they are written in sorted order, so that
/// a body is the same bytes on every run. Dates are spelled per the client's date format.
///
/// What each value becomes:
///
/// | Swift | Sent |
/// |---|---|
/// | `nil` optional | nothing: the field is left out |
/// | ``Nullable/null`` | the name with an empty value (`description=`), which is how form APIs such as Stripe's clear a field |
/// | empty array or object | nothing: the form format has no spelling for it |
/// | `Bool` | `true`/`false`, or `1`/`0` per ``QueryEncoding/BooleanStyle`` |
///
/// A key that itself contains `[`, `]` or `.` is sent as it is (percent-encoded), so a server
/// reads it as nesting: the format has no escape for them.
///
/// The work is linear in the size of the output: a field's name is built once, when its value
/// is written, from the chain of keys above it.
public struct FormEncoder: Sendable {
    /// Key style and date format, shared with the client's JSON coding.
    public var coding: JSONCoding
    /// How nested objects and arrays are spelled.
    public var style: FormEncoder.Style
    /// How booleans are spelled.
    public var booleans: QueryEncoding.BooleanStyle

    /// Creates an encoder.
    public init(coding: JSONCoding = JSONCoding(), style: FormEncoder.Style = .brackets, booleans: QueryEncoding.BooleanStyle = .literal) {
        self.coding = coding
        self.style = style
        self.booleans = booleans
    }

    /// The name/value pairs of `value`, in the order its `encode(to:)` writes them, before
    /// percent-encoding. A comma-style array is one pair whose value joins its elements with `,`.
    ///
    /// - Throws: `EncodingError.invalidValue` when `value` is not an object (a bare string or
    ///   array has no field names), or whatever `value`'s own `encode(to:)` throws.
    public func pairs<Value: Encodable>(_ value: Value) throws -> [(name: String, value: String)] {
        try collect(value, named: nil).map { ($0.name, $0.pieces.joined(separator: ",")) }
    }

    /// `value` as an `application/x-www-form-urlencoded` body, encoded per the WHATWG URL
    /// standard's serializer: only ASCII letters, digits and `*-._` are kept, a space becomes
    /// `+`, everything else (`[`, `]`, `&`, `=`, `+`, non-ASCII as UTF-8) is `%XX`.
    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        var bytes: [UInt8] = []
        for (index, pair) in try collect(value, named: nil).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            pair.write(into: &bytes, encoding: FormByteEncoding.form)
        }
        return Data(bytes)
    }

    /// The pairs of `value` under the name `name` (`name[field]=…`), for a `deepObject` query
    /// parameter; `value` may then also be a scalar or an array.
    func collect(_ value: any Encodable, named name: String?) throws -> [FormPair] {
        let storage = FormStorage(coding: coding, style: style, booleans: booleans)
        let root = FormNode(parent: nil, component: name.map(FormNode.Component.key))
        try storage.encode(value, at: root, element: nil)
        if let problem = storage.problem {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: problem))
        }
        return storage.pairs
    }
}

/// One field of a form: its name and its value, or for a comma-style array the elements,
/// each percent-encoded on its own and joined by a literal `,` in a query (`ids=1,2`).
struct FormPair {
    var name: String
    var pieces: [String]
    /// What joins the pieces: `,` for the form and query comma styles, a space or `|` for the
    /// query's delimited styles.
    var separator: String = ","

    func write(into bytes: inout [UInt8], encoding: FormByteEncoding) {
        encoding.append(name, to: &bytes)
        bytes.append(UInt8(ascii: "="))
        for (index, piece) in pieces.enumerated() {
            if index > 0 { encoding.appendSeparator(separator, to: &bytes) }
            encoding.append(piece, to: &bytes)
        }
    }
}

/// The two percent-encodings a field can need: the form body's (WHATWG) and the query's
/// (RFC 3986 unreserved characters kept, the rules the rest of the query string follows).
struct FormByteEncoding: Sendable {
    var keeps: @Sendable (UInt8) -> Bool
    var spaceAsPlus: Bool
    /// Whether a separator between a list's elements goes out literally (a query's
    /// `ids=1,2`) or percent-encoded like any other byte (a form body's value).
    var literalSeparators: Bool

    static let form = FormByteEncoding(keeps: isFormKept, spaceAsPlus: true, literalSeparators: false)
    static let query = FormByteEncoding(keeps: ParameterText.isUnreserved, spaceAsPlus: false, literalSeparators: true)

    /// What the WHATWG `application/x-www-form-urlencoded` serializer keeps: ASCII
    /// alphanumerics and `*`, `-`, `.`, `_`.
    static func isFormKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    func append(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            if keeps(byte) {
                bytes.append(byte)
            } else if byte == UInt8(ascii: " ") && spaceAsPlus {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// Only a comma goes out literally, in a query: a space or `|` is not allowed unencoded in
    /// a URL, and servers decode a value before they split it.
    func appendSeparator(_ separator: String, to bytes: inout [UInt8]) {
        if literalSeparators && separator == "," {
            bytes.append(contentsOf: separator.utf8)
        } else {
            append(separator, to: &bytes)
        }
    }
}

/// A position in the value being encoded: a key or an array index under its parent. Names
/// are built from this chain only when a value is written, so an object nested `d` deep costs
/// `d` once rather than a copy of its name at every level.
final class FormNode {
    enum Component {
        case key(String)
        case index(Int)
    }

    let parent: FormNode?
    let component: Component?

    init(parent: FormNode?, component: Component?) {
        self.parent = parent
        self.component = component
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: FormNode? = self
        while let current = node {
            switch current.component {
            case .key(let key)?: path.append(FormKey(stringValue: key))
            case .index(let index)?: path.append(FormKey(intValue: index))
            case nil: break
            }
            node = current.parent
        }
        return path.reversed()
    }
}

struct FormKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// What one array (unkeyed container) shares among its elements: how many there are, and for
/// the comma style the pair its scalar elements join.
final class FormArrayState {
    var count = 0
    var commaPair: Int?
}

/// `[String: Value]`, whose keys are data rather than coding keys: written sorted and never
/// converted to snake case, as `JSONEncoder` does.
protocol FormStringKeyedDictionary {
    var formEntries: [(key: String, value: any Encodable)] { get }
}

extension Dictionary: FormStringKeyedDictionary where Key == String, Value: Encodable {
    var formEntries: [(key: String, value: any Encodable)] {
        sorted { $0.key < $1.key }.map { ($0.key, $0.value as any Encodable) }
    }
}

/// The pairs written so far and the settings every container reads.
final class FormStorage {
    let coding: JSONCoding
    let style: FormEncoder.Style
    let booleans: QueryEncoding.BooleanStyle
    var pairs: [FormPair] = []
    /// The first value with no name to go under (a bare scalar or array at the top).
    var problem: String?
    private var snakeCaseKeys: [String: String] = [:]

    init(coding: JSONCoding, style: FormEncoder.Style, booleans: QueryEncoding.BooleanStyle) {
        self.coding = coding
        self.style = style
        self.booleans = booleans
    }

    /// A coding key as the JSON encoder would write it.
    func name(ofKey key: String) -> String {
        guard coding.keyStyle == .snakeCase else { return key }
        if let known = snakeCaseKeys[key] { return known }
        let converted = Self.snakeCase(key)
        snakeCaseKeys[key] = converted
        return converted
    }

    /// Writes a leaf: `value` (`nil` for an explicit null, sent empty) at `node`, an element
    /// of `element`'s array when `node` is an array index.
    func write(_ value: String?, at node: FormNode, element: FormArrayState?) {
        guard node.component != nil else {
            problem = problem ?? "A form body is a set of named fields; a bare value has no name to be sent under. Send a model."
            return
        }
        let text = value ?? ""
        if let element, style.arrays == .comma {
            if let index = element.commaPair {
                pairs[index].pieces.append(text)
            } else {
                element.commaPair = pairs.count
                pairs.append(FormPair(name: fieldName(of: node, isLeafElement: true), pieces: [text]))
            }
            return
        }
        pairs.append(FormPair(name: fieldName(of: node, isLeafElement: element != nil), pieces: [text]))
    }

    /// The field name of `node`: its chain of keys, the first bare and the rest in the
    /// object style; an index in the array style when it names a scalar element, else `[i]`.
    func fieldName(of node: FormNode, isLeafElement: Bool) -> String {
        var components: [FormNode.Component] = []
        var current: FormNode? = node
        while let this = current {
            if let component = this.component { components.append(component) }
            current = this.parent
        }
        var name = ""
        for (position, component) in components.reversed().enumerated() {
            switch component {
            case .key(let key):
                if position == 0 {
                    name += key
                } else if style.objects == .dots {
                    name += "." + key
                } else {
                    name += "[" + key + "]"
                }
            case .index(let index):
                if position == components.count - 1 && isLeafElement {
                    switch style.arrays {
                    case .brackets: name += "[]"
                    case .indexed: name += "[\(index)]"
                    case .repeated, .comma: break
                    }
                } else {
                    name += "[\(index)]"
                }
            }
        }
        return name
    }

    /// Writes any value at `node`: scalars directly, string-keyed dictionaries sorted and
    /// unconverted, everything else through its own `encode(to:)`.
    func encode(_ value: any Encodable, at node: FormNode, element: FormArrayState?) throws {
        if let text = scalarText(value) {
            write(text, at: node, element: element)
        } else if let dictionary = value as? any FormStringKeyedDictionary {
            for entry in dictionary.formEntries {
                try encode(entry.value, at: FormNode(parent: node, component: .key(entry.key)), element: nil)
            }
        } else {
            try value.encode(to: FormValueEncoder(storage: self, node: node, element: element))
        }
    }

    /// The text of a value that is one field, or `nil` for an object or array. Foundation types
    /// whose `Encodable` form is not their text (dates, decimals, URLs, data) are spelled as the
    /// client's JSON encoder spells them.
    func scalarText(_ value: any Encodable) -> String? {
        switch value {
        case let text as String: text
        case let flag as Bool: boolText(flag)
        case let number as Int: String(number)
        case let number as Int64: String(number)
        case let number as Int32: String(number)
        case let number as Double: ParameterText.scalarText(.number(number), coding: coding, booleans: booleans)
        case let number as Float: ParameterText.scalarText(.number(Double(number)), coding: coding, booleans: booleans)
        case let date as Date: coding.string(from: date)
        case let decimal as Decimal: decimal.description
        case let url as URL: url.absoluteString
        case let uuid as UUID: uuid.uuidString
        case let data as Data: data.base64EncodedString()
        case let number as any BinaryInteger: String(describing: number)
        default: nil
        }
    }

    func boolText(_ flag: Bool) -> String {
        booleans == .numeric ? (flag ? "1" : "0") : (flag ? "true" : "false")
    }

    /// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`, word for word: words start at an
    /// uppercase letter, a run of capitals is one word up to its last capital before a
    /// lowercase letter (`URLValue` → `u_rl_value` as Foundation writes it), everything is
    /// lowercased and joined by `_`. A test checks it against `JSONEncoder`.
    static func snakeCase(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        guard !scalars.isEmpty else { return key }
        func isUpper(_ index: Int) -> Bool { scalars[index].properties.isUppercase }
        func isLower(_ index: Int) -> Bool { scalars[index].properties.isLowercase }
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        let end = scalars.count
        while let upper = (searchStart..<end).first(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<end).first(where: isLower) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(wordStart..<end)
        return words.map { range in
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[range])
            return String(word).lowercased()
        }.joined(separator: "_")
    }
}

/// The `Encoder` a value's `encode(to:)` writes to, at one position.
struct FormValueEncoder: Encoder {
    let storage: FormStorage
    let node: FormNode
    /// The array `node` is an element of, if it is one.
    let element: FormArrayState?

    var codingPath: [any CodingKey] { node.codingPath }
    /// Marks a request: form fields are only ever sent, so read-only properties stay out.
    var userInfo: [CodingUserInfoKey: Any] { [RequestEncoding.userInfoKey: true] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FormKeyedContainer<Key>(storage: storage, node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.component == nil {
            storage.problem = storage.problem ?? "A form body is a set of named fields; an array has no name to be sent under. Send a model."
        }
        return FormUnkeyedContainer(storage: storage, node: node, state: FormArrayState())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(storage: storage, node: node, element: element)
    }
}

struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: FormStorage
    let node: FormNode

    var codingPath: [any CodingKey] { node.codingPath }

    private func child(_ key: Key) -> FormNode {
        FormNode(parent: node, component: .key(storage.name(ofKey: key.stringValue)))
    }

    mutating func encodeNil(forKey key: Key) throws {
        storage.write(nil, at: child(key), element: nil)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        storage.write(storage.boolText(value), at: child(key), element: nil)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        storage.write(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try storage.encode(value, at: child(key), element: nil)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FormKeyedContainer<NestedKey>(storage: storage, node: child(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FormUnkeyedContainer(storage: storage, node: child(key), state: FormArrayState())
    }

    mutating func superEncoder() -> any Encoder {
        FormValueEncoder(storage: storage, node: FormNode(parent: node, component: .key("super")), element: nil)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        FormValueEncoder(storage: storage, node: child(key), element: nil)
    }
}

struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let storage: FormStorage
    let node: FormNode
    let state: FormArrayState

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { state.count }

    private func nextElement() -> FormNode {
        defer { state.count += 1 }
        return FormNode(parent: node, component: .index(state.count))
    }

    mutating func encodeNil() throws {
        storage.write(nil, at: nextElement(), element: state)
    }

    mutating func encode(_ value: String) throws {
        storage.write(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: Bool) throws {
        storage.write(storage.boolText(value), at: nextElement(), element: state)
    }

    mutating func encode(_ value: Double) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: Float) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: Int) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: Int8) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: Int16) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: Int32) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: Int64) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: UInt) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: UInt8) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: UInt16) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: UInt32) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode(_ value: UInt64) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try storage.encode(value, at: nextElement(), element: state)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FormKeyedContainer<NestedKey>(storage: storage, node: nextElement()))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        FormUnkeyedContainer(storage: storage, node: nextElement(), state: FormArrayState())
    }

    mutating func superEncoder() -> any Encoder {
        FormValueEncoder(storage: storage, node: nextElement(), element: state)
    }
}

struct FormSingleValueContainer: SingleValueEncodingContainer {
    let storage: FormStorage
    let node: FormNode
    let element: FormArrayState?

    var codingPath: [any CodingKey] { node.codingPath }

    mutating func encodeNil() throws {
        storage.write(nil, at: node, element: element)
    }

    mutating func encode(_ value: Bool) throws {
        storage.write(storage.boolText(value), at: node, element: element)
    }

    mutating func encode(_ value: String) throws {
        storage.write(value, at: node, element: element)
    }

    mutating func encode(_ value: Double) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: Float) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: Int) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: Int8) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: Int16) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: Int32) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: Int64) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: UInt) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: UInt8) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: UInt16) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: UInt32) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode(_ value: UInt64) throws {
        try storage.encode(value, at: node, element: element)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try storage.encode(value, at: node, element: element)
    }
}
