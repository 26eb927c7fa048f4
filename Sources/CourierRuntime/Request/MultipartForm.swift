import Foundation
import HTTPTypes

/// A `multipart/form-data` body (RFC 7578): text fields and files, each file part read as it
/// is sent, so a large file is never held in memory.
///
/// ```swift
/// let form = MultipartForm(parts: [
///     .field("title", "Holiday"),
///     try .file("photo", filename: "beach.jpg", contentType: "image/jpeg", contentsOf: photoURL),
/// ])
/// let body = RequestBody.multipart(form)
/// ```
///
/// The boundary is random. A part held in memory is checked against it before anything is
/// sent, and a new boundary is drawn if one occurs in it; a streamed part is checked as it is
/// read, and the body fails with ``MultipartForm/EncodingError/boundaryInContent(partName:)`` in the
/// (2⁻¹²⁸-unlikely) case that it holds the boundary.
public struct MultipartForm: Sendable {
    /// One part: a name, optional file name and content type, extra header fields, and the bytes.
    public struct Part: Sendable {
        /// The form field's name (`Content-Disposition: form-data; name="…"`).
        public var name: String
        /// The file name, for a file part.
        public var filename: String?
        /// The part's `Content-Type`; none for a plain text field.
        public var contentType: String?
        /// More header fields for this part, such as `Content-ID` or `Content-Transfer-Encoding`.
        public var headerFields: HTTPFields
        /// The part's bytes.
        public var body: HTTPBody

        /// Creates a part.
        public init(name: String, filename: String? = nil, contentType: String? = nil, headerFields: HTTPFields = HTTPFields(), body: HTTPBody) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.headerFields = headerFields
            self.body = body
        }

        /// A text field.
        public static func field(_ name: String, _ value: String) -> Part {
            Part(name: name, body: HTTPBody(value))
        }

        /// A file from bytes in memory.
        public static func file(_ name: String, filename: String, contentType: String, data: Data, headerFields: HTTPFields = HTTPFields()) -> Part {
            Part(name: name, filename: filename, contentType: contentType, headerFields: headerFields, body: HTTPBody(data))
        }

        /// A file read from disk in chunks as it is sent.
        ///
        /// - Throws: ``HTTPBody/ReadError/unreadableFile(path:reason:)`` when the URL is not a
        ///   readable regular file.
        public static func file(_ name: String, filename: String, contentType: String, contentsOf fileURL: URL,
                                headerFields: HTTPFields = HTTPFields()) throws(HTTPBody.ReadError) -> Part {
            Part(name: name, filename: filename, contentType: contentType, headerFields: headerFields, body: try HTTPBody(contentsOf: fileURL))
        }
    }

    /// Why a form could not be encoded.
    public enum EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A streamed part contained the boundary, so the body would not parse as sent.
        case boundaryInContent(partName: String)
        /// A part's extra header field is one the form writes itself (`Content-Disposition`,
        /// `Content-Type`), or its value holds a line break.
        case invalidPartHeader(partName: String, field: String)
        /// The boundary given is not 1 to 70 characters of RFC 2046's allowed set.
        case invalidBoundary(String)

        /// A sentence saying what went wrong.
        public var description: String {
            switch self {
            case .boundaryInContent(let name): "The part '\(name)' contains the multipart boundary."
            case .invalidPartHeader(let name, let field): "The part '\(name)' sets the header field '\(field)', which the form writes itself or cannot send."
            case .invalidBoundary(let boundary): "'\(boundary)' is not a valid multipart boundary."
            }
        }
    }

    /// The parts, in order.
    public var parts: [Part]
    /// The boundary between parts.
    public private(set) var boundary: String
    private let boundaryIsRandom: Bool

    /// Creates a form with a random boundary.
    public init(parts: [Part]) {
        self.parts = parts
        boundary = Self.randomBoundary()
        boundaryIsRandom = true
    }

    /// Creates a form with the boundary given, for tests that compare bytes.
    ///
    /// - Throws: ``EncodingError/invalidBoundary(_:)`` when it is not 1 to 70 characters
    ///   of letters, digits and `'()+_,-./:=?` (no trailing space).
    public init(parts: [Part], boundary: String) throws(EncodingError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=?")
        guard (1...70).contains(boundary.count), boundary.allSatisfy({ allowed.contains($0) }) else {
            throw .invalidBoundary(boundary)
        }
        self.parts = parts
        self.boundary = boundary
        boundaryIsRandom = false
    }

    /// The `Content-Type` to send with the body.
    public var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return "courier-" + String((0..<32).map { _ in digits[Int(generator.next() % 16)] })
    }

    /// The encoded body and the content type that names its boundary.
    ///
    /// Parts in memory are checked against the boundary here; with a random boundary a new one
    /// is drawn when a part contains it.
    public func encoded() throws(EncodingError) -> (body: HTTPBody, contentType: String) {
        var form = self
        for part in parts {
            for field in part.headerFields {
                let name = field.name.canonicalName
                if name == "content-disposition" || name == "content-type" || field.value.contains(where: { $0 == "\r" || $0 == "\n" }) {
                    throw .invalidPartHeader(partName: part.name, field: field.name.rawName)
                }
            }
        }
        while let clash = form.parts.first(where: { $0.body.bufferedData.map { Self.contains($0, Data("--\(form.boundary)".utf8)) } ?? false }) {
            guard form.boundaryIsRandom else { throw .boundaryInContent(partName: clash.name) }
            form.boundary = Self.randomBoundary()
        }
        return (form.makeBody(), form.contentType)
    }

    private func makeBody() -> HTTPBody {
        let delimiter = Data("--\(boundary)".utf8)
        var pieces: [Piece] = []
        var total: Int64? = 0
        for part in parts {
            let head = Data("--\(boundary)\r\n".utf8) + Self.headerBlock(of: part)
            pieces.append(.bytes(head))
            pieces.append(.part(part.body, name: part.name))
            pieces.append(.bytes(Data("\r\n".utf8)))
            if let known = total, case .known(let length) = part.body.length {
                total = known + Int64(head.count) + length + 2
            } else {
                total = nil
            }
        }
        let closing = Data("--\(boundary)--\r\n".utf8)
        pieces.append(.bytes(closing))
        total = total.map { $0 + Int64(closing.count) }
        let repeatable = parts.allSatisfy(\.body.isRepeatable)
        if pieces.allSatisfy({ if case .bytes = $0 { true } else { $0.bufferedData != nil } }) {
            // Everything is in memory: one buffer, sent in one piece.
            return HTTPBody(pieces.reduce(into: Data()) { $0.append($1.bufferedData ?? Data()) })
        }
        return HTTPBody(MultipartChunks(pieces: pieces, delimiter: delimiter), length: total.map { .known($0) } ?? .unknown,
                        iterationBehavior: repeatable ? .multiple : .single)
    }

    /// The part's header lines and the blank line after them.
    static func headerBlock(of part: Part) -> Data {
        var text = "Content-Disposition: form-data; name=\"\(escape(part.name))\""
        if let filename = part.filename {
            text += "; filename=\"\(escape(filename))\""
        }
        text += "\r\n"
        if let contentType = part.contentType {
            text += "Content-Type: \(contentType)\r\n"
        }
        for field in part.headerFields {
            text += "\(field.name.rawName): \(field.value)\r\n"
        }
        return Data((text + "\r\n").utf8)
    }

    /// Escapes a name as the WHATWG form encoding does: `"` as `%22`, CR and LF as `%0D` and `%0A`.
    static func escape(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func contains(_ haystack: Data, _ needle: Data) -> Bool {
        haystack.range(of: needle) != nil
    }

    enum Piece: Sendable {
        case bytes(Data)
        case part(HTTPBody, name: String)

        var bufferedData: Data? {
            switch self {
            case .bytes(let data): data
            case .part(let body, _): body.bufferedData
            }
        }
    }
}

/// The form's bytes in order, each streamed part checked for the boundary as it passes,
/// across chunk boundaries, in time linear in its length.
struct MultipartChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let pieces: [MultipartForm.Piece]
    let delimiter: Data

    struct AsyncIterator: AsyncIteratorProtocol {
        let pieces: [MultipartForm.Piece]
        let delimiter: Data
        var index = 0
        var current: HTTPBody.AsyncIterator?
        var currentName = ""
        /// The last bytes of the part so far, enough to find a delimiter split across chunks.
        var tail = Data()

        mutating func next() async throws -> Data? {
            while index < pieces.count {
                if var iterator = current {
                    let chunk = try await iterator.next()
                    current = iterator
                    if let chunk {
                        var window = tail
                        window.append(chunk)
                        if window.range(of: delimiter) != nil {
                            throw MultipartForm.EncodingError.boundaryInContent(partName: currentName)
                        }
                        tail = window.suffix(delimiter.count - 1)
                        return chunk
                    }
                    current = nil
                    index += 1
                    continue
                }
                switch pieces[index] {
                case .bytes(let data):
                    index += 1
                    return data
                case .part(let body, let name):
                    current = body.makeAsyncIterator()
                    currentName = name
                    tail = Data()
                }
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pieces: pieces, delimiter: delimiter)
    }
}

extension MultipartForm {
    /// A file for a multipart form's file field: its name, content type and bytes.
    ///
    /// ```swift
    /// let photo = try MultipartForm.File(contentsOf: photoURL, contentType: "image/jpeg")   // streamed
    /// let note = MultipartForm.File(filename: "note.txt", contentType: "text/plain", data: Data("hi".utf8))
    /// ```
    public struct File: Sendable {
        /// The file name sent in `Content-Disposition`.
        public var filename: String
        /// The part's `Content-Type`.
        public var contentType: String
        /// More header fields for the part, such as `Content-ID`.
        public var headerFields: HTTPFields
        /// The bytes.
        public var body: HTTPBody
        /// Header fields a spec declares for the part (its `headers:`), written after
        /// ``headerFields`` (replacing a field of the same name), each value spelled as a header
        /// parameter's is. They are checked when the request is built: a value holding a line break
        /// fails with ``MultipartForm/EncodingError/invalidPartHeader(partName:field:)`` instead of being sent.
        public var partHeaders = Parameters()

        /// A file from a body.
        public init(filename: String, contentType: String, body: HTTPBody, headerFields: HTTPFields = HTTPFields()) {
            self.filename = filename
            self.contentType = contentType
            self.body = body
            self.headerFields = headerFields
        }

        /// A file from bytes in memory.
        public init(filename: String, contentType: String, data: Data, headerFields: HTTPFields = HTTPFields()) {
            self.init(filename: filename, contentType: contentType, body: HTTPBody(data), headerFields: headerFields)
        }

        /// A file on disk, read in chunks as it is sent; the file name is the URL's last component
        /// unless given.
        ///
        /// - Throws: ``HTTPBody/ReadError/unreadableFile(path:reason:)`` when the URL is not a
        ///   readable regular file.
        public init(contentsOf fileURL: URL, contentType: String, filename: String? = nil, headerFields: HTTPFields = HTTPFields()) throws(HTTPBody.ReadError) {
            self.init(filename: filename ?? fileURL.lastPathComponent, contentType: contentType, body: try HTTPBody(contentsOf: fileURL),
                      headerFields: headerFields)
        }
    }
}

extension MultipartForm.File {
    /// This file with more header fields for its part; `nil` values are left out. Generated
    /// clients pass a spec's declared part headers through this.
    ///
    /// ```swift
    /// let file = photo.withPartHeaders(["X-Checksum": checksum, "Content-Language": language])
    /// ```
    public func withPartHeaders(_ headers: Parameters) -> MultipartForm.File {
        var file = self
        for item in headers.items {
            file.partHeaders.append(item.name, item.value)
        }
        return file
    }
}
