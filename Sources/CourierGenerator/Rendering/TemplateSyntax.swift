/// A mustache template parsed into a tree, before any view model is known.
///
/// Courier's templates are mustache, and users override them, so the syntax is mustache's own:
/// variables (`{{name}}`, `{{{name}}}`, `{{&name}}`, all unescaped because templates write
/// Swift), sections and inverted sections, comments, partials (`{{> name}}`), inheritance
/// (`{{< parent}}` with `{{$block}}` overrides), set-delimiter tags, the content-type pragma,
/// dotted names and transforms (`{{uppercased(name)}}`, `{{^last()}}`). Standalone lines
/// follow the mustache specification: a line holding only a section, comment, partial, block or
/// delimiter tag and whitespace leaves nothing in the output.
///
/// Parsing is separate from compiling (``TemplateCompiler``) because a partial is compiled once
/// per place it is included: what its names mean depends on the models around it.
struct TemplateSyntax: Sendable {
    /// The template's name in its set, such as `models`.
    var name: String
    /// Where it came from, as diagnostics name it: a file path or `built-in`.
    var origin: String
    /// The top-level nodes.
    var nodes: [TemplateNode]

    /// Parses `text`.
    ///
    /// - Throws: ``TemplateError/syntax(template:origin:line:column:message:)`` at the line and
    ///   column of the first problem.
    init(parsing text: String, name: String, origin: String) throws(TemplateError) {
        self.name = name
        self.origin = origin
        do throws(TemplateSyntaxError) {
            var parser = TemplateParser(text: text)
            nodes = try parser.parse()
        } catch {
            throw .syntax(template: name, origin: origin, line: error.position.line, column: error.position.column,
                          message: error.message)
        }
    }
}

/// A line and column in a template file, both starting at 1.
struct TemplatePosition: Sendable, Hashable {
    var line: Int
    var column: Int
}

/// A name as a tag writes it: a dotted path and the transforms around it.
///
/// `{{uppercased(type.name)}}` is the path `type.name` with the transform `uppercased`; `{{.}}`
/// is the path `.`; `{{last()}}` is the empty path with the transform `last`, which asks the
/// enclosing list section where it is.
struct TagName: Sendable, Hashable, CustomStringConvertible {
    /// The name as written, trimmed, which a closing tag must repeat.
    var text: String
    /// The dotted path; `.` for the current value, empty for the position in a list.
    var path: String
    /// The transforms, outermost first: `a(b(name))` is `[a, b]`, and `b` applies first.
    var transforms: [String]

    var description: String { text }
}

/// One node of a parsed template.
indirect enum TemplateNode: Sendable {
    /// Text written as it is.
    case text(String)
    /// `{{name}}`: a value printed.
    case variable(TagName, at: TemplatePosition)
    /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
    case section(TagName, inverted: Bool, body: [TemplateNode], at: TemplatePosition)
    /// `{{> name}}`: another template, rendered here with the same models; `indentation` is the
    /// whitespace before a standalone tag, which every line of the partial gets.
    case partial(String, indentation: String, at: TemplatePosition)
    /// `{{< name}}…{{/name}}`: another template with some of its blocks replaced; `blocks` holds
    /// the replacements by block name.
    case parent(String, indentation: String, blocks: [String: [TemplateNode]], at: TemplatePosition)
    /// `{{$name}}…{{/name}}` outside a parent tag: a block, whose body is the default when no
    /// parent replaces it.
    case block(String, indentation: String, body: [TemplateNode], at: TemplatePosition)
}

/// A syntax error: where and what.
struct TemplateSyntaxError: Error {
    var position: TemplatePosition
    var message: String
}

/// A one-pass mustache parser over a template's Unicode scalars.
///
/// Lines are read as lists of pieces (text and tags) first, so that the standalone rule can
/// look at a whole line; the tree is built from the pieces that remain.
private struct TemplateParser {
    private enum Piece {
        case text(String)
        case tag(RawTag)
    }

    private struct RawTag {
        /// The sigil: `#`, `^`, `/`, `!`, `>`, `<`, `$`, `=`, `%`, `&`, `{`, or none for a variable.
        var sigil: Character?
        /// What follows the sigil, trimmed.
        var content: String
        var position: TemplatePosition
        /// The whitespace before the tag when the tag stands alone on its line.
        var indentation = ""
        var isStandalone = false

        /// Tags that vanish with their line when they stand alone on it.
        var canStandAlone: Bool {
            guard let sigil else { return false }
            return "#^/!><$=%".contains(sigil)
        }
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1
    private var open: [Unicode.Scalar] = ["{", "{"]
    private var close: [Unicode.Scalar] = ["}", "}"]

    init(text: String) {
        scalars = Array(text.unicodeScalars)
    }

    mutating func parse() throws(TemplateSyntaxError) -> [TemplateNode] {
        var pieces: [Piece] = []
        while index < scalars.count {
            let linePieces = try readLine()
            pieces += Self.applyingStandaloneRule(to: linePieces)
        }
        var cursor = pieces.makeIterator()
        let (nodes, end) = try Self.nodes(from: &cursor, closing: nil)
        if let end { throw TemplateSyntaxError(position: end.position, message: "'\(end.content)' is closed here but was never opened") }
        return nodes
    }

    // MARK: Lines

    /// The pieces of one line, its newline included in the last text piece.
    private mutating func readLine() throws(TemplateSyntaxError) -> [Piece] {
        var pieces: [Piece] = []
        var text = String.UnicodeScalarView()
        while index < scalars.count {
            if matches(open, at: index) {
                if !text.isEmpty {
                    pieces.append(.text(String(text)))
                    text = String.UnicodeScalarView()
                }
                pieces.append(.tag(try readTag()))
                continue
            }
            let scalar = scalars[index]
            text.append(scalar)
            advance()
            if scalar == "\n" { break }
        }
        if !text.isEmpty { pieces.append(.text(String(text))) }
        return pieces
    }

    /// A line with one tag that can stand alone and nothing else but whitespace keeps only the
    /// tag, marked standalone, with the whitespace before it as its indentation.
    private static func applyingStandaloneRule(to pieces: [Piece]) -> [Piece] {
        var tag: RawTag?
        var indentation = ""
        for piece in pieces {
            switch piece {
            case .tag(let found):
                guard tag == nil, found.canStandAlone else { return pieces }
                tag = found
            case .text(let text):
                guard text.unicodeScalars.allSatisfy({ " \t\r\n".unicodeScalars.contains($0) }) else { return pieces }
                if tag == nil { indentation += text }
            }
        }
        guard var standalone = tag, !indentation.contains("\n") else { return pieces }
        standalone.isStandalone = true
        standalone.indentation = indentation
        return [.tag(standalone)]
    }

    // MARK: Tags

    private mutating func readTag() throws(TemplateSyntaxError) -> RawTag {
        let position = TemplatePosition(line: line, column: column)
        for _ in open { advance() }
        var closing = close
        var sigil: Character?
        if index < scalars.count, "#^/!><$=%&{".unicodeScalars.contains(scalars[index]) {
            sigil = Character(scalars[index])
            advance()
        }
        // A triple mustache ends with an extra brace; a delimiter change with `=`.
        if sigil == "{" { closing = ["}"] + close }
        if sigil == "=" { closing = ["="] + close }
        var content = String.UnicodeScalarView()
        while index < scalars.count, !matches(closing, at: index) {
            content.append(scalars[index])
            advance()
        }
        guard index < scalars.count else {
            throw TemplateSyntaxError(position: position, message: "a tag is not closed")
        }
        for _ in closing { advance() }
        let trimmed = String(content).trimmingWhitespace()
        if sigil == "=" {
            try changeDelimiters(trimmed, at: position)
        }
        return RawTag(sigil: sigil, content: trimmed, position: position)
    }

    private mutating func changeDelimiters(_ content: String, at position: TemplatePosition) throws(TemplateSyntaxError) {
        let parts = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, !parts[0].contains("="), !parts[1].contains("=") else {
            throw TemplateSyntaxError(position: position, message: "the set-delimiter tag is malformed; write it as {{=<% %>=}}")
        }
        open = Array(parts[0].unicodeScalars)
        close = Array(parts[1].unicodeScalars)
    }

    private func matches(_ delimiter: [Unicode.Scalar], at start: Int) -> Bool {
        guard start + delimiter.count <= scalars.count else { return false }
        for offset in delimiter.indices where scalars[start + offset] != delimiter[offset] { return false }
        return true
    }

    private mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    // MARK: Tree

    /// Nodes up to the tag that closes `closing` (returned), or to the end when `closing` is nil.
    private static func nodes(from pieces: inout IndexingIterator<[Piece]>,
                              closing: RawTag?) throws(TemplateSyntaxError) -> ([TemplateNode], RawTag?) {
        var nodes: [TemplateNode] = []
        func append(_ text: String) {
            if case .text(let previous)? = nodes.last {
                nodes[nodes.count - 1] = .text(previous + text)
            } else {
                nodes.append(.text(text))
            }
        }
        while let piece = pieces.next() {
            let tag: RawTag
            switch piece {
            case .text(let text):
                append(text)
                continue
            case .tag(let found):
                tag = found
            }
            switch tag.sigil {
            case "!", "=":
                continue
            case "%":
                try checkPragma(tag)
            case "/":
                guard let closing else { return (nodes, tag) }
                guard tag.content == closing.content else {
                    throw TemplateSyntaxError(position: tag.position,
                                              message: "'\(closing.content)' (line \(closing.position.line)) is closed with another name, '\(tag.content)'")
                }
                return (nodes, nil)
            case "#", "^":
                let name = try tagName(tag)
                let body = try sectionBody(of: tag, from: &pieces)
                nodes.append(.section(name, inverted: tag.sigil == "^", body: body, at: tag.position))
            case "$":
                let name = try partialName(tag)
                let body = try sectionBody(of: tag, from: &pieces)
                nodes.append(.block(name, indentation: tag.indentation, body: body, at: tag.position))
            case ">":
                let name = try partialName(tag)
                nodes.append(.partial(name, indentation: tag.indentation, at: tag.position))
            case "<":
                let name = try partialName(tag)
                let body = try sectionBody(of: tag, from: &pieces)
                var blocks: [String: [TemplateNode]] = [:]
                for node in body {
                    switch node {
                    case .block(let block, _, let replacement, _):
                        blocks[block] = replacement
                    case .text:
                        continue
                    default:
                        throw TemplateSyntaxError(position: tag.position,
                                                  message: "only block definitions ({{$name}}…{{/name}}) may appear inside {{<\(name)}}")
                    }
                }
                nodes.append(.parent(name, indentation: tag.indentation, blocks: blocks, at: tag.position))
            default:
                nodes.append(.variable(try tagName(tag), at: tag.position))
            }
        }
        if let closing {
            throw TemplateSyntaxError(position: closing.position, message: "'\(closing.content)' is opened but never closed")
        }
        return (nodes, nil)
    }

    private static func sectionBody(of tag: RawTag, from pieces: inout IndexingIterator<[Piece]>) throws(TemplateSyntaxError) -> [TemplateNode] {
        try nodes(from: &pieces, closing: tag).0
    }

    private static func checkPragma(_ tag: RawTag) throws(TemplateSyntaxError) {
        let parts = tag.content.split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace() }
        guard parts.count == 2, parts[0] == "CONTENT_TYPE", parts[1] == "TEXT" else {
            throw TemplateSyntaxError(position: tag.position,
                                      message: "unknown pragma or content type; the only one Courier uses is {{% CONTENT_TYPE: TEXT }}")
        }
    }

    private static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?")

    private static func partialName(_ tag: RawTag) throws(TemplateSyntaxError) -> String {
        if tag.content.hasPrefix("*") {
            throw TemplateSyntaxError(position: tag.position,
                                      message: "dynamic partial names ('\(tag.content)') are not supported; name the template")
        }
        guard !tag.content.isEmpty, tag.content.allSatisfy({ nameCharacters.contains($0) || $0 == "/" }) else {
            throw TemplateSyntaxError(position: tag.position, message: "'\(tag.content)' is not a template name")
        }
        return tag.content
    }

    /// `a(b(path))` as the path and its transforms, outermost first.
    private static func tagName(_ tag: RawTag) throws(TemplateSyntaxError) -> TagName {
        var rest = Substring(tag.content)
        var transforms: [String] = []
        while let open = rest.firstIndex(of: "(") {
            transforms.append(String(rest[..<open]))
            rest = rest[rest.index(after: open)...]
        }
        let closers = rest.drop { $0 != ")" }
        let path = String(rest.prefix { $0 != ")" })
        let isWellFormed = closers.count == transforms.count && closers.allSatisfy { $0 == ")" }
            && transforms.allSatisfy { !$0.isEmpty && $0.allSatisfy(nameCharacters.contains) }
            && path.allSatisfy(nameCharacters.contains) && (!path.isEmpty || !transforms.isEmpty)
        guard isWellFormed else {
            throw TemplateSyntaxError(position: tag.position,
                                      message: "'\(tag.content)' is not a name: use letters, digits, '.', '-', '_' and '?', and transforms as 'name(value)'")
        }
        return TagName(text: tag.content, path: path, transforms: transforms)
    }
}

extension String {
    /// The string without spaces, tabs and line breaks at either end.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
