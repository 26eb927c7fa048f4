// View models only: see FileModels.swift for what the templates may assume of them.

/// `<Prefix>Errors.swift`: the service's shared failure enum, if an endpoint uses it, then the
/// endpoints' own failure enums, then the aliases of those that share one.
struct ErrorsFileModel: TemplateModel {
    /// The generator version.
    var version: String
    /// The spec path.
    var specPath: String
    /// The access level of every declaration: `public`, `package` or `internal`.
    var access = "public"
    /// The shared failure enum first, if any, then the endpoints' own enums, then the aliases of
    /// the endpoints that share one, each in endpoint order.
    var failures: [FailureModel]
    /// Whether some mapping unwraps an envelope, which needs the `unwrapped` helper.
    var needsUnwrap: Bool

    /// The fields the `errors` template reads.
    static let templateFields: TemplateFields<Self> = [
        "access": \.access, "version": \.version, "specPath": \.specPath, "failures": \.failures, "needsUnwrap": \.needsUnwrap,
    ]
}

/// A failure enum, or an endpoint's alias of the shared one.
struct FailureModel: TemplateModel, Hashable {
    /// The doc comment.
    var doc: String
    /// The type name.
    var name: String
    /// The cases, in first-use order.
    var cases: [FailureCaseModel]
    /// The status branches of `map(_:)`, exact codes, then ranges, then `default`.
    var branches: [StatusBranchModel]
    /// Whether no branch is `default`, so `map(_:)` needs `default: return nil`.
    var needsNilDefault: Bool
    /// The branches of `errorDescription`, one per case.
    var descriptions: [DescriptionModel]
    /// The branches of `isRetryable`, for the cases whose spec says; empty when none does.
    var retryables: [RetryableModel]
    /// Whether some cases do not say, so `isRetryable` needs `default: nil`.
    var needsRetryableDefault: Bool
    /// The enum this name stands for, when the endpoint documents only the service's defaults
    /// or the same failures as an earlier endpoint; the other fields are then empty.
    var aliasOf: String? = nil
    /// Whether `map(_:)` takes an error object out of an envelope, with the errors file's
    /// `unwrapped` helper.
    var usesUnwrap = false
    /// The body of `mapSuccess(_:)`, when some mapping turns success responses into failures;
    /// `nil` keeps the protocol's default, which reads nothing.
    var successCode: String? = nil
    /// Whether this alias directly follows another in its file, so that a run of aliases
    /// reads as one block.
    var continuesAliases = false

    /// The fields the `errors` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "cases": \.cases, "branches": \.branches,
        "hasBranches": \.hasBranches, "needsNilDefault": \.needsNilDefault, "descriptions": \.descriptions,
        "hasDescriptions": \.hasDescriptions, "retryables": \.retryables, "hasRetryables": \.hasRetryables,
        "needsRetryableDefault": \.needsRetryableDefault, "aliasOf": \.aliasOf,
        "successCode": \.successCode, "continuesAliases": \.continuesAliases,
    ]

    /// Whether `map(_:)` maps any status.
    var hasBranches: Bool { !branches.isEmpty }
    /// Whether the enum has cases to describe.
    var hasDescriptions: Bool { !descriptions.isEmpty }
    /// Whether some case says whether it is worth repeating.
    var hasRetryables: Bool { !retryables.isEmpty }
}

/// One case of a failure enum.
struct FailureCaseModel: TemplateModel, Hashable {
    /// The doc comment, indented for a member.
    var doc: String
    /// The case name, escaped, such as `notFound`.
    var name: String
    /// The type of the case's associated value, such as `ErrorBody<GitHubError>`, when the
    /// failure has a body.
    var payloadType: String?

    /// The fields the `errors` template reads.
    static let templateFields: TemplateFields<Self> = ["doc": \.doc, "name": \.name, "payloadType": \.payloadType]
}

/// One `case` of the status switch in `map(_:)`.
struct StatusBranchModel: TemplateModel, Hashable {
    /// The exact status this branch matches, such as `404`.
    var status: String?
    /// The first status of the range this branch matches, such as `500`.
    var lowerBound: String?
    /// The last status of that range, such as `599`.
    var upperBound: String?
    /// Whether this is the `default` branch.
    var isDefault: Bool
    /// The value for a single-case mapping.
    var single: String?
    /// The discriminator subject, such as `response.discriminator(at: "code")`.
    var subject: String?
    /// The listed discriminator values.
    var values: [DiscriminatorValueModel]
    /// The value for anything not listed.
    var fallback: String?
    /// Statements (conditions, nested or typed discriminators), already indented, that replace
    /// `single` and `subject`.
    var code: String? = nil

    /// The fields the `errors` template reads.
    static let templateFields: TemplateFields<Self> = [
        "status": \.status, "lowerBound": \.lowerBound, "upperBound": \.upperBound, "isDefault": \.isDefault,
        "single": \.single, "subject": \.subject, "values": \.values, "fallback": \.fallback,
        "code": \.code,
    ]
}

/// One listed discriminator value.
struct DiscriminatorValueModel: TemplateModel, Hashable {
    /// The value as a string literal.
    var literal: String
    /// The case expression.
    var value: String

    /// The fields the `errors` template reads.
    static let templateFields: TemplateFields<Self> = ["literal": \.literal, "value": \.value]
}

extension FailureModel {
    /// `name`, an alias of the enum `target`.
    static func alias(_ name: String, of target: String, doc: String) -> FailureModel {
        FailureModel(doc: SwiftComment.documentation(doc), name: name, cases: [], branches: [], needsNilDefault: false,
                     descriptions: [], retryables: [], needsRetryableDefault: false, aliasOf: target)
    }
}
