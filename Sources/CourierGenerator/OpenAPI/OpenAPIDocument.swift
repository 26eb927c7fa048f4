import Foundation
import Yams

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

    init(root: Node, url: URL, displayPath: String) {
        reporter = NodeReader(path: displayPath)
        files.append(File(url: url, displayPath: displayPath, root: root, locator: NodeReader(path: displayPath)))
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
        // By index: Yams' iterator copies every pair of the mapping into a new array first, which
        // made each lookup cost the whole mapping (a third of reading GitHub's document).
        var index = mapping.startIndex
        while index < mapping.endIndex {
            let entry = mapping[index]
            if case .scalar(let scalar) = entry.key, scalar.string == key { return entry.value }
            index = mapping.index(after: index)
        }
        return nil
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

    /// The node a `$ref` chain ends at (the node itself when it is no reference), and the target
    /// of the last `$ref` followed; `nil` after reporting a reference that leads nowhere or loops.
    mutating func resolve(_ located: Located) -> (node: Located, target: Target?)? {
        var current = located
        var target: Target?
        var seen: [Target] = []
        while let reference = string(current, "$ref") {
            guard let next = self.target(of: reference, from: current) else { return nil }
            if seen.contains(next) {
                let chain = (seen + [next]).map(\.pointer).joined(separator: " → ")
                error("the $ref '\(reference)' leads back to itself (\(chain)) without reaching a definition", at: located)
                return nil
            }
            seen.append(next)
            guard let node = cachedNode(at: next) else {
                error("the $ref '\(reference)' points at nothing", at: current)
                return nil
            }
            current = node
            target = next
        }
        return (current, target)
    }

    /// Where `reference` points, relative to the file `from` is in; `nil` after reporting a file
    /// that cannot be read.
    mutating func target(of reference: String, from located: Located) -> Target? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let pointer = parts.count > 1 ? String(parts[1]) : ""
        guard !path.isEmpty else { return Target(file: located.file, pointer: pointer) }
        let base = files[located.file].url.deletingLastPathComponent()
        let decoded = path.removingPercentEncoding ?? path
        let url = URL(fileURLWithPath: decoded, relativeTo: base).standardizedFileURL
        if let index = fileIndex[url.path] { return Target(file: index, pointer: pointer) }
        if !referencedURLs.contains(url) { referencedURLs.append(url) }
        let display = LoadSession.displayPath(of: decoded, includedFrom: files[located.file].displayPath)
        let root: Node?
        do {
            let data = try Data(contentsOf: url)
            switch YAMLSource.compose(data, path: display) {
            case .document(let node):
                root = node
            case .failure(let diagnostic):
                reporter.report(diagnostic)
                return nil
            }
        } catch {
            self.error("the $ref '\(reference)' names a file that cannot be read: \(LoadSession.reason(error, url: url))", at: located)
            return nil
        }
        files.append(File(url: url, displayPath: display, root: root, locator: NodeReader(path: display)))
        fileIndex[url.path] = files.count - 1
        return Target(file: files.count - 1, pointer: pointer)
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
