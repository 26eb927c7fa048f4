import Foundation

/// Cuts bytes that arrive in chunks of any size into lines, for event streams and JSON Lines.
///
/// A line ends at LF, CR or CRLF, also when the CR and the LF arrive in different chunks.
/// Each byte is looked at once, so the cost is linear in the input whatever the chunking, and
/// a line longer than the limit is refused instead of growing without bound.
struct LineSplitter {
    /// The longest line accepted, in bytes.
    let maximumLineLength: Int
    private var current: [UInt8] = []
    /// The last byte seen was a CR, so an LF that comes next ends nothing.
    private var afterCarriageReturn = false

    init(maximumLineLength: Int) {
        self.maximumLineLength = maximumLineLength
    }

    /// Appends `chunk` and calls `line` for each line it completes, without its ending.
    mutating func feed(_ chunk: Data, _ line: ([UInt8]) throws -> Void) throws {
        try chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var start = 0
            var index = 0
            let count = bytes.count
            if afterCarriageReturn, count > 0 {
                afterCarriageReturn = false
                if bytes[0] == UInt8(ascii: "\n") {
                    start = 1
                    index = 1
                }
            }
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                    try append(bytes, from: start, to: index)
                    try line(current)
                    current.removeAll(keepingCapacity: true)
                    index += 1
                    if byte == UInt8(ascii: "\r") {
                        if index < count {
                            if bytes[index] == UInt8(ascii: "\n") { index += 1 }
                        } else {
                            afterCarriageReturn = true
                        }
                    }
                    start = index
                } else {
                    index += 1
                }
            }
            try append(bytes, from: start, to: count)
        }
    }

    /// The bytes after the last line ending, which the stream ended before completing.
    var remainder: [UInt8] { current }

    private mutating func append(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) throws {
        guard end > start else { return }
        guard current.count + (end - start) <= maximumLineLength else {
            throw StreamingError.lineTooLong(limit: maximumLineLength)
        }
        current.append(contentsOf: bytes[start..<end])
    }
}

/// Why reading a stream of events, JSON lines or multipart parts failed, apart from the connection.
public enum StreamingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line, or an event's data, grew past the limit before it ended.
    case lineTooLong(limit: Int)
    /// A JSON line (counting from 1) did not decode as the expected type.
    case undecodableLine(number: Int, reason: String)
    /// An event's data did not decode as the expected type.
    case undecodableEvent(id: String?, event: String, reason: String)
    /// A multipart body ended before its close delimiter (`--boundary--`): the connection
    /// ended early, or the server never finished the body.
    case truncatedMultipart
    /// A part of a multipart body grew past the limit before its delimiter came.
    case multipartPartTooLarge(limit: Int)
    /// A part's header section grew past the limit before the blank line that ends it.
    case multipartHeadersTooLarge(limit: Int)
    /// A multipart body, or its content type, does not follow RFC 2046.
    case malformedMultipart(reason: String)
    /// A part of a multipart body (counting from 1) did not decode as the expected type.
    case undecodablePart(number: Int, reason: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .lineTooLong(let limit):
            "A line of the stream is longer than the \(limit) bytes allowed."
        case .undecodableLine(let number, let reason):
            "Line \(number) of the stream is not the expected JSON: \(reason)"
        case .undecodableEvent(let id, let event, let reason):
            "The '\(event)' event\(id.map { " with id '\($0)'" } ?? "") is not the expected JSON: \(reason)"
        case .truncatedMultipart:
            "The multipart body ended before its close delimiter."
        case .multipartPartTooLarge(let limit):
            "A part of the multipart body is larger than the \(limit) bytes allowed."
        case .multipartHeadersTooLarge(let limit):
            "The header fields of a part of the multipart body are longer than the \(limit) bytes allowed."
        case .malformedMultipart(let reason):
            "The body is not a well-formed multipart body: \(reason)"
        case .undecodablePart(let number, let reason):
            "Part \(number) of the multipart body is not the expected JSON: \(reason)"
        }
    }
}
