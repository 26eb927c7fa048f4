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
        if let words = ASCIIWords.split(text) { return words }
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
        let isScreaming = ASCIIWords.containsLowercase(text).map { !$0 } ?? !text.contains(where: \.isLowercase)
        return join(split(text), capitalizingFirst: capitalizingFirst, keepingUpperCaseWords: !isScreaming)
    }

    /// The words joined in camel case; `_` when there are none, with a `_` prefix when the
    /// result would start with a digit. Upper-case words that are not known acronyms are kept
    /// as written when `keepingUpperCaseWords` (`JSONAPIErrors`), else capitalized (`STATUS`).
    static func join(_ words: [String], capitalizingFirst: Bool, keepingUpperCaseWords: Bool) -> String {
        guard !words.isEmpty else { return "_" }
        var result = ""
        for (index, word) in words.enumerated() {
            // One set of rules; ASCII words (nearly all names) take byte-level primitives.
            let isASCII = ASCIIWords.isASCII(word)
            let lower = isASCII ? ASCIIWords.lowercased(word) : word.lowercased()
            if index == 0 && !capitalizingFirst {
                result += lower
            } else if let acronym = acronyms[lower] {
                result += acronym
            } else if isASCII ? ASCIIWords.isAllCaps(word) : word.count > 1 && word.allSatisfy({ !$0.isLetter || $0.isUppercase }) {
                // An all-caps word that is not a known acronym: `JSONAPI` in `JSONAPIErrors`
                // stays, `STATUS` in `STATUS_CODE` becomes `Status`. A word made only of known
                // acronyms (`JSONAPI`, `HTTPAPI`) is acronyms even when the whole name is in
                // upper case, so a name `JSONAPI` stays `JSONAPI` instead of becoming `Jsonapi`.
                result += keepingUpperCaseWords || isAcronymCompound(lower)
                    ? word : (isASCII ? ASCIIWords.capitalized(lower) : capitalized(lower))
            } else {
                result += isASCII ? ASCIIWords.capitalized(word) : capitalized(word)
            }
        }
        if let first = result.utf8.first, first < 0x80 ? ASCIIWords.isDigit(first) : result.first?.isNumber == true {
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
        if let snake = ASCIIWords.snakeCased(name) { return snake }
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

/// The rules of ``NameWords`` for text that is entirely ASCII, on UTF-8 bytes.
///
/// Spec names are nearly always ASCII, and the generic path classifies every `Character` through
/// Unicode properties, which made name conversion a tenth of a large spec's generation time. For
/// an ASCII byte the properties the generic path asks for are exact: letters are `A-Z` and `a-z`,
/// numbers `0-9`, upper and lower case the two letter ranges; `\r\n`, one `Character` but two
/// bytes, is a separator either way. Every function returns `nil` (or `false`) for text with a
/// non-ASCII byte, which the caller then handles the generic way, so both paths give the same
/// result.
enum ASCIIWords {
    static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    static func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isAlphanumeric(_ byte: UInt8) -> Bool { isUpper(byte) || isLower(byte) || isDigit(byte) }

    static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// ``NameWords/split(_:)`` for ASCII text; `nil` otherwise.
    static func split(_ text: String) -> [String]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            bytes.append(byte)
        }
        var words: [String] = []
        var start = -1
        func flush(_ end: Int) {
            if start >= 0 { words.append(String(decoding: bytes[start..<end], as: UTF8.self)) }
            start = -1
        }
        for index in bytes.indices {
            let byte = bytes[index]
            guard isAlphanumeric(byte) else {
                flush(index)
                continue
            }
            if start >= 0, isUpper(byte) {
                let previous = bytes[index - 1]
                if isLower(previous) || isDigit(previous) {
                    flush(index)
                } else if isUpper(previous), index + 1 < bytes.count, isLower(bytes[index + 1]),
                          !isPluralSuffix(at: index + 1, in: bytes) {
                    flush(index)
                }
            }
            if start < 0 { start = index }
        }
        flush(bytes.count)
        return words
    }

    private static func isPluralSuffix(at index: Int, in bytes: [UInt8]) -> Bool {
        guard bytes[index] == UInt8(ascii: "s") else { return false }
        let after = index + 1
        return after == bytes.count || !isLower(bytes[after])
    }

    /// Whether ASCII `text` has a lower-case letter; `nil` when the text is not ASCII.
    static func containsLowercase(_ text: String) -> Bool? {
        var found = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if isLower(byte) { found = true }
        }
        return found
    }

    /// `word` in lower case; `word` must be ASCII.
    static func lowercased(_ word: String) -> String {
        String(decoding: word.utf8.map { isUpper($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether ASCII `word` is longer than one character and has no lower-case letter.
    static func isAllCaps(_ word: String) -> Bool {
        word.utf8.count > 1 && !word.utf8.contains(where: isLower)
    }

    /// `word` with its first letter in upper case; `word` must be ASCII.
    static func capitalized(_ word: String) -> String {
        var bytes = Array(word.utf8)
        if let first = bytes.first, isLower(first) { bytes[0] = first - 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``NameWords/snakeCased(_:)`` for ASCII text; `nil` otherwise.
    static func snakeCased(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        guard bytes.contains(where: isUpper) else { return name }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 4)
        for (index, byte) in bytes.enumerated() {
            if isUpper(byte), index > 0 {
                let previous = bytes[index - 1]
                let next: UInt8? = index + 1 < bytes.count ? bytes[index + 1] : nil
                let startsWord = isLower(previous) || isDigit(previous)
                    || (isUpper(previous) && next.map(isLower) == true && next != UInt8(ascii: "s"))
                if startsWord && previous != UInt8(ascii: "_") { result.append(UInt8(ascii: "_")) }
            }
            result.append(isUpper(byte) ? byte + 0x20 : byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}
