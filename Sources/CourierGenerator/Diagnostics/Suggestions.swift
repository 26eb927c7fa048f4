/// "Did you mean" suggestions for misspelled keys and names.
enum Suggestions {
    /// The candidate closest to `word`, if one is close enough to be a likely typo: the same
    /// ignoring case, or within an edit distance of about a third of the word's length.
    static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        let limit = max(1, min(3, word.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            if candidate.lowercased() == lowered { return candidate }
            guard abs(candidate.count - word.count) <= limit else { continue }
            let distance = editDistance(lowered, candidate.lowercased(), limit: limit)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Edit distance where two neighbours swapped (`Itme` for `Item`, the commonest typo) cost one
    /// edit, as an insertion, a deletion or a substitution does (optimal string alignment); gives up
    /// (returning `limit + 1`) once it exceeds `limit`.
    static func editDistance(_ lhs: String, _ rhs: String, limit: Int) -> Int {
        let a = Array(lhs.unicodeScalars)
        let b = Array(rhs.unicodeScalars)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = Array(repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
