import CourierLocking
import Foundation

/// The bytes of a request or response body: held in memory, read from a file, or produced
/// by an asynchronous sequence of chunks.
///
/// One type serves both directions, so an upload, a download and a server-sent event stream
/// all pass through transports the same way. A body made from `Data` stays `Data` all the
/// way to the wire: transports ask for ``bufferedData`` first, so the common case costs no
/// more than before bodies could stream.
///
/// ```swift
/// let small = HTTPBody(Data("hello".utf8))
/// let video = try HTTPBody(contentsOf: fileURL)           // read in chunks, never whole
/// for try await chunk in response.body { handle(chunk) }  // a streamed response
/// ```
///
/// A body made from a sequence that can be read only once (``IterationBehavior/single``)
/// cannot be sent again, so a call with one is never retried.
public struct HTTPBody: Sendable {
    /// How many bytes a body holds, when that is known before reading it.
    public enum Length: Sendable, Hashable {
        /// Exactly this many bytes; sent as `Content-Length`.
        case known(Int64)
        /// Not known until the end; sent chunked.
        case unknown
    }

    /// Whether a body can be read more than once.
    public enum IterationBehavior: Sendable, Hashable {
        /// Only once: a second iteration fails with ``HTTPBody/ReadError/alreadyRead``.
        case single
        /// As often as needed, each time from the start: buffered bytes, files, and
        /// sequences that make a fresh iterator every time.
        case multiple
    }

    /// Why reading a body failed, apart from what its source throws.
    public enum ReadError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A single-use body was read a second time, for example by a retry.
        case alreadyRead
        /// The body grew past the limit given to ``HTTPBody/collect(upTo:)``.
        case tooLarge(limit: Int)
        /// A file body could not be opened or read.
        case unreadableFile(path: String, reason: String)

        /// A sentence saying what went wrong.
        public var description: String {
            switch self {
            case .alreadyRead: "The body can be read only once, and it was read already."
            case .tooLarge(let limit): "The body is larger than the \(limit) bytes allowed."
            case .unreadableFile(let path, let reason): "The file \(path) could not be read: \(reason)"
            }
        }
    }

    /// The number of bytes, when known in advance.
    public let length: Length
    /// Whether the body can be read more than once.
    public let iterationBehavior: IterationBehavior

    let storage: Storage
    /// Set on the first iteration of a single-use body.
    private let started: StartFlag?

    enum Storage: Sendable {
        case buffered(Data)
        case file(URL, chunkSize: Int)
        case chunks(@Sendable () -> any ChunkReader)
    }

    /// A body holding `data`.
    public init(_ data: Data) {
        storage = .buffered(data)
        length = .known(Int64(data.count))
        iterationBehavior = .multiple
        started = nil
    }

    /// A body holding the UTF-8 bytes of `text`.
    public init(_ text: String) {
        self.init(Data(text.utf8))
    }

    /// A body read from a file in chunks, so that a large file is never held in memory.
    ///
    /// The file's size is read now and sent as the length; the bytes are read when the body
    /// is sent, and again for each retry.
    ///
    /// - Parameters:
    ///   - fileURL: A `file:` URL.
    ///   - chunkSize: How many bytes to read at a time; 64 KiB by default.
    /// - Throws: ``ReadError/unreadableFile(path:reason:)`` when the URL is not a readable
    ///   regular file.
    public init(contentsOf fileURL: URL, chunkSize: Int = 64 * 1024) throws(ReadError) {
        guard fileURL.isFileURL else {
            throw .unreadableFile(path: fileURL.absoluteString, reason: "It is not a file URL.")
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: fileURL.path)
        } catch {
            throw .unreadableFile(path: fileURL.path, reason: String(describing: error))
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular, let size = attributes[.size] as? NSNumber else {
            throw .unreadableFile(path: fileURL.path, reason: "It is not a regular file.")
        }
        storage = .file(fileURL, chunkSize: Swift.max(1, chunkSize))
        length = .known(size.int64Value)
        iterationBehavior = .multiple
        started = nil
    }

    /// A body produced by an asynchronous sequence of chunks.
    ///
    /// - Parameters:
    ///   - sequence: The chunks, in order.
    ///   - length: The total number of bytes, when known; a wrong known length makes the
    ///     transport fail the request.
    ///   - iterationBehavior: Whether `sequence` can be iterated more than once, each time
    ///     from the start. Say ``IterationBehavior/single`` for streams such as
    ///     `AsyncStream`, which hand each element out once.
    public init<Chunks: AsyncSequence & Sendable>(
        _ sequence: Chunks,
        length: Length,
        iterationBehavior: IterationBehavior
    ) where Chunks.Element == Data {
        storage = .chunks { SequenceReader(sequence.makeAsyncIterator()) }
        self.length = length
        self.iterationBehavior = iterationBehavior
        started = iterationBehavior == .single ? StartFlag() : nil
    }

    /// The whole body, when it is held in memory; `nil` for a file or a stream.
    ///
    /// Transports send such a body in one piece.
    public var bufferedData: Data? {
        if case .buffered(let data) = storage { return data }
        return nil
    }

    /// Whether the body may be sent again, by a retry, from the start.
    public var isRepeatable: Bool {
        iterationBehavior == .multiple
    }

    /// Reads the whole body into memory.
    ///
    /// - Parameter limit: The most bytes accepted.
    /// - Throws: ``ReadError/tooLarge(limit:)`` as soon as the body passes `limit`, without
    ///   reading the rest; whatever the body's source throws.
    public func collect(upTo limit: Int) async throws -> Data {
        if let data = bufferedData {
            guard data.count <= limit else { throw ReadError.tooLarge(limit: limit) }
            return data
        }
        if case .known(let count) = length, count > Int64(limit) {
            throw ReadError.tooLarge(limit: limit)
        }
        var result = Data()
        if case .known(let count) = length {
            result.reserveCapacity(Int(count))
        }
        for try await chunk in self {
            guard result.count + chunk.count <= limit else { throw ReadError.tooLarge(limit: limit) }
            result.append(chunk)
        }
        return result
    }
}

extension HTTPBody: AsyncSequence {
    /// A chunk of bytes.
    public typealias Element = Data

    /// Reads a body's chunks in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var reader: (any ChunkReader)?
        private let makeReader: (@Sendable () -> any ChunkReader)?
        private var failure: ReadError?
        private var pending: Data?

        init(_ body: HTTPBody) {
            if let started = body.started, !started.markStarted() {
                failure = .alreadyRead
                makeReader = nil
                return
            }
            switch body.storage {
            case .buffered(let data):
                pending = data
                makeReader = nil
            case .file(let url, let chunkSize):
                makeReader = { FileReader(url: url, chunkSize: chunkSize) }
            case .chunks(let make):
                makeReader = make
            }
        }

        /// The next chunk, or `nil` at the end.
        public mutating func next() async throws -> Data? {
            if let failure {
                self.failure = nil
                throw failure
            }
            if let data = pending {
                pending = nil
                return data.isEmpty ? nil : data
            }
            if reader == nil {
                guard let makeReader else { return nil }
                reader = makeReader()
            }
            return try await reader?.next()
        }
    }

    /// Starts reading the body from its beginning.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(self)
    }
}

/// Hands out a body's chunks one at a time. A class, so that the iterator struct that holds
/// one can be copied without duplicating the read position.
protocol ChunkReader: AnyObject {
    func next() async throws -> Data?
}

private final class SequenceReader<Base: AsyncIteratorProtocol>: ChunkReader where Base.Element == Data {
    private var base: Base

    init(_ base: Base) {
        self.base = base
    }

    func next() async throws -> Data? {
        // Empty chunks would read as the end to a consumer that stops at an empty read.
        while let chunk = try await base.next() {
            if !chunk.isEmpty { return chunk }
        }
        return nil
    }
}

/// Reads a file a chunk at a time. Each read is a short blocking system call on a local
/// file, the same trade Foundation's own file APIs make.
private final class FileReader: ChunkReader {
    private let url: URL
    private let chunkSize: Int
    private var handle: FileHandle?
    private var finished = false

    init(url: URL, chunkSize: Int) {
        self.url = url
        self.chunkSize = chunkSize
    }

    deinit {
        try? handle?.close()
    }

    func next() async throws -> Data? {
        guard !finished else { return nil }
        try Task.checkCancellation()
        do {
            if handle == nil {
                handle = try FileHandle(forReadingFrom: url)
            }
            if let chunk = try handle?.read(upToCount: chunkSize), !chunk.isEmpty {
                return chunk
            }
        } catch {
            finished = true
            throw HTTPBody.ReadError.unreadableFile(path: url.path, reason: String(describing: error))
        }
        finished = true
        try? handle?.close()
        handle = nil
        return nil
    }
}

/// Records that a single-use body has been read, across the copies of the value.
private final class StartFlag: Sendable {
    private let started = Locked(false)

    /// Returns `true` the first time only.
    func markStarted() -> Bool {
        started.withLock { value in
            defer { value = true }
            return !value
        }
    }
}
