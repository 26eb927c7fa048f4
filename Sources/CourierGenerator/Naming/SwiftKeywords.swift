/// Words that generated code must write in backticks when it uses them as identifiers.
enum SwiftKeywords {
    /// Keywords used in declarations, statements and expressions, plus the names that have a
    /// special meaning after a dot (`Type`, `Protocol`, `self`, `init`). Escaping a word that did
    /// not need it is harmless, so the list errs on the side of inclusion.
    static let needingBackticks: Set<String> = [
        // Declarations
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package",
        "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var",
        // Statements
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "switch", "throw", "where", "while",
        // Expressions and types
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        // Special after a dot
        "Type", "Protocol",
    ]
}
