/// Splits spec names into words and joins words in camel case. Internal to ``SwiftIdentifier``.
enum NameWords {
    /// Words that read as acronyms, keyed by their lowercase spelling, valued by how they are
    /// written after the first word. Plurals keep a lowercase `s` (`IDs`, `URLs`), as Apple's APIs do.
    static let acronyms: [String: String] = {
        var table: [String: String] = [:]
        for word in ["api", "id", "ip", "url", "uri", "uuid", "http", "https", "json", "xml", "html", "jwt", "sql", "ssh", "tls", "ssl", "dns", "tcp", "udp", "cpu", "ttl", "utc", "sku"] {
            table[word] = word.uppercased()
            table[word + "s"] = word.uppercased() + "s"
        }
        return table
    }()

    /// The words of `text`. Every character that is not a letter or digit separates words, and
    /// so do case changes: `getHTTPResponse` is `get`, `HTTP`, `Response`; `oauth2Token` is
    /// `oauth2`, `Token`.
    static func split(_ text: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []

        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current.removeAll(keepingCapacity: true)
        }

        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isNumber else {
                flush()
                continue
            }
            if let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if character.isUppercase {
                    // `aB`, `2B` start a word; in `HTTPResponse` the `R` starts `Response`.
                    if previous.isLowercase || previous.isNumber {
                        flush()
                    } else if previous.isUppercase, let next, next.isLowercase, !isPluralSuffix(at: index + 1, in: characters) {
                        flush()
                    }
                }
            }
            current.append(character)
        }
        flush()
        return words
    }

    /// Whether the `s` at `index` ends an upper-case run as a plural (`IDs`, `URLs`) rather than
    /// starting a new word.
    private static func isPluralSuffix(at index: Int, in characters: [Character]) -> Bool {
        guard characters[index] == "s" else { return false }
        let after = index + 1
        return after == characters.count || !characters[after].isLowercase
    }

    /// `text` in camel case: split into words, then joined.
    static func camelCased(_ text: String, capitalizingFirst: Bool) -> String {
        // In SCREAMING_SNAKE_CASE every word is upper case, and none is meant as an acronym.
        let isScreaming = !text.contains(where: \.isLowercase)
        return join(split(text), capitalizingFirst: capitalizingFirst, keepingUpperCaseWords: !isScreaming)
    }

    /// The words joined in camel case; `_` when there are none, with a `_` prefix when the
    /// result would start with a digit. Upper-case words that are not known acronyms are kept
    /// as written when `keepingUpperCaseWords` (`JSONAPIErrors`), else capitalized (`STATUS`).
    static func join(_ words: [String], capitalizingFirst: Bool, keepingUpperCaseWords: Bool) -> String {
        guard !words.isEmpty else { return "_" }
        var result = ""
        for (index, word) in words.enumerated() {
            let lower = word.lowercased()
            if index == 0 && !capitalizingFirst {
                result += lower
            } else if let acronym = acronyms[lower] {
                result += acronym
            } else if word.count > 1, word.allSatisfy({ !$0.isLetter || $0.isUppercase }) {
                // An all-caps word that is not a known acronym: `JSONAPI` in `JSONAPIErrors`
                // stays, `STATUS` in `STATUS_CODE` becomes `Status`. A word made only of known
                // acronyms (`JSONAPI`, `HTTPAPI`) is acronyms even when the whole name is in
                // upper case, so a name `JSONAPI` stays `JSONAPI` instead of becoming `Jsonapi`.
                result += keepingUpperCaseWords || isAcronymCompound(lower) ? word : capitalized(lower)
            } else {
                result += capitalized(word)
            }
        }
        if let first = result.first, first.isNumber {
            result = "_" + result
        }
        return result
    }

    /// Whether `lower` is two or more known acronyms written together, such as `jsonapi`.
    static func isAcronymCompound(_ lower: String) -> Bool {
        let characters = Array(lower)
        guard !characters.isEmpty else { return false }
        // reachable[i]: the first i characters split into acronyms; parts[i]: the most pieces.
        var reachable = [true] + Array(repeating: false, count: characters.count)
        var parts = Array(repeating: 0, count: characters.count + 1)
        for end in 1...characters.count {
            for start in 0..<end where reachable[start] && acronyms[String(characters[start..<end])] != nil {
                reachable[end] = true
                parts[end] = max(parts[end], parts[start] + 1)
            }
        }
        return reachable[characters.count] && parts[characters.count] >= 2
    }

    private static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }
}

extension NameWords {
    /// `createdAt` becomes `created_at`, `userID` becomes `user_id`; a name without upper-case
    /// letters (`documentation_url`, `x-request-id`) is returned unchanged.
    static func snakeCased(_ name: String) -> String {
        guard name.contains(where: \.isUppercase) else { return name }
        var result = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord = previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && next?.isLowercase == true && next != "s")
                if startsWord && previous != "_" { result += "_" }
            }
            result += character.lowercased()
        }
        return result
    }
}
