// The view models of the four generated files are declared one file per kind
// (ModelsFileModel.swift, RequestsFileModel.swift, ErrorsFileModel.swift, ClientFileModel.swift);
// this file cuts them into parts. Every name, literal, type spelling and doc comment is already
// computed and escaped for its place; the templates only lay them out.
//
// Doc comments are complete `///` blocks, indented for where they go, or `nil` when the spec
// gives no text, so that a template writes `{{#doc}}` sections without further logic.

// MARK: - Parts

/// Cuts `count` declarations into runs of at most `limit`: one run when `limit` is 0 or not
/// exceeded, otherwise runs of equal size give or take one, so that no part is a small remainder.
private func runs(of count: Int, limit: Int) -> [Range<Int>] {
    guard limit > 0, count > limit else { return [0..<count] }
    let partCount = (count + limit - 1) / limit
    return (0..<partCount).map { part in
        (part * count / partCount)..<((part + 1) * count / partCount)
    }
}

extension ModelsFileModel {
    /// The file cut into parts of at most `limit` declarations (structs, then enums, then
    /// envelopes); the `Indirect` helper, one per module, goes in the first part.
    public func parts(of limit: Int) -> [ModelsFileModel] {
        let all = runs(of: structs.count + enums.count + envelopes.count, limit: limit)
        guard all.count > 1 else { return [self] }
        return all.enumerated().map { index, run in
            func slice<T>(_ items: [T], from start: Int) -> [T] {
                let lower = min(max(run.lowerBound - start, 0), items.count)
                let upper = min(max(run.upperBound - start, 0), items.count)
                return Array(items[lower..<upper])
            }
            var part = self
            part.structs = slice(structs, from: 0)
            part.enums = slice(enums, from: structs.count)
            part.envelopes = slice(envelopes, from: structs.count + enums.count)
            part.needsIndirect = needsIndirect && index == 0
            return part
        }
    }
}

extension RequestsFileModel {
    /// The file cut into parts of at most `limit` request types; the shared resilience
    /// declaration, one per module, goes in the first part.
    public func parts(of limit: Int) -> [RequestsFileModel] {
        let all = runs(of: requests.count, limit: limit)
        guard all.count > 1 else { return [self] }
        return all.enumerated().map { index, run in
            var part = self
            part.requests = Array(requests[run])
            if index > 0 {
                part.defaultResilience = nil
            }
            return part
        }
    }
}

extension ErrorsFileModel {
    /// The file cut into parts of at most `limit` failure enums; every part that unwraps
    /// envelopes gets its own copy of the file-private helper.
    public func parts(of limit: Int) -> [ErrorsFileModel] {
        let all = runs(of: failures.count, limit: limit)
        guard all.count > 1 else { return [self] }
        return all.map { run in
            var part = self
            part.failures = Array(failures[run])
            part.needsUnwrap = part.failures.contains(where: \.usesUnwrap)
            return part
        }
    }
}
