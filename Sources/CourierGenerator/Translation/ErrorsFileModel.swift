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
    /// The status branches of `mapSuccess(_:)`, when some mapping turns success responses into
    /// failures; none keeps the protocol's default, which reads nothing.
    var successBranches: [StatusBranchModel] = []
    /// Whether this alias directly follows another in its file, so that a run of aliases
    /// reads as one block.
    var continuesAliases = false

    /// The fields the `errors` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "cases": \.cases, "branches": \.branches,
        "hasBranches": \.hasBranches, "needsNilDefault": \.needsNilDefault, "descriptions": \.descriptions,
        "hasDescriptions": \.hasDescriptions, "retryables": \.retryables, "hasRetryables": \.hasRetryables,
        "needsRetryableDefault": \.needsRetryableDefault, "aliasOf": \.aliasOf,
        "successBranches": \.successBranches, "hasSuccessBranches": \.hasSuccessBranches,
        "continuesAliases": \.continuesAliases,
    ]

    /// Whether `map(_:)` maps any status.
    var hasBranches: Bool { !branches.isEmpty }
    /// Whether the enum has cases to describe.
    var hasDescriptions: Bool { !descriptions.isEmpty }
    /// Whether some case says whether it is worth repeating.
    var hasRetryables: Bool { !retryables.isEmpty }
    /// Whether `mapSuccess(_:)` is written.
    var hasSuccessBranches: Bool { !successBranches.isEmpty }
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
    /// The statements (conditions, nested or typed discriminators) that replace `single` and
    /// `subject`, laid out by the `failureMatching` template.
    var matching: MatchingModel? = nil

    /// The fields the `errors` template reads.
    static let templateFields: TemplateFields<Self> = [
        "status": \.status, "lowerBound": \.lowerBound, "upperBound": \.upperBound, "isDefault": \.isDefault,
        "single": \.single, "subject": \.subject, "values": \.values, "fallback": \.fallback,
        "matching": \.matching,
    ]
}

/// What one mapping's branch does, as the `failureMatching` template lays it out: read the body
/// fields it needs once, check its `when:`, try its conditions in order, then return its case or
/// switch on a discriminator.
///
/// The lines' indentation is a field rather than the including line's, so that a nested switch
/// (the same partial, included by itself) is four spaces deeper than its parent.
struct MatchingModel: TemplateModel, Hashable {
    /// The whitespace each line starts with: where a status branch's statements go.
    var indentation: String
    /// The body field paths the branch reads, as string literals joined by `, `, such as
    /// `"error.code", "error.type"`; `nil` when it reads none.
    var fieldPaths: String?
    /// The `when:` condition, a Swift expression over `response` and `fields`: when it does not
    /// hold, the response is not this failure.
    var guardCondition: String? = nil
    /// The conditions tried in order, each with the case it returns.
    var conditions: [ConditionModel] = []
    /// The case returned when no condition holds, for a mapping to one case.
    var returnValue: String? = nil
    /// The switch on a discriminator, for a mapping by value.
    var discriminator: DiscriminatorSwitchModel? = nil

    /// The fields the `failureMatching` template reads.
    static let templateFields: TemplateFields<Self> = [
        "indentation": \.indentation, "fieldPaths": \.fieldPaths, "guardCondition": \.guardCondition, "conditions": \.conditions,
        "returnValue": \.returnValue, "discriminator": \.discriminator,
    ]
}

/// A condition of a mapping and the case it returns.
struct ConditionModel: TemplateModel, Hashable {
    /// A Swift expression over `response` and `fields`, such as `response.header("Retry-After") != nil`.
    var condition: String
    /// The case expression.
    var value: String

    /// The fields the `failureMatching` template reads.
    static let templateFields: TemplateFields<Self> = ["condition": \.condition, "value": \.value]
}

/// A `switch` on a discriminator, as the `failureSwitch` template lays it out.
struct DiscriminatorSwitchModel: TemplateModel, Hashable {
    /// The whitespace each line of the switch starts with; a nested switch's is one level (four
    /// spaces) deeper than its parent's.
    var indentation: String
    /// What is switched on, such as `fields["error.code"]` or `response.header("X-Error")`.
    var subject: String
    /// The listed values, in spec order.
    var cases: [DiscriminatorCaseModel]
    /// The case expression for anything not listed, or a missing value.
    var fallback: String

    /// The fields the `failureSwitch` template reads.
    static let templateFields: TemplateFields<Self> = [
        "indentation": \.indentation, "subject": \.subject, "cases": \.cases, "fallback": \.fallback,
    ]
}

/// One listed value of a discriminator: its case, or a switch on a further discriminator.
struct DiscriminatorCaseModel: TemplateModel, Hashable {
    /// The value as a Swift literal: a string literal, or a number for a `Double` discriminator.
    var literal: String
    /// The case expression, for a value that decides the case.
    var value: String? = nil
    /// The switch on the next discriminator, for a value that decides only part of it.
    var nested: DiscriminatorSwitchModel? = nil

    /// The fields the `failureSwitch` template reads.
    static let templateFields: TemplateFields<Self> = ["literal": \.literal, "value": \.value, "nested": \.nested]
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
