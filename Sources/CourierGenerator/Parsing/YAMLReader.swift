// libyaml as Yams builds it: Yams' C target, which a package depending on Yams can import. The
// same parser Yams wraps, without Yams' node layer, and no system library to install on macOS.
import CYaml

/// Builds ``Node`` trees from libyaml's event parse.
///
/// One pass over the events with an explicit stack (no recursion, so depth costs no Swift stack;
/// libyaml refuses more than 1000 levels), anchors kept by name for their aliases, and duplicate
/// keys found as each mapping closes, both occurrences known by position.
enum YAMLReader {
    /// Why a document could not be read, with libyaml's own words and positions.
    enum Failure: Error {
        /// A character libyaml does not accept; `offset` is in bytes from the start.
        case reader(problem: String, offset: Int, value: Int)
        /// A token cannot be read.
        case scanner(context: Context?, problem: String, mark: Mark)
        /// The tokens do not form a document.
        case parser(context: Context?, problem: String, mark: Mark)
        /// An alias names no anchor before it.
        case undefinedAlias(name: String, mark: Mark)
        /// A mapping has a key twice.
        case duplicateKey(String, first: Mark, second: Mark)
        /// A second document starts here; a file holds one.
        case anotherDocument(Mark)
        /// libyaml ran out of memory.
        case memory
    }

    /// What libyaml was reading when it failed, and where that began.
    struct Context {
        var text: String
        var mark: Mark
    }

    /// The single document in `text`, or `nil` for a stream with none.
    static func read(_ text: String) throws(Failure) -> Node? {
        var text = text
        var outcome: Result<Node?, Failure> = .success(nil)
        text.withUTF8 { bytes in
            outcome = read(bytes)
        }
        return try outcome.get()
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Node?, Failure> {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return .failure(.memory) }
        defer { yaml_parser_delete(&parser) }
        // An empty buffer's base address may be nil; libyaml needs a pointer either way.
        let empty: [UInt8] = [0]
        empty.withUnsafeBufferPointer { placeholder in
            yaml_parser_set_input_string(&parser, bytes.baseAddress ?? placeholder.baseAddress, bytes.count)
        }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        var builder = Builder()
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return .failure(failure(of: parser)) }
            defer { yaml_event_delete(&event) }
            do throws(Failure) {
                if try builder.take(event) { return .success(builder.root) }
            } catch {
                return .failure(error)
            }
        }
    }

    private static func failure(of parser: yaml_parser_t) -> Failure {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        let context = parser.context.map { Context(text: String(cString: $0), mark: mark(parser.context_mark)) }
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return .memory
        case YAML_READER_ERROR:
            return .reader(problem: problem, offset: parser.problem_offset, value: Int(parser.problem_value))
        case YAML_SCANNER_ERROR:
            return .scanner(context: context, problem: problem, mark: mark(parser.problem_mark))
        default:
            return .parser(context: context, problem: problem, mark: mark(parser.problem_mark))
        }
    }

    fileprivate static func mark(_ mark: yaml_mark_t) -> Mark {
        Mark(line: mark.line + 1, column: mark.column + 1)
    }

    fileprivate static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// The nodes being built, innermost last.
    private struct Builder {
        private enum Open {
            case mapping(pairs: [Node.Mapping.Element], key: Node?, tag: Tag, style: Node.Mapping.Style, mark: Mark, anchor: String?)
            case sequence(nodes: [Node], tag: Tag, style: Node.Sequence.Style, mark: Mark, anchor: String?)
        }

        private var open: [Open] = []
        private var anchors: [String: Node] = [:]
        private var documentEnded = false
        private(set) var root: Node?

        /// Takes one event; `true` once the stream has ended.
        mutating func take(_ event: yaml_event_t) throws(Failure) -> Bool {
            let start = YAMLReader.mark(event.start_mark)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return true
            case YAML_DOCUMENT_START_EVENT:
                if documentEnded { throw .anotherDocument(start) }
            case YAML_DOCUMENT_END_EVENT:
                documentEnded = true
            case YAML_SCALAR_EVENT:
                let data = event.data.scalar
                let string = data.value.map {
                    String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self)
                } ?? ""
                let node = Node.scalar(Node.Scalar(string, tag(data.tag), style(data.style), start))
                try add(node, anchor: YAMLReader.text(data.anchor))
            case YAML_ALIAS_EVENT:
                let name = YAMLReader.text(event.data.alias.anchor) ?? ""
                guard let node = anchors[name] else { throw .undefinedAlias(name: name, mark: start) }
                try add(node, anchor: nil)
            case YAML_MAPPING_START_EVENT:
                let data = event.data.mapping_start
                let style: Node.Mapping.Style = data.style == YAML_FLOW_MAPPING_STYLE ? .flow : .block
                open.append(.mapping(pairs: [], key: nil, tag: tag(data.tag), style: style, mark: start,
                                     anchor: YAMLReader.text(data.anchor)))
            case YAML_SEQUENCE_START_EVENT:
                let data = event.data.sequence_start
                let style: Node.Sequence.Style = data.style == YAML_FLOW_SEQUENCE_STYLE ? .flow : .block
                open.append(.sequence(nodes: [], tag: tag(data.tag), style: style, mark: start, anchor: YAMLReader.text(data.anchor)))
            case YAML_MAPPING_END_EVENT:
                guard case .mapping(let pairs, _, let tag, let style, let mark, let anchor)? = open.popLast() else { break }
                try Self.checkKeys(pairs)
                try add(.mapping(Node.Mapping(pairs: pairs, tag: tag, style: style, mark: mark)), anchor: anchor)
            case YAML_SEQUENCE_END_EVENT:
                guard case .sequence(let nodes, let tag, let style, let mark, let anchor)? = open.popLast() else { break }
                try add(.sequence(Node.Sequence(nodes, tag, style, mark)), anchor: anchor)
            default:
                break
            }
            return false
        }

        private mutating func add(_ node: Node, anchor: String?) throws(Failure) {
            if let anchor { anchors[anchor] = node }
            guard let top = open.popLast() else {
                root = node
                return
            }
            switch top {
            case .mapping(var pairs, let key?, let tag, let style, let mark, let anchor):
                pairs.append((key: key, value: node))
                open.append(.mapping(pairs: pairs, key: nil, tag: tag, style: style, mark: mark, anchor: anchor))
            case .mapping(let pairs, nil, let tag, let style, let mark, let anchor):
                open.append(.mapping(pairs: pairs, key: node, tag: tag, style: style, mark: mark, anchor: anchor))
            case .sequence(var nodes, let tag, let style, let mark, let anchor):
                nodes.append(node)
                open.append(.sequence(nodes: nodes, tag: tag, style: style, mark: mark, anchor: anchor))
            }
        }

        /// The first scalar key written twice, at both places.
        private static func checkKeys(_ pairs: [Node.Mapping.Element]) throws(Failure) {
            guard pairs.count > 1 else { return }
            var seen: [String: Mark] = [:]
            seen.reserveCapacity(pairs.count)
            for pair in pairs {
                guard case .scalar(let key) = pair.key else { continue }
                let mark = key.mark ?? Mark(line: 1, column: 1)
                if let first = seen.updateValue(mark, forKey: key.string) {
                    throw .duplicateKey(key.string, first: first, second: mark)
                }
            }
        }

        private func tag(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> Tag {
            pointer.map { Tag(rawValue: String(cString: $0)) } ?? .implicit
        }

        private func style(_ style: yaml_scalar_style_t) -> Node.Scalar.Style {
            switch style {
            case YAML_PLAIN_SCALAR_STYLE: .plain
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: .literal
            case YAML_FOLDED_SCALAR_STYLE: .folded
            default: .any
            }
        }
    }
}
