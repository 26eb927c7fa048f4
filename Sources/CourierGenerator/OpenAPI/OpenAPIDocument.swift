import Foundation

/// The files of one OpenAPI document (the root and every file a `$ref` reaches), read once each,
/// with `$ref` resolution that keeps every node's file for diagnostics.
struct OpenAPIDocument {
    /// One file's tree.
    struct File {
        let url: URL
        let displayPath: String
        let root: Node?
        /// Locates this file's nodes; its own diagnostics are never collected (the document's
        /// reader reports everything).
        let locator: NodeReader
    }

    /// A node and the file it is in.
    struct Located {
        let node: Node
        let file: Int
    }

    /// Where a `$ref` points: a file and a JSON pointer in it.
    struct Target: Hashable {
        let file: Int
        let pointer: String
    }

    private(set) var files: [File] = []
    /// Every file a `$ref` named, in the order first named, those that could not be read
    /// included: what a watcher must watch for this document (`courier generate --watch`).
    private(set) var referencedURLs: [URL] = []
    private var fileIndex: [String: Int] = [:]
    /// The node each `$ref` target names, once found: a document refers to its shared schemas
    /// and responses thousands of times (GitHub's 814 operations), and finding one walks the
    /// entries of `components/schemas` one by one.
    private var targetCache: [Target: Located] = [:]
    /// Reports every problem of the document, in the files' own coordinates.
    private(set) var reporter: NodeReader
    /// Reports what converting Swagger 2.0 files found. Apart from ``reporter``, because a file
    /// is converted once, when first read, and a second reading (``rereading()``) keeps the
    /// converted files and must keep what their conversion said.
    let conversionReporter: NodeReader
    /// Whether the document is Swagger 2.0: its files are then read through
    /// ``Swagger2Converter``, each as it is first reached, in their 3.0 shape.
    let isSwagger2: Bool

    /// Everything the document reported: its conversion's and its reading's.
    var diagnostics: DiagnosticCollector {
        var all = conversionReporter.diagnostics
        all.merge(reporter.diagnostics)
        return all
    }

    init(root: Node, url: URL, displayPath: String) {
        reporter = NodeReader(path: displayPath)
        conversionReporter = NodeReader(path: displayPath)
        let locator = NodeReader(path: displayPath)
        isSwagger2 = Swagger2Converter.isSwagger2(root)
        var converter = Swagger2Converter(reporter: conversionReporter, locator: locator)
        let tree = isSwagger2 ? converter.convertDocument(root) : root
        files.append(File(url: url, displayPath: displayPath, root: tree, locator: locator))
        fileIndex[url.standardizedFileURL.path] = 0
    }

    var root: Located? { files[0].root.map { Located(node: $0, file: 0) } }

    /// The same document with the files it has read kept and no diagnostics yet: for reading it
    /// a second time (``OpenAPIReader/read()``) without reading DigitalOcean's 1,489 files again.
    /// A file that could not be read is not kept, so its error is reported again.
    func rereading() -> OpenAPIDocument {
        var copy = self
        copy.reporter = NodeReader(path: files[0].displayPath)
        return copy
    }

    func location(of located: Located) -> SourceLocation {
        files[located.file].locator.location(of: located.node)
    }

    func error(_ message: String, at located: Located) {
        reporter.error(message, at: location(of: located))
    }

    func warning(_ message: String, at located: Located) {
        reporter.warning(message, at: location(of: located))
    }

    // MARK: Reading nodes

    /// The value of `key` in a mapping node; `nil` for another node or a missing key.
    static func child(_ node: Node, _ key: String) -> Node? {
        guard case .mapping(let mapping) = node else { return nil }
        return mapping[key]
    }

    func child(_ located: Located, _ key: String) -> Located? {
        Self.child(located.node, key).map { Located(node: $0, file: located.file) }
    }

    /// The entries of a mapping node, in order; empty for another node.
    func entries(_ located: Located) -> [(key: String, keyNode: Located, value: Located)] {
        guard case .mapping(let mapping) = located.node else { return [] }
        return mapping.compactMap { keyNode, value in
            guard let key = keyNode.scalar?.string else { return nil }
            return (key, Located(node: keyNode, file: located.file), Located(node: value, file: located.file))
        }
    }

    /// The items of a sequence node; empty for another node.
    func items(_ located: Located) -> [Located] {
        guard case .sequence(let sequence) = located.node else { return [] }
        return sequence.map { Located(node: $0, file: located.file) }
    }

    func string(_ located: Located?, _ key: String) -> String? {
        located.flatMap { child($0, key) }.flatMap(\.node.scalar).map(\.string)
    }

    func bool(_ located: Located?, _ key: String) -> Bool? {
        switch string(located, key) {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    // MARK: $ref

    /// What a `$ref` that leads nowhere costs, by where it stands.
    enum Reach {
        /// The document cannot be read without it (a parameter, a response, a path item): an error.
        case required
        /// A schema: any JSON is a faithful stand-in for a type nobody can look up, so the
        /// reference is a warning and the caller reads it as `JSON`.
        case schema
    }

    /// The node a `$ref` chain ends at (the node itself when it is no reference), and the target
    /// of the last `$ref` followed; `nil` after reporting a reference that leads nowhere or loops.
    mutating func resolve(_ located: Located, reach: Reach = .required) -> (node: Located, target: Target?)? {
        var current = located
        var target: Target?
        var seen: [Target] = []
        while let reference = string(current, "$ref") {
            guard let next = self.target(of: reference, from: current, reach: reach) else { return nil }
            if seen.contains(next) {
                let chain = (seen + [next]).map { asWritten($0.pointer) }.joined(separator: " → ")
                error("the $ref '\(asWritten(reference))' leads back to itself (\(chain)) without reaching a definition", at: located)
                return nil
            }
            seen.append(next)
            guard let node = cachedNode(at: next) else {
                let hint = closestReference(to: reference, target: next).map { "; did you mean '\(asWritten($0))'?" } ?? ""
                switch reach {
                case .required: error("the $ref '\(asWritten(reference))' points at nothing\(hint)", at: current)
                case .schema:
                    warning("the $ref '\(asWritten(reference))' points at nothing\(hint); Courier reads it as free-form JSON", at: current)
                }
                return nil
            }
            current = node
            target = next
        }
        return (current, target)
    }

    /// Where `reference` points, relative to the file `from` is in; `nil` after reporting a file
    /// that cannot be read (a warning for a schema's, as ``resolve(_:reach:)`` says).
    mutating func target(of reference: String, from located: Located, reach: Reach = .required) -> Target? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let pointer = parts.count > 1 ? String(parts[1]) : ""
        guard !path.isEmpty else { return Target(file: located.file, pointer: pointer) }
        if let scheme = URL(string: path)?.scheme?.lowercased(), ["http", "https"].contains(scheme) {
            // Square's descriptions point at schemas on a CDN: Courier reads no network, so that
            // generation is repeatable and works offline.
            switch reach {
            case .required:
                error("the $ref '\(asWritten(reference))' names a remote document, which Courier does not fetch; save it beside this one "
                      + "and refer to it by a relative path", at: located)
            case .schema:
                warning("the $ref '\(asWritten(reference))' names a remote document, which Courier does not fetch; it reads the schema as "
                        + "free-form JSON (save the document beside this one and refer to it by a relative path for its type)",
                        at: located)
            }
            return nil
        }
        let base = files[located.file].url.deletingLastPathComponent()
        let decoded = path.removingPercentEncoding ?? path
        let url = URL(fileURLWithPath: decoded, relativeTo: base).standardizedFileURL
        if let index = fileIndex[url.path] { return Target(file: index, pointer: pointer) }
        if !referencedURLs.contains(url) { referencedURLs.append(url) }
        let display = SourceFiles.displayPath(of: decoded, includedFrom: files[located.file].displayPath)
        var root: Node?
        let locator = NodeReader(path: display)
        do {
            let data = try Data(contentsOf: url)
            switch YAMLSource.compose(data, path: display) {
            case .document(let node):
                root = node
                // A 2.0 document's other files hold 2.0 schemas and sections, pointed at by
                // references the root's conversion has already moved under `components`.
                if isSwagger2, let node {
                    var converter = Swagger2Converter(reporter: conversionReporter, locator: locator)
                    root = converter.convertReferencedFile(node)
                }
            case .failure(let diagnostic):
                reporter.report(diagnostic)
                return nil
            }
        } catch {
            let message = "the $ref '\(asWritten(reference))' names a file that cannot be read: \(SourceFiles.reason(error, url: url))"
            switch reach {
            case .required: self.error(message, at: located)
            case .schema: warning(message + "; Courier reads it as free-form JSON", at: located)
            }
            return nil
        }
        files.append(File(url: url, displayPath: display, root: root, locator: locator))
        fileIndex[url.path] = files.count - 1
        return Target(file: files.count - 1, pointer: pointer)
    }

    /// `reference` with its last pointer token replaced by the closest key beside where it points
    /// (`#/components/schemas/Pett` → `…/Pet`), when the mapping it points into exists.
    func closestReference(to reference: String, target: Target) -> String? {
        guard let slash = target.pointer.lastIndex(of: "/"), let referenceSlash = reference.lastIndex(of: "/"),
              let parent = node(at: Target(file: target.file, pointer: String(target.pointer[..<slash]))),
              case .mapping(let mapping) = parent.node else { return nil }
        let token = String(target.pointer[target.pointer.index(after: slash)...])
        let wanted = (token.removingPercentEncoding ?? token).replacingOccurrences(of: "~1", with: "/")
            .replacingOccurrences(of: "~0", with: "~")
        let keys = mapping.keys.compactMap { key -> String? in
            if case .scalar(let scalar) = key { return scalar.string }
            return nil
        }
        guard let closest = Suggestions.closest(to: wanted, among: keys) else { return nil }
        let escaped = closest.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        return reference[...referenceSlash] + escaped
    }

    /// A reference as its file spells it: a 2.0 document's `#/definitions/…`, which its
    /// conversion moved under `components`, so that a message quotes what the user can find.
    func asWritten(_ reference: String) -> String {
        isSwagger2 ? Swagger2Converter.asWritten(reference) : reference
    }

    /// ``node(at:)``, remembered.
    private mutating func cachedNode(at target: Target) -> Located? {
        if let known = targetCache[target] { return known }
        let found = node(at: target)
        if let found { targetCache[target] = found }
        return found
    }

    /// The node a JSON pointer (RFC 6901) names in a file; `nil` when there is none.
    func node(at target: Target) -> Located? {
        guard var node = files[target.file].root else { return nil }
        guard !target.pointer.isEmpty else { return Located(node: node, file: target.file) }
        guard target.pointer.hasPrefix("/") else { return nil }
        for raw in target.pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = (String(raw).removingPercentEncoding ?? String(raw))
                .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch node {
            case .mapping:
                guard let next = Self.child(node, token) else { return nil }
                node = next
            case .sequence(let sequence):
                guard let index = Int(token), sequence.indices.contains(index) else { return nil }
                node = sequence[index]
            default:
                return nil
            }
        }
        return Located(node: node, file: target.file)
    }
}
