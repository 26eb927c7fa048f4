// The view models of the four generated files are declared one file per kind
// (ModelsFileModel.swift, RequestsFileModel.swift, ErrorsFileModel.swift, ClientFileModel.swift);
// this file holds what several kinds share and cuts them into parts. Every name, literal, type
// spelling and doc comment is already computed and escaped for its place; the templates own the
// Swift syntax around them (declarations, accessors, assignments, separators), so that a user's
// template can restyle any generated line.
//
// Doc comments are complete `///` blocks, indented for where they go, or `nil` when the spec
// gives no text, so that a template writes `{{#doc}}` sections without further logic.

// MARK: - Shared

/// One parameter of an initialiser or method, as the `parameters` partial declares it.
struct ParameterModel: TemplateModel {
    /// The argument label, escaped where a declaration needs it.
    var label: String
    /// The name the body uses, when it differs from the label (`selfValue`, `pathValue`).
    var internalName: String?
    /// The Swift type.
    var type: String
    /// The default value as a Swift expression (`nil`, `1`, `.ascending`), if any.
    var defaultValue: String?

    /// A parameter of `type` labelled `label`.
    init(label: String, internalName: String? = nil, type: String, defaultValue: String? = nil) {
        self.label = label
        self.internalName = internalName
        self.type = type
        self.defaultValue = defaultValue
    }

    /// The fields the `parameters` partial reads.
    static let templateFields: TemplateFields<Self> = [
        "label": \.label, "internalName": \.internalName, "type": \.type, "defaultValue": \.defaultValue,
    ]
}

extension [ParameterModel] {
    /// The parameters as the built-in `parameters` partial writes them on one line; only for
    /// deciding whether a declaration fits on its line, which the view model must say before
    /// the template lays it out.
    var inlineText: String {
        map { parameter in
            parameter.label + (parameter.internalName.map { " " + $0 } ?? "") + ": " + parameter.type
                + (parameter.defaultValue.map { " = " + $0 } ?? "")
        }.joined(separator: ", ")
    }
}

/// One `label: value` argument of a call, such as `username: username` or `maxAttempts: 1`.
struct ArgumentModel: TemplateModel {
    /// The argument label, as a call site writes it.
    var label: String
    /// The value expression.
    var value: String

    /// The fields templates read.
    static let templateFields: TemplateFields<Self> = ["label": \.label, "value": \.value]
}

// MARK: - Parts

/// How many files each of the models, requests and errors becomes.
enum FileSplit: Sendable, Equatable {
    /// Parts of at most this many declarations, of equal size give or take one, so that no part
    /// is a small remainder; one file when the kind has no more, or when the limit is 0.
    case atMost(Int)
    /// Exactly this many parts (at least one), the last ones empty when there are fewer
    /// declarations: for a build tool that names its output files before the spec is read.
    case exactly(Int)

    /// The runs of `count` declarations, one per part.
    func runs(of count: Int) -> [Range<Int>] {
        switch self {
        case .atMost(let limit):
            guard limit > 0, count > limit else { return [0..<count] }
            return Self.even(count, into: (count + limit - 1) / limit)
        case .exactly(let parts):
            let parts = max(parts, 1)
            let filled = Self.even(count, into: max(min(parts, count), 1))
            return filled + Array(repeating: count..<count, count: parts - filled.count)
        }
    }

    private static func even(_ count: Int, into parts: Int) -> [Range<Int>] {
        (0..<parts).map { part in (part * count / parts)..<((part + 1) * count / parts) }
    }
}

extension ErrorsFileModel {
    /// The file cut into parts as `split` says, counting failure enums and aliases; every part
    /// that unwraps envelopes gets its own copy of the file-private helper.
    func parts(_ split: FileSplit) -> [ErrorsFileModel] {
        let all = split.runs(of: failures.count)
        guard all.count > 1 else { return [self] }
        return all.map { run in
            var part = self
            part.failures = Array(failures[run])
            // A part starts a block of its own.
            if !part.failures.isEmpty { part.failures[0].continuesAliases = false }
            part.needsUnwrap = part.failures.contains(where: \.usesUnwrap)
            return part
        }
    }
}
