/// How one status (or range of statuses) of a failed response turns into a named error case.
struct ErrorMappingSpec: Hashable, Sendable, SourceLocated {
    /// The statuses a mapping applies to.
    var status: StatusMatcher
    /// The error schema the body is decoded as, by spec name; `nil` when the body is not decoded.
    var bodySchema: String?
    /// Which error case the response becomes.
    var outcome: Outcome
    /// The documentation, if any.
    var description: String?
    /// Whether the mapping comes from the service's `defaults.errors` rather than the endpoint.
    var isInherited: Bool
    /// Where the status key is written.
    var location: SourceLocation
    /// Tests checked in order before ``outcome``; the first that holds selects its case.
    var conditions: [ErrorConditionSpec] = []
    /// For a success status only: the test that makes a success response a failure (Slack's
    /// `ok: false`). `nil` for failed statuses.
    var when: PredicateSpec? = nil

    /// Whether this mapping turns some success responses into failures.
    var isSuccessMapping: Bool { status.isSuccess }

    /// Which error case a matched response becomes.
    ///
    /// Indirect, so that the case (about 200 bytes inline) is stored once and shared by every
    /// copy: each endpoint's ``EndpointSpec/effectiveErrors`` copies its own mappings and the
    /// service's defaults, which at 1,000 endpoints held 2.5 MB of copies.
    indirect enum Outcome: Hashable, Sendable {
        /// Always the same case.
        case single(ErrorCaseSpec)
        /// A case chosen by a body field or header value, with a fallback for unlisted values.
        case discriminated(DiscriminatorSpec)
    }

    /// Creates a mapping.
    init(status: StatusMatcher, bodySchema: String? = nil, outcome: Outcome, description: String? = nil,
                isInherited: Bool = false, location: SourceLocation) {
        self.status = status
        self.bodySchema = bodySchema
        self.outcome = outcome
        self.description = description
        self.isInherited = isInherited
        self.location = location
    }

    /// Every case the mapping can produce: the conditions' cases, then the single case, or the
    /// discriminated cases (nested ones in place) then the fallback.
    var allCases: [ErrorCaseSpec] {
        let outcomeCases = switch outcome {
        case .single(let errorCase): [errorCase]
        case .discriminated(let discriminator): discriminator.allCases
        }
        return conditions.map(\.errorCase) + outcomeCases
    }
}

/// The statuses an error mapping applies to. Sorts from most to least specific.
enum StatusMatcher: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// One status, such as 404.
    case exact(Int)
    /// Every status of a class: `4XX` is `.range(4)`, `5XX` is `.range(5)`.
    case range(Int)
    /// Every failed status not matched otherwise.
    case `default`

    /// Whether the statuses are success statuses (`200`, `2XX`), mapped only with `when:`.
    var isSuccess: Bool {
        switch self {
        case .exact(let status): (200...299).contains(status)
        case .range(let hundreds): hundreds == 2
        case .default: false
        }
    }

    /// The key as written in a spec: `404`, `4XX` or `default`.
    var description: String {
        switch self {
        case .exact(let status): String(status)
        case .range(let hundreds): "\(hundreds)XX"
        case .default: "default"
        }
    }

    /// Whether `status` is matched.
    func matches(_ status: Int) -> Bool {
        switch self {
        case .exact(let expected): status == expected
        case .range(let hundreds): status / 100 == hundreds
        case .default: true
        }
    }

    private var sortKey: (Int, Int) {
        switch self {
        case .exact(let status): (0, status)
        case .range(let hundreds): (1, hundreds)
        case .default: (2, 0)
        }
    }

    /// Exact statuses first, then ranges, then `default`; numerically within each.
    static func < (lhs: StatusMatcher, rhs: StatusMatcher) -> Bool { lhs.sortKey < rhs.sortKey }
}

/// A named error case of an endpoint's error enum.
struct ErrorCaseSpec: Hashable, Sendable, SourceLocated {
    /// The case name as written in the spec.
    var name: String
    /// The Swift case name (lowerCamelCase).
    var swiftName: SwiftIdentifier
    /// The error schema the case carries, by spec name, if the body is decoded.
    var bodySchema: String?
    /// A message meant for end users, if the spec gives one: the fixed text of `message: "…"`,
    /// or the `fallback` of `message: { field:, fallback:, key: }`.
    var message: String?
    /// The body field whose text is the user message when the server sends one
    /// (`message: { field: … }`); shown before ``message``.
    var messageField: FieldPath?
    /// The localization key of ``message`` (`message: { key: … }`), looked up in the app's
    /// main bundle with ``message`` as the default value.
    var messageKey: String?
    /// Whether the failure is worth repeating, when the spec says (`retryable: true|false`);
    /// `nil` leaves it to the status rule.
    var retryable: Bool?
    /// The documentation, if any.
    var description: String?
    /// Where the case name is written.
    var location: SourceLocation

    /// Whether this use of the case gives a message: a text, a body field, or both.
    var givesMessage: Bool { message != nil || messageField != nil || messageKey != nil }

    /// Creates an error case.
    init(name: String, swiftName: SwiftIdentifier? = nil, bodySchema: String? = nil, message: String? = nil,
                messageField: FieldPath? = nil, messageKey: String? = nil, retryable: Bool? = nil,
                description: String? = nil, location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName ?? SwiftIdentifier(memberNamed: name)
        self.bodySchema = bodySchema
        self.message = message
        self.messageField = messageField
        self.messageKey = messageKey
        self.retryable = retryable
        self.description = description
        self.location = location
    }
}

/// Chooses an error case by a value in the response.
struct DiscriminatorSpec: Hashable, Sendable, SourceLocated {
    /// Where the discriminating value is read.
    enum Source: Hashable, Sendable, CustomStringConvertible {
        /// A string field of the JSON body, such as `code`, `error.code` or `errors[0].code`.
        case bodyField(FieldPath)
        /// A response header, matched case-insensitively by name.
        case header(String)

        /// The source as written in the spec.
        var description: String {
            switch self {
            case .bodyField(let path): path.description
            case .header(let name): "header \(name)"
            }
        }
    }

    /// One listed value and the case it selects.
    struct Case: Hashable, Sendable {
        /// The value compared with the field or header, as written (normalized for its type once validated).
        var value: String
        /// The case selected; for a nested discriminator, the nested one's fallback.
        var errorCase: ErrorCaseSpec
        /// Where the value is written; `nil` for cases built in code.
        var valueLocation: SourceLocation? = nil
        /// A discriminator on another field that chooses among this value's cases (Stripe's
        /// `error.code` within `error.type: card_error`); an array of none or one, for indirection.
        private var nestedStorage: [DiscriminatorSpec] = []

        /// The nested discriminator, if this value discriminates further.
        var nested: DiscriminatorSpec? {
            get { nestedStorage.first }
            set { nestedStorage = newValue.map { [$0] } ?? [] }
        }

        /// Creates a value-to-case entry.
        init(value: String, errorCase: ErrorCaseSpec) {
            self.value = value
            self.errorCase = errorCase
        }

        /// Creates a value whose cases another discriminator chooses.
        init(value: String, nested: DiscriminatorSpec, valueLocation: SourceLocation?) {
            self.value = value
            self.errorCase = nested.fallback
            self.valueLocation = valueLocation
            self.nested = nested
        }
    }

    /// Where the value is read.
    var source: Source
    /// The listed values, in declaration order.
    var cases: [Case]
    /// The case for values not listed, a missing field or header, or an undecodable body.
    var fallback: ErrorCaseSpec
    /// Where `discriminator:` is written.
    var location: SourceLocation
    /// The type the values are compared as, from the field's declared type once validated.
    var valueKind: ScalarKind = .string

    /// This discriminator with every case, nested ones included, carrying `schema` as its body:
    /// an overlay's mapping that names no body takes the one the document gave its status.
    func carrying(_ schema: String) -> DiscriminatorSpec {
        var copy = self
        copy.fallback.bodySchema = schema
        for index in copy.cases.indices {
            copy.cases[index].errorCase.bodySchema = schema
            if let nested = copy.cases[index].nested { copy.cases[index].nested = nested.carrying(schema) }
        }
        return copy
    }

    /// Every case this discriminator can produce, nested ones in place, then the fallback.
    var allCases: [ErrorCaseSpec] {
        cases.flatMap { entry in entry.nested?.allCases ?? [entry.errorCase] } + [fallback]
    }

    /// Whether this discriminator needs more than v1's string switch: nesting or typed values.
    var isCompound: Bool {
        valueKind == .double || cases.contains { $0.nested != nil }
    }

    /// Creates a discriminator.
    init(source: Source, cases: [Case], fallback: ErrorCaseSpec, location: SourceLocation) {
        self.source = source
        self.cases = cases
        self.fallback = fallback
        self.location = location
    }
}

/// A path to a field inside a JSON body: `code`, `error.code`, `errors[0].code`.
struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    /// One step of a path.
    enum Component: Hashable, Sendable {
        /// An object member.
        case key(String)
        /// An array element, counted from 0.
        case index(Int)
    }

    /// The steps, from the body's root.
    var components: [Component]

    /// Creates a path from its steps.
    init(components: [Component]) {
        self.components = components
    }

    /// The path in spec syntax.
    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
