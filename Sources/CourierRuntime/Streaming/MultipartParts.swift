import Foundation
import HTTPTypes

/// One part of a `multipart/*` response, such as one answer of a `multipart/mixed` batch.
public struct MultipartPart: Sendable, Hashable {
    /// The part's own header fields, in the order they came; empty when the part had none
    /// (RFC 2046 then means `Content-Type: text/plain; charset=us-ascii`).
    public var headerFields: HTTPFields
    /// The part's bytes, without the line break that belongs to the next delimiter.
    public var body: Data

    /// Creates a part.
    public init(headerFields: HTTPFields = HTTPFields(), body: Data) {
        self.headerFields = headerFields
        self.body = body
    }

    /// The body decoded as JSON.
    ///
    /// - Parameters:
    ///   - type: What the body decodes to.
    ///   - coding: How keys and dates are decoded.
    ///   - number: The part's position, counting from 1, named in the error.
    /// - Throws: ``StreamingError/undecodablePart(number:reason:)``.
    public func decodeBody<Value: Decodable>(as type: Value.Type, coding: JSONCoding = JSONCoding(),
                                             number: Int = 0) throws(StreamingError) -> Value {
        do {
            return try coding.makeDecoder().decode(Value.self, from: body)
        } catch {
            throw .undecodablePart(number: number, reason: String(describing: error))
        }
    }
}

extension MultipartPart {
    /// An HTTP response carried in a part of type `application/http`, as Google's and OData's batch
    /// answers carry one per call of the batch.
    public struct EmbeddedResponse: Sendable, Hashable {
        /// The status the call got.
        public var status: HTTPResponse.Status
        /// The call's response header fields.
        public var headerFields: HTTPFields
        /// The call's response body.
        public var body: Data

        /// Creates a response.
        public init(status: HTTPResponse.Status, headerFields: HTTPFields = HTTPFields(), body: Data = Data()) {
            self.status = status
            self.headerFields = headerFields
            self.body = body
        }

        /// The body decoded as JSON.
        ///
        /// - Parameters:
        ///   - type: What the body decodes to.
        ///   - coding: How keys and dates are decoded.
        ///   - number: The part's position, counting from 1, named in the error.
        /// - Throws: ``StreamingError/undecodablePart(number:reason:)``.
        public func decodeBody<Value: Decodable>(as type: Value.Type, coding: JSONCoding = JSONCoding(),
                                                 number: Int = 0) throws(StreamingError) -> Value {
            try MultipartPart(headerFields: headerFields, body: body).decodeBody(as: type, coding: coding, number: number)
        }
    }
}

extension MultipartPart {
    /// The HTTP response the part carries when its type is `application/http`: a status line
    /// (`HTTP/1.1 404 Not Found`), header fields, a blank line and the body, as RFC 9112 writes
    /// a response.
    ///
    /// The body stops at the response's `Content-Length` when it gives one, since batch answers
    /// often put a blank line after it; without one the body is the rest of the part. The part's
    /// own `Content-Type` is not checked, so that a server that leaves it out is still read.
    ///
    /// ```swift
    /// for try await part in try await client.runBatch() {
    ///     let answer = try part.embeddedResponse()
    ///     if answer.status.kind == .successful { results.append(try answer.decodeBody(as: Event.self)) }
    /// }
    /// ```
    ///
    /// - Throws: ``StreamingError/malformedMultipart(reason:)`` when the part holds no HTTP response.
    public func embeddedResponse() throws(StreamingError) -> MultipartPart.EmbeddedResponse {
        let bytes = [UInt8](body)
        var index = 0
        /// The next line without its line break (CRLF or a bare LF), or `nil` at the end.
        func nextLine() -> ArraySlice<UInt8>? {
            guard index < bytes.count else { return nil }
            let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = bytes[index..<end]
            index = Swift.min(end + 1, bytes.count)
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            return line
        }
        var statusLine = nextLine()
        // Blank lines before the status line are tolerated, as RFC 9112 asks of a reader.
        while let line = statusLine, line.isEmpty { statusLine = nextLine() }
        let words = (statusLine ?? []).split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count >= 2, words[0].starts(with: Array("HTTP/".utf8)), words[1].count == 3,
              let code = Int(String(decoding: words[1], as: UTF8.self)), (100...999).contains(code) else {
            let shown = String(decoding: (statusLine ?? []).prefix(80), as: UTF8.self)
            throw .malformedMultipart(reason: "The part holds no HTTP response: its first line is '\(shown)', not a status line such as 'HTTP/1.1 200 OK'.")
        }
        let reason = words.count > 2 ? String(decoding: words[2], as: UTF8.self) : ""
        var fields = FieldLines()
        while let line = nextLine(), !line.isEmpty {
            guard fields.read(line) else {
                throw .malformedMultipart(reason: "The HTTP response in the part has a header line that is not 'Name: value': "
                                          + "'\(String(decoding: line.prefix(80), as: UTF8.self))'.")
            }
        }
        let headerFields = fields.finish()
        var content = bytes[index...]
        if let length = headerFields[.contentLength].flatMap(Int.init), length >= 0, length < content.count {
            content = content.prefix(length)
        }
        return MultipartPart.EmbeddedResponse(status: HTTPResponse.Status(code: code, reasonPhrase: reason), headerFields: headerFields, body: Data(content))
    }
}

/// The parts of a `multipart/*` body (RFC 2046), such as a `multipart/mixed` batch answer,
/// parsed as the bytes arrive.
///
/// Each part is handed on whole, with its header fields, as soon as the delimiter after it has
/// arrived: parts come while the server is still writing later ones, and one part never holds
/// more than `maximumPartSize` bytes in memory. Whole parts, rather than a stream of streams,
/// because the parts of the bodies this is for (batch answers) are small complete responses,
/// and a part's body could not be handed on before its end anyway without the reader having
/// to finish each part before asking for the next.
///
/// The rules, as implemented: the preamble before the first delimiter and the epilogue after
/// the close delimiter are skipped; a delimiter is a line break followed by `--` and the
/// boundary (the first may also start the body), and the line break before it belongs to it,
/// not to the part; lines end at CRLF or, leniently, a bare LF; spaces and tabs after a
/// boundary are padding; a header field folded onto a following line is unfolded. The work is
/// linear in the input whatever its chunking: every byte is looked at once.
///
/// The sequence throws ``StreamingError/truncatedMultipart`` when the body ends before the
/// close delimiter (`--boundary--`), so a cut-short batch never looks complete;
/// ``StreamingError/multipartPartTooLarge(limit:)`` and
/// ``StreamingError/multipartHeadersTooLarge(limit:)`` instead of buffering without bound;
/// ``StreamingError/malformedMultipart(reason:)`` for a body that is not multipart.
///
/// ```swift
/// for try await part in try await client.stream(RunBatch(), accept: "multipart/mixed").multipartParts() {
///     print(part.headerFields[.contentType] ?? "text/plain", part.body.count)
/// }
/// ```
public struct MultipartParts<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
    /// A part.
    public typealias Element = MultipartPart

    let base: Base
    /// The boundary, or why the content type named none; the error is thrown by the first read.
    let boundary: Result<String, StreamingError>
    let maximumPartSize: Int
    let maximumHeaderSize: Int

    /// Parses the parts of `base`, delimited by `boundary`.
    ///
    /// - Parameters:
    ///   - base: The body's chunks.
    ///   - boundary: The boundary the body's content type names, without quotes or the leading
    ///     `--`; ``StreamingResponse/multipartParts(maximumPartSize:maximumHeaderSize:)`` reads it
    ///     from the response's `Content-Type` for you.
    ///     One that is empty, longer than 200 bytes or not printable ASCII is thrown by the
    ///     first read, as ``StreamingError/malformedMultipart(reason:)``.
    ///   - maximumPartSize: The most bytes one part's body may hold; 16 MiB by default. A
    ///     larger one ends the sequence with ``StreamingError/multipartPartTooLarge(limit:)``.
    ///   - maximumHeaderSize: The most bytes one part's header section may hold; 64 KiB by
    ///     default. A larger one ends the sequence with ``StreamingError/multipartHeadersTooLarge(limit:)``.
    public init(_ base: Base, boundary: String, maximumPartSize: Int = 16 * 1024 * 1024, maximumHeaderSize: Int = 64 * 1024) {
        self.init(base, boundary: MultipartBoundary.validated(boundary), maximumPartSize: maximumPartSize, maximumHeaderSize: maximumHeaderSize)
    }

    init(_ base: Base, boundary: Result<String, StreamingError>, maximumPartSize: Int, maximumHeaderSize: Int) {
        self.base = base
        self.boundary = boundary
        self.maximumPartSize = Swift.max(0, maximumPartSize)
        self.maximumHeaderSize = Swift.max(0, maximumHeaderSize)
    }

    /// Reads parts one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        /// Mutated in place, never copied out and back, so its buffers are never copied.
        var parser: MultipartParser?
        /// Why there is no parser: the content type named no usable boundary.
        var failure: StreamingError?
        var ready: [MultipartPart] = []
        var finished = false

        /// The next part, or `nil` after the last one.
        public mutating func next() async throws -> MultipartPart? {
            if let failure {
                self.failure = nil
                finished = true
                throw failure
            }
            while ready.isEmpty {
                guard !finished, parser != nil else { return nil }
                guard let chunk = try await base.next() else {
                    finished = true
                    try parser?.finish()
                    return nil
                }
                do {
                    ready = try parser?.feed(chunk) ?? []
                } catch {
                    finished = true
                    throw error
                }
            }
            return ready.removeFirst()
        }
    }

    /// Starts reading parts from the beginning of the body.
    public func makeAsyncIterator() -> AsyncIterator {
        switch boundary {
        case .success(let boundary):
            AsyncIterator(base: base.makeAsyncIterator(),
                          parser: MultipartParser(boundary: boundary, maximumPartSize: maximumPartSize, maximumHeaderSize: maximumHeaderSize))
        case .failure(let error):
            AsyncIterator(base: base.makeAsyncIterator(), parser: nil, failure: error)
        }
    }
}

/// Reading the boundary of a `multipart/*` content type.
package enum MultipartBoundary: Sendable {
    /// The `boundary` parameter of a `multipart/*` content type, quoted or not (RFC 2045,
    /// RFC 2046), such as `batch_1` in `multipart/mixed; boundary="batch_1"`.
    ///
    /// - Throws: ``StreamingError/malformedMultipart(reason:)`` when the content type is
    ///   missing, is not `multipart/*`, names no boundary, or names one that is empty, longer
    ///   than 200 bytes, or holds something other than printable ASCII.
    public static func boundary(inContentType contentType: String?) throws(StreamingError) -> String {
        guard let contentType else {
            throw .malformedMultipart(reason: "The response has no Content-Type, so it names no boundary.")
        }
        let utf8 = Array(contentType.utf8)
        var index = 0
        func skipSpace() {
            while index < utf8.count, utf8[index] == UInt8(ascii: " ") || utf8[index] == UInt8(ascii: "\t") { index += 1 }
        }
        let semicolon = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.count
        let essence = String(decoding: utf8[..<semicolon], as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
        guard essence.hasPrefix("multipart/") else {
            throw .malformedMultipart(reason: "The content type '\(contentType)' is not multipart.")
        }
        index = semicolon
        while index < utf8.count {
            index += 1  // the semicolon
            skipSpace()
            let nameStart = index
            while index < utf8.count, utf8[index] != UInt8(ascii: "="), utf8[index] != UInt8(ascii: ";") { index += 1 }
            let name = String(decoding: utf8[nameStart..<index], as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
            var value: [UInt8] = []
            if index < utf8.count, utf8[index] == UInt8(ascii: "=") {
                index += 1
                skipSpace()
                if index < utf8.count, utf8[index] == UInt8(ascii: "\"") {
                    // A quoted string: a backslash quotes the next byte.
                    index += 1
                    var closed = false
                    while index < utf8.count {
                        let byte = utf8[index]
                        index += 1
                        if byte == UInt8(ascii: "\"") {
                            closed = true
                            break
                        }
                        if byte == UInt8(ascii: "\\"), index < utf8.count {
                            value.append(utf8[index])
                            index += 1
                        } else {
                            value.append(byte)
                        }
                    }
                    if !closed {
                        throw .malformedMultipart(reason: "The content type '\(contentType)' has a quoted parameter without its closing quote.")
                    }
                    while index < utf8.count, utf8[index] != UInt8(ascii: ";") { index += 1 }
                } else {
                    let valueStart = index
                    while index < utf8.count, utf8[index] != UInt8(ascii: ";") { index += 1 }
                    value = Array(utf8[valueStart..<index])
                    while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { value.removeLast() }
                }
            }
            if name == "boundary" {
                return try validated(String(decoding: value, as: UTF8.self)).get()
            }
        }
        throw .malformedMultipart(reason: "The content type '\(contentType)' names no boundary.")
    }

    /// RFC 2046 allows 1 to 70 characters; longer ones are accepted, up to a bound that keeps
    /// the delimiter search cheap, since servers are not always strict. A boundary must not hold
    /// a line break, which the delimiter search relies on.
    static func validated(_ boundary: String) -> Result<String, StreamingError> {
        let bytes = boundary.utf8
        guard !bytes.isEmpty, bytes.count <= 200, bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            return .failure(.malformedMultipart(reason: "The boundary '\(boundary)' is not 1 to 200 printable ASCII characters."))
        }
        return .success(boundary)
    }
}

/// The multipart parser's state between chunks.
///
/// The delimiter is searched for as `LF -- boundary`; since a boundary holds no line break,
/// a partial match that fails can only restart at the failing byte, so the search never goes
/// back over what it matched, and a CR just before the LF is dropped from the part with it.
struct MultipartParser {
    private enum State {
        /// Before the first delimiter: skipped.
        case preamble
        /// Just after `--boundary`: `--` closes, padding and a line break start a part.
        case afterBoundary
        /// After the first `-` of what must be a close delimiter.
        case closing
        /// Spaces and tabs after a boundary, up to its line break.
        case padding(sawCarriageReturn: Bool)
        /// A part's header lines.
        case headers
        /// A part's body.
        case body
        /// After the close delimiter: skipped.
        case epilogue
    }

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// `LF -- boundary`.
    private let delimiter: [UInt8]
    private let maximumPartSize: Int
    private let maximumHeaderSize: Int
    private var state = State.preamble
    /// How many bytes of `delimiter` the latest bytes match. The body (and the preamble)
    /// starts as if just after a line feed, since the line break before a delimiter may be
    /// the one that ended the previous line.
    private var matched = 1
    /// The body so far, with any partly matched delimiter at its end.
    private var body: [UInt8] = []
    /// Where the partly matched delimiter starts in `body`.
    private var matchStart = 0
    /// The header line being read, without its line break.
    private var line: [UInt8] = []
    private var headerBytes = 0
    private var fields = FieldLines()
    private var partNumber = 1

    init(boundary: String, maximumPartSize: Int, maximumHeaderSize: Int) {
        delimiter = [Self.lineFeed, UInt8(ascii: "-"), UInt8(ascii: "-")] + Array(boundary.utf8)
        self.maximumPartSize = maximumPartSize
        self.maximumHeaderSize = maximumHeaderSize
    }

    /// Takes a chunk and returns the parts it completes.
    mutating func feed(_ chunk: Data) throws(StreamingError) -> [MultipartPart] {
        var parts: [MultipartPart] = []
        let bytes = [UInt8](chunk)
        var index = 0
        while index < bytes.count {
            switch state {
            case .preamble:
                index = skipToDelimiter(bytes, from: index)
            case .body:
                index = try scanBody(bytes, from: index, completing: &parts)
            case .afterBoundary:
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "-"): state = .closing
                case UInt8(ascii: " "), UInt8(ascii: "\t"): state = .padding(sawCarriageReturn: false)
                case Self.carriageReturn: state = .padding(sawCarriageReturn: true)
                case Self.lineFeed: startPart()
                default:
                    throw .malformedMultipart(reason: "Part \(partNumber): the boundary is followed by '\(Self.describe(byte))' on its line; "
                                              + "the body holds the boundary where it must not.")
                }
            case .closing:
                guard bytes[index] == UInt8(ascii: "-") else {
                    throw .malformedMultipart(reason: "Part \(partNumber): the boundary is followed by a single '-'.")
                }
                index += 1
                state = .epilogue
            case .padding(let sawCarriageReturn):
                let byte = bytes[index]
                index += 1
                if byte == Self.lineFeed {
                    startPart()
                } else if !sawCarriageReturn, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                    continue
                } else if !sawCarriageReturn, byte == Self.carriageReturn {
                    state = .padding(sawCarriageReturn: true)
                } else {
                    throw .malformedMultipart(reason: "Part \(partNumber): the boundary's line holds '\(Self.describe(byte))' after its padding.")
                }
            case .headers:
                index = try readHeaders(bytes, from: index)
            case .epilogue:
                index = bytes.count
            }
        }
        return parts
    }

    /// Checks that the body ended where it may: after the close delimiter.
    func finish() throws(StreamingError) {
        if case .epilogue = state { return }
        throw .truncatedMultipart
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func startPart() {
        state = .headers
        line.removeAll(keepingCapacity: true)
        headerBytes = 0
        fields = FieldLines()
    }

    /// Moves `matched` on by `byte`; a failed partial match restarts only at a line feed.
    private mutating func advanceMatch(_ byte: UInt8) -> Bool {
        if byte == delimiter[matched] {
            matched += 1
        } else {
            matched = byte == Self.lineFeed ? 1 : 0
        }
        return matched == delimiter.count
    }

    /// Skips preamble bytes up to and including the first delimiter.
    private mutating func skipToDelimiter(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if matched == 0 {
                guard let lineFeed = bytes[index...].firstIndex(of: Self.lineFeed) else { return bytes.count }
                index = lineFeed
            }
            let byte = bytes[index]
            index += 1
            if advanceMatch(byte) {
                matched = 0
                state = .afterBoundary
                return index
            }
        }
        return index
    }

    /// Adds body bytes up to and including the next delimiter, which completes the part.
    private mutating func scanBody(_ bytes: [UInt8], from start: Int, completing parts: inout [MultipartPart]) throws(StreamingError) -> Int {
        var index = start
        while index < bytes.count {
            if matched == 0 {
                // Nothing is matched: everything up to the next line feed is the part's.
                let end = bytes[index...].firstIndex(of: Self.lineFeed) ?? bytes.count
                try append(bytes[index..<end])
                index = end
                if index < bytes.count {
                    // The line feed a delimiter starts with.
                    matchStart = body.count
                    body.append(Self.lineFeed)
                    matched = 1
                    index += 1
                    try checkBodySize()
                }
                continue
            }
            let byte = bytes[index]
            index += 1
            let before = body.count
            if advanceMatch(byte) {
                var end = matchStart
                if end > 0, body[end - 1] == Self.carriageReturn { end -= 1 }
                parts.append(MultipartPart(headerFields: fields.fields, body: Data(body[..<end])))
                partNumber += 1
                body.removeAll(keepingCapacity: body.count <= 64 * 1024)
                matched = 0
                state = .afterBoundary
                return index
            }
            if matched == 1, byte == Self.lineFeed { matchStart = before }
            body.append(byte)
            try checkBodySize()
        }
        return index
    }

    private mutating func append(_ run: ArraySlice<UInt8>) throws(StreamingError) {
        // Checked before the bytes are kept, so a hostile part never costs more than the limit.
        guard body.count + run.count <= maximumPartSize + 1 else {
            throw .multipartPartTooLarge(limit: maximumPartSize)
        }
        body.append(contentsOf: run)
        try checkBodySize()
    }

    /// The bytes certain to be the part's are within the limit; one more is allowed while it is
    /// a CR that the next delimiter would take.
    private func checkBodySize() throws(StreamingError) {
        let committed = matched == 0 ? body.count : matchStart
        if committed <= maximumPartSize { return }
        if committed == maximumPartSize + 1, body[committed - 1] == Self.carriageReturn { return }
        throw .multipartPartTooLarge(limit: maximumPartSize)
    }

    /// Reads header lines up to the blank line that ends them.
    private mutating func readHeaders(_ bytes: [UInt8], from start: Int) throws(StreamingError) -> Int {
        var index = start
        while index < bytes.count {
            let end = bytes[index...].firstIndex(of: Self.lineFeed) ?? bytes.count
            headerBytes += end - index + (end < bytes.count ? 1 : 0)
            guard headerBytes <= maximumHeaderSize else {
                throw .multipartHeadersTooLarge(limit: maximumHeaderSize)
            }
            line.append(contentsOf: bytes[index..<end])
            index = end
            guard index < bytes.count else { break }
            index += 1
            if line.last == Self.carriageReturn { line.removeLast() }
            if line.isEmpty {
                _ = fields.finish()
                state = .body
                body.removeAll(keepingCapacity: true)
                // The blank line's line feed may be the one a delimiter starts with: an empty body.
                matched = 1
                matchStart = 0
                return index
            }
            try readHeaderLine()
            line.removeAll(keepingCapacity: true)
        }
        return index
    }

    private mutating func readHeaderLine() throws(StreamingError) {
        guard fields.read(line[...]) else {
            throw .malformedMultipart(reason: "Part \(partNumber) has a header line that is not 'Name: value': "
                                      + "'\(String(decoding: line.prefix(80), as: UTF8.self))'.")
        }
    }
}

/// Header field lines read one at a time into `HTTPFields`, for a part's header section and for
/// the response an `application/http` part carries.
struct FieldLines {
    private(set) var fields = HTTPFields()
    /// The last field read, kept back until the next line says whether it continues.
    private var pending: (name: HTTPField.Name, value: [UInt8])?

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// Reads a line without its line break; `false` when it is neither `Name: value` nor the
    /// continuation of a folded field.
    mutating func read(_ line: ArraySlice<UInt8>) -> Bool {
        if let first = line.first, Self.isSpace(first), pending != nil {
            // An obsolete folded line continues the field before it (RFC 5322 unfolding).
            pending?.value.append(UInt8(ascii: " "))
            pending?.value.append(contentsOf: line.drop(while: Self.isSpace))
            return true
        }
        commitPending()
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
              let name = HTTPField.Name(String(decoding: line[..<colon], as: UTF8.self)) else {
            return false
        }
        pending = (name, Array(line[(colon + 1)...]))
        return true
    }

    /// The fields, once the blank line that ends them has come.
    mutating func finish() -> HTTPFields {
        commitPending()
        return fields
    }

    private mutating func commitPending() {
        guard let (name, value) = pending else { return }
        let trimmed = value.drop(while: Self.isSpace).reversed().drop(while: Self.isSpace).reversed()
        // `lenientValue` turns control bytes, which a field value must not hold, into spaces.
        fields.append(HTTPField(name: name, lenientValue: trimmed))
        pending = nil
    }
}

extension HTTPBody {
    /// The body read as a `multipart/*` body delimited by `boundary`.
    ///
    /// - Parameters:
    ///   - boundary: The boundary from the response's content type.
    ///   - maximumPartSize: The most bytes one part's body may hold; 16 MiB by default.
    ///   - maximumHeaderSize: The most bytes one part's header section may hold; 64 KiB by default.
    public func multipartParts(boundary: String, maximumPartSize: Int = 16 * 1024 * 1024,
                               maximumHeaderSize: Int = 64 * 1024) -> MultipartParts<HTTPBody> {
        MultipartParts(self, boundary: boundary, maximumPartSize: maximumPartSize, maximumHeaderSize: maximumHeaderSize)
    }
}

extension StreamingResponse {
    /// The body read as the `multipart/*` body its `Content-Type` says it is, such as a
    /// `multipart/mixed` batch answer, with the boundary that field names.
    ///
    /// A `Content-Type` that is not multipart or names no boundary is thrown by the first
    /// read, as ``StreamingError/malformedMultipart(reason:)``, so that a generated method can
    /// return the parts without a second kind of error.
    ///
    /// - Parameters:
    ///   - maximumPartSize: The most bytes one part's body may hold; 16 MiB by default.
    ///   - maximumHeaderSize: The most bytes one part's header section may hold; 64 KiB by default.
    public func multipartParts(maximumPartSize: Int = 16 * 1024 * 1024, maximumHeaderSize: Int = 64 * 1024) -> MultipartParts<HTTPBody> {
        let boundary: Result<String, StreamingError>
        do {
            boundary = .success(try MultipartBoundary.boundary(inContentType: headerFields[.contentType]))
        } catch {
            boundary = .failure(error)
        }
        return MultipartParts(body, boundary: boundary, maximumPartSize: maximumPartSize, maximumHeaderSize: maximumHeaderSize)
    }
}
