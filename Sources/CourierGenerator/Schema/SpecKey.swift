/// One key of a mapping in the spec or overlay format, as the parser accepts it and the JSON
/// Schema describes it: both are made from ``SpecShape``'s table, so they cannot disagree.
struct SpecKey: Sendable {
    /// The key as written.
    let name: String
    /// What the key means: the schema's `description`, shown by an editor on hover and completion.
    let summary: String
    /// What its value may be.
    let value: SpecValue
    /// The value the parser assumes when the key is missing, if there is one fixed value.
    let defaultValue: JSONValue?
    /// Whether the parser reports the mapping when the key is missing.
    let isRequired: Bool

    init(_ name: String, _ summary: String, _ value: SpecValue, default defaultValue: JSONValue? = nil, required isRequired: Bool = false) {
        self.name = name
        self.summary = summary
        self.value = value
        self.defaultValue = defaultValue
        self.isRequired = isRequired
    }
}

/// The shape of a value in the spec format, as loose as the parser: every scalar is read as text
/// first, so `timeout: "20"` is as good as `timeout: 20`, and the schema accepts both.
indirect enum SpecValue: Sendable {
    /// Any scalar, read as text: a name, a description, a header value.
    case text
    /// A type expression: `String`, `[Book]`, `[String: Int]?`, a model's name.
    case type
    /// An absolute `http` or `https` URL.
    case url
    /// One of these words.
    case choice([String])
    /// `true` or `false`.
    case flag
    /// A whole number in the range.
    case whole(ClosedRange<Int>)
    /// A number of seconds, greater than zero or (when `allowingZero`) zero or more.
    case seconds(allowingZero: Bool)
    /// A number greater than 0 and at most 1.
    case fraction
    /// Exactly this scalar: `external`, `link`, `false`.
    case word(String)
    /// A mapping with the fixed keys of a shape.
    case shape(SpecShape)
    /// A mapping whose keys are names the author chooses (models, endpoints, statuses).
    case names(SpecNames, SpecValue)
    /// A list.
    case list(SpecValue)
    /// One value, or a list of them.
    case oneOrList(SpecValue)
    /// Any of these.
    case either([SpecValue])
}

/// The keys of a mapping whose keys are names, such as the statuses of `errors:`.
struct SpecNames: Sendable {
    /// What a key is, for the schema's description.
    let summary: String
    /// A pattern every key the parser accepts matches; `nil` when any key is accepted.
    let pattern: String?
    /// Keys that make the mapping another shape (a model with `enum:` is not a list of properties).
    let excluded: [String]
    /// A key the parser accepts here, for examples and tests.
    let example: String

    init(_ summary: String, pattern: String? = nil, excluding excluded: [String] = [], example: String) {
        self.summary = summary
        self.pattern = pattern
        self.excluded = excluded
        self.example = example
    }

    static let model = SpecNames("a model's name, its Swift type name", example: "Book")
    static let errorSchema = SpecNames("an error schema's name, its Swift type name", example: "Problem")
    static let endpoint = SpecNames("an endpoint's name, its Swift method name", example: "getBook")
    static let property = SpecNames("a property's name", example: "title")
    static let parameter = SpecNames("a parameter's name", example: "id")
    static let header = SpecNames("an HTTP header field name", pattern: "^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$", example: "X-Request-Id")
    static let scheme = SpecNames("an auth scheme's name", example: "bot")
    static let file = SpecNames("a file part's name", example: "photo")
    /// The statuses of `errors:`: 400…599, `4XX`, `5XX` and `default`, and, with `when:`,
    /// 200…299 or `2XX` (any case of the X).
    static let errorStatus = SpecNames("a status 400…599, 4XX, 5XX or default (200…299 or 2XX with 'when')",
                                       pattern: "^(default|[245][0-9][0-9]|[245][xX][xX])$", example: "404")
    static let discriminatorValue = SpecNames("a value the discriminator may have", example: "not_found")
    static let operation = SpecNames("an OpenAPI operationId", example: "getPet")
    static let schemaName = SpecNames("an OpenAPI component schema's name", example: "Pet")
}

extension SpecValue {
    /// `true` or `false`, or a mapping of the shape: what `retry:` and `breaker:` take.
    static func disabledOr(_ shape: SpecShape) -> SpecValue { .either([.word("false"), .shape(shape)]) }

    /// A model's properties: names to a type, or to a mapping with the type and its options.
    static let properties = SpecValue.names(.property, .either([.type, .shape(.property)]))

    /// Error mappings, by status.
    static let errorMappings = SpecValue.names(.errorStatus, .either([.text, .shape(.errorMapping)]))

    /// An error case: its name, or a mapping with the name and what the case means.
    static let errorCase = SpecValue.either([.text, .shape(.errorCase)])

    /// A header field's name.
    static let headerName = SpecValue.text

    /// A body's media type: the type alone, or `{ type:, coding: }` for a vendor type that is JSON.
    static let mediaType = SpecValue.either([.text, .shape(.mediaType)])

    /// A path to a field of a JSON body, such as `error.code` or `errors[0].code`.
    static let fieldPath = SpecValue.text
}
