import Foundation

/// One event of a `text/event-stream` response.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the last `event:` field, or `message` when there was none.
    public var event: String
    /// The `data:` fields' values joined by line feeds.
    public var data: String
    /// The last event ID at the time of this event: the latest `id:` field of the stream so
    /// far, which is what a reconnection sends as `Last-Event-ID`; `nil` before any.
    public var id: String?
    /// The reconnection delay the server last asked for with `retry:`, in this event or an
    /// earlier one; `nil` when it never did.
    public var retry: Duration?

    /// Creates an event.
    public init(event: String = "message", data: String, id: String? = nil, retry: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}

/// The events of a `text/event-stream` body, parsed by the WHATWG HTML standard's rules as
/// the bytes arrive.
///
/// The rules, as implemented: a leading byte-order mark is dropped; lines end at CRLF, LF or
/// CR; a line starting with `:` is a comment; `field: value` loses one space after the colon;
/// `data` lines join with line feeds; `event` sets the type; `id` (unless it contains NUL)
/// sets the last event ID and `retry` (only digits) the reconnection delay, both lasting across
/// events; other fields are ignored; a blank line dispatches the event, unless it
/// has no data; an event the stream ends before dispatching is dropped.
///
/// ```swift
/// let response = try await client.stream(WatchOrders())
/// for try await event in response.body.serverSentEvents() where event.event == "order" {
///     print(event.data)
/// }
/// ```
public struct ServerSentEvents<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
    /// An event.
    public typealias Element = ServerSentEvent

    let base: Base
    let maximumEventSize: Int

    /// Parses the events of `base`.
    ///
    /// - Parameters:
    ///   - base: The body's chunks.
    ///   - maximumEventSize: The most bytes one line, or one event's data, may hold; 16 MiB
    ///     by default. A longer one ends the sequence with ``StreamingError/lineTooLong(limit:)``.
    public init(_ base: Base, maximumEventSize: Int = 16 * 1024 * 1024) {
        self.base = base
        self.maximumEventSize = maximumEventSize
    }

    /// Reads events one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var parser: EventParser
        var ready: [ServerSentEvent] = []
        var finished = false

        /// The next event, or `nil` when the stream has ended.
        public mutating func next() async throws -> ServerSentEvent? {
            while ready.isEmpty {
                guard !finished, let chunk = try await base.next() else {
                    finished = true
                    return nil
                }
                ready = try parser.feed(chunk)
            }
            return ready.removeFirst()
        }
    }

    /// Starts reading events from the beginning of the body.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), parser: EventParser(maximumEventSize: maximumEventSize))
    }
}

/// The parser's state between chunks.
struct EventParser {
    private var lines: LineSplitter
    private let maximumEventSize: Int
    private var atStart = true
    private var pendingBOM: [UInt8] = []
    private var eventType = ""
    private var data: [UInt8] = []
    private var hasData = false
    private var lastEventID: String?
    private var retry: Duration?

    init(maximumEventSize: Int) {
        self.maximumEventSize = maximumEventSize
        lines = LineSplitter(maximumLineLength: maximumEventSize)
    }

    /// Takes a chunk and returns the events it completes.
    mutating func feed(_ chunk: Data) throws -> [ServerSentEvent] {
        var chunk = chunk
        if atStart {
            // The BOM (EF BB BF) may itself arrive split across chunks.
            pendingBOM += chunk
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if pendingBOM.count < 3, bom.starts(with: pendingBOM) {
                return []
            }
            atStart = false
            chunk = Data(pendingBOM.starts(with: bom) ? pendingBOM.dropFirst(3) : pendingBOM[...])
            pendingBOM = []
        }
        var events: [ServerSentEvent] = []
        var splitter = lines
        defer { lines = splitter }
        try splitter.feed(chunk) { line in
            if let event = try process(line) { events.append(event) }
        }
        return events
    }

    private mutating func process(_ line: [UInt8]) throws -> ServerSentEvent? {
        guard let first = line.first else {
            return dispatch()
        }
        if first == UInt8(ascii: ":") { return nil }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            guard data.count + value.count + 1 <= maximumEventSize else {
                throw StreamingError.lineTooLong(limit: maximumEventSize)
            }
            if hasData { data.append(UInt8(ascii: "\n")) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
               let milliseconds = Int64(String(decoding: value, as: UTF8.self)) {
                retry = .milliseconds(milliseconds)
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data.removeAll(keepingCapacity: true)
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            event: eventType.isEmpty ? "message" : eventType,
            data: String(decoding: data, as: UTF8.self),
            id: lastEventID,
            retry: retry
        )
    }
}

extension HTTPBody {
    /// The body read as a `text/event-stream`.
    ///
    /// - Parameter maximumEventSize: The most bytes one line, or one event's data, may hold.
    public func serverSentEvents(maximumEventSize: Int = 16 * 1024 * 1024) -> ServerSentEvents<HTTPBody> {
        ServerSentEvents(self, maximumEventSize: maximumEventSize)
    }

    /// The body read as JSON Lines (`application/jsonl`, `application/x-ndjson`): one value of
    /// `type` per line, blank lines skipped.
    ///
    /// - Parameters:
    ///   - type: What each line decodes to.
    ///   - coding: How JSON keys and dates are decoded; the client's ``APIClient/Configuration/coding``
    ///     is what generated code passes.
    ///   - maximumLineLength: The most bytes one line may hold; 16 MiB by default.
    public func jsonLines<Value: Decodable & Sendable>(
        of type: Value.Type,
        coding: JSONCoding = JSONCoding(),
        maximumLineLength: Int = 16 * 1024 * 1024
    ) -> JSONLines<HTTPBody, Value> {
        JSONLines(self, coding: coding, maximumLineLength: maximumLineLength)
    }
}
