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
        /// A mapping or sequence still open. Its items are appended in place, through the
        /// stack's subscript: a frame taken off the stack and pushed back would share its array
        /// for a moment, and each append would copy it.
        private struct Frame {
            var isMapping: Bool
            var pairs: [Node.Mapping.Element] = []
            var key: Node?
            var nodes: [Node] = []
            var tag: Tag
            var isFlow: Bool
            var mark: Mark
            var anchor: String?
        }

        private var open: [Frame] = []
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
                let string = data.value.map { Self.string($0, count: data.length) } ?? ""
                let node = Node.scalar(Node.Scalar(string, tag(data.tag), style(data.style), start))
                add(node, anchor: YAMLReader.text(data.anchor))
            case YAML_ALIAS_EVENT:
                let name = YAMLReader.text(event.data.alias.anchor) ?? ""
                guard let node = anchors[name] else { throw .undefinedAlias(name: name, mark: start) }
                add(node, anchor: nil)
            case YAML_MAPPING_START_EVENT:
                let data = event.data.mapping_start
                open.append(Frame(isMapping: true, tag: tag(data.tag), isFlow: data.style == YAML_FLOW_MAPPING_STYLE,
                                  mark: start, anchor: YAMLReader.text(data.anchor)))
            case YAML_SEQUENCE_START_EVENT:
                let data = event.data.sequence_start
                open.append(Frame(isMapping: false, tag: tag(data.tag), isFlow: data.style == YAML_FLOW_SEQUENCE_STYLE,
                                  mark: start, anchor: YAMLReader.text(data.anchor)))
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                guard let frame = open.popLast() else { break }
                if frame.isMapping {
                    try Self.checkKeys(frame.pairs)
                    add(.mapping(Node.Mapping(pairs: frame.pairs, tag: frame.tag, style: frame.isFlow ? .flow : .block, mark: frame.mark)),
                        anchor: frame.anchor)
                } else {
                    add(.sequence(Node.Sequence(frame.nodes, frame.tag, frame.isFlow ? .flow : .block, frame.mark)), anchor: frame.anchor)
                }
            default:
                break
            }
            return false
        }

        private mutating func add(_ node: Node, anchor: String?) {
            if let anchor { anchors[anchor] = node }
            let top = open.count - 1
            guard top >= 0 else {
                root = node
                return
            }
            if !open[top].isMapping {
                open[top].nodes.append(node)
            } else if let key = open[top].key {
                open[top].pairs.append((key: key, value: node))
                open[top].key = nil
            } else {
                open[top].key = node
            }
        }

        /// The scalar's bytes as a string; invalid UTF-8 (an escape libyaml let through) is
        /// repaired, as everywhere in Swift.
        private static func string(_ bytes: UnsafeMutablePointer<yaml_char_t>, count: Int) -> String {
            String(unsafeUninitializedCapacity: count) { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                base.initialize(from: bytes, count: count)
                return count
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
