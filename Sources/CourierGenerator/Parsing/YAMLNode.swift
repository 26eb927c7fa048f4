/// A YAML node as Courier reads it: every scalar stays the string it was written as, with its
/// position, and typing is left to the spec parser (which can then say "expected a number"
/// instead of silently reading `yes` as a boolean).
///
/// Courier's own type rather than Yams' `Node`, whose every node carries a `Tag` object and whose
/// mappings are found by building a key node per lookup: ``YAMLReader`` builds these straight from
/// libyaml's events, in a fraction of the time and memory (docs/BENCHMARKS.md).
enum Node: Sendable {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    /// Where the node starts in its file.
    var mark: Mark? {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .mapping(let mapping): mapping.mark
        case .sequence(let sequence): sequence.mark
        }
    }

    /// The node's explicit tag (`!!binary`, `!custom`), or ``Tag/implicit``.
    var tag: Tag {
        switch self {
        case .scalar(let scalar): scalar.tag
        case .mapping(let mapping): mapping.tag
        case .sequence(let sequence): sequence.tag
        }
    }

    /// The scalar, for a scalar node.
    var scalar: Scalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// Whether this is the scalar `text`.
    func isScalar(_ text: String) -> Bool {
        if case .scalar(let scalar) = self { return scalar.string == text }
        return false
    }

    /// The mapping, for a mapping node.
    var mapping: Mapping? {
        if case .mapping(let mapping) = self { return mapping }
        return nil
    }

    /// The sequence, for a sequence node.
    var sequence: Sequence? {
        if case .sequence(let sequence) = self { return sequence }
        return nil
    }

    /// The scalar's text, for a scalar node.
    var string: String? { scalar?.string }
}

/// A line and column in a YAML file, both starting at 1; columns count characters.
///
/// Stored as 32-bit numbers because every node keeps one: at 8 bytes instead of 16, a node with
/// its mark fits in 48 bytes, and a 1.5 MB document's nodes take about a fifth less memory. A
/// line or column beyond 4,294,967,295 is stored as that number.
struct Mark: Hashable, Sendable {
    private var storedLine: UInt32
    private var storedColumn: UInt32

    /// The line, from 1.
    var line: Int { Int(storedLine) }
    /// The column, from 1, in characters.
    var column: Int { Int(storedColumn) }

    /// The mark at `line` and `column`.
    init(line: Int, column: Int) {
        storedLine = UInt32(clamping: line)
        storedColumn = UInt32(clamping: column)
    }
}

/// An explicit YAML tag as written (`tag:yaml.org,2002:binary` for `!!binary`, `!custom`), or
/// none.
struct Tag: Hashable, Sendable {
    /// The tag's full name; empty when the node has no explicit tag.
    var rawValue: String

    /// No explicit tag: the node means what its position in the spec says.
    static let implicit = Tag(rawValue: "")

    /// The tags that mean what an untagged node of their kind means anyway.
    static let plain: Set<String> = ["", "!", "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"]
}

extension Node {
    /// A scalar: its text, as written, unescaped.
    struct Scalar: Sendable {
        /// How the scalar is written.
        enum Style: Sendable {
            case any, plain, singleQuoted, doubleQuoted, literal, folded
        }

        var string: String
        var tag: Tag
        var style: Style
        var mark: Mark?

        init(_ string: String, _ tag: Tag = .implicit, _ style: Style = .any, _ mark: Mark? = nil) {
            self.string = string
            self.tag = tag
            self.style = style
            self.mark = mark
        }
    }

    /// How a mapping or sequence is written: in block style (a key or `- ` item per line), in
    /// flow style (`{ … }`, `[ … ]`), or unknown for a node Courier built itself.
    enum CollectionStyle: Sendable {
        case any, block, flow
    }

    /// A mapping: its entries in the order written.
    struct Mapping: RandomAccessCollection, Sendable {
        typealias Style = Node.CollectionStyle

        typealias Element = (key: Node, value: Node)

        let pairs: [Element]
        var tag: Tag
        var style: Style
        var mark: Mark?
        /// The first entry of each key, for mappings long enough that a scan costs more than a
        /// hash: a document's `paths` and `components/schemas`, which every `$ref` looks into.
        private let positions: [String: Int]?

        /// Mappings with at least this many entries are indexed by key.
        private static let indexedCount = 16

        init(_ pairs: [(Node, Node)], _ tag: Tag = .implicit, _ style: Style = .any, _ mark: Mark? = nil) {
            self.init(pairs: pairs.map { (key: $0.0, value: $0.1) }, tag: tag, style: style, mark: mark)
        }

        init(pairs: [Element], tag: Tag, style: Style, mark: Mark?) {
            self.pairs = pairs
            self.tag = tag
            self.style = style
            self.mark = mark
            if pairs.count >= Self.indexedCount {
                var positions: [String: Int] = [:]
                positions.reserveCapacity(pairs.count)
                for (position, pair) in pairs.enumerated() {
                    if case .scalar(let key) = pair.key, positions[key.string] == nil { positions[key.string] = position }
                }
                self.positions = positions
            } else {
                positions = nil
            }
        }

        var startIndex: Int { pairs.startIndex }
        var endIndex: Int { pairs.endIndex }
        subscript(position: Int) -> Element { pairs[position] }

        /// The keys, in order.
        var keys: [Node] { pairs.map(\.key) }

        /// The value of the first entry whose key is the scalar `key`.
        subscript(key: String) -> Node? {
            position(of: key).map { pairs[$0].value }
        }

        /// The position of the first entry whose key is the scalar `key`.
        func position(of key: String) -> Int? {
            if let positions { return positions[key] }
            // The closure borrows each entry; binding `for pair in pairs` would copy both nodes.
            return pairs.firstIndex { $0.key.isScalar(key) }
        }
    }

    /// A sequence: its items in order.
    struct Sequence: RandomAccessCollection, Sendable {
        typealias Style = Node.CollectionStyle

        var nodes: [Node]
        var tag: Tag
        var style: Style
        var mark: Mark?

        init(_ nodes: [Node], _ tag: Tag = .implicit, _ style: Style = .any, _ mark: Mark? = nil) {
            self.nodes = nodes
            self.tag = tag
            self.style = style
            self.mark = mark
        }

        var startIndex: Int { nodes.startIndex }
        var endIndex: Int { nodes.endIndex }
        subscript(position: Int) -> Node { nodes[position] }
    }
}
