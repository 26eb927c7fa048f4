import Foundation

extension HTTPBody {
    /// How far an upload or a download has come.
    ///
    /// A progress bar binds to ``fractionCompleted``; when the size is unknown (a chunked
    /// response), show ``completedBytes`` instead.
    public struct Progress: Sendable, Hashable {
        /// The bytes transferred so far.
        public var completedBytes: Int64
        /// The bytes the whole transfer holds, when known in advance.
        public var expectedBytes: Int64?

        /// Creates a progress value.
        public init(completedBytes: Int64, expectedBytes: Int64?) {
            self.completedBytes = completedBytes
            self.expectedBytes = expectedBytes
        }

        /// The share done, from 0 to 1, or `nil` when the size is unknown.
        public var fractionCompleted: Double? {
            guard let expectedBytes, expectedBytes > 0 else { return expectedBytes == 0 ? 1 : nil }
            return Swift.min(1, Double(completedBytes) / Double(expectedBytes))
        }

        /// A stream of progress values and the function that feeds it, for code that would rather
        /// iterate than take a callback.
        ///
        /// ```swift
        /// let (updates, report) = HTTPBody.Progress.makeStream()
        /// Task { for await progress in updates { bar.value = progress.fractionCompleted ?? 0 } }
        /// let file = try await client.download(GetExport(), to: destination, progress: report)
        /// ```
        ///
        /// The stream keeps only the newest value when its reader falls behind, and ends when the
        /// reporting function is released.
        public static func makeStream() -> (updates: AsyncStream<HTTPBody.Progress>, report: @Sendable (HTTPBody.Progress) -> Void) {
            let (stream, continuation) = AsyncStream<HTTPBody.Progress>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let feeder = ProgressFeeder(continuation)
            return (stream, { progress in feeder.yield(progress) })
        }
    }
}

/// Finishes the stream when the last reference to the reporting function goes.
private final class ProgressFeeder: Sendable {
    let continuation: AsyncStream<HTTPBody.Progress>.Continuation

    init(_ continuation: AsyncStream<HTTPBody.Progress>.Continuation) {
        self.continuation = continuation
    }

    func yield(_ progress: HTTPBody.Progress) {
        continuation.yield(progress)
    }

    deinit {
        continuation.finish()
    }
}

extension HTTPBody {
    /// The same bytes, reporting how many have been read each time a chunk is: for an upload,
    /// as the transport takes them to send.
    ///
    /// - Parameter report: Called with the bytes read so far and the body's length, on
    ///   whichever task reads the body; each reading of a repeatable body (a retry) starts from 0.
    public func reportingProgress(_ report: @escaping @Sendable (HTTPBody.Progress) -> Void) -> HTTPBody {
        let expected: Int64? = if case .known(let count) = length { count } else { nil }
        return HTTPBody(ProgressChunks(base: self, expected: expected, report: report), length: length, iterationBehavior: iterationBehavior)
    }
}

/// A body's chunks, counted as they pass.
struct ProgressChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let base: HTTPBody
    let expected: Int64?
    let report: @Sendable (HTTPBody.Progress) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let expected: Int64?
        let report: @Sendable (HTTPBody.Progress) -> Void
        var completed: Int64 = 0

        mutating func next() async throws -> Data? {
            guard let chunk = try await base.next() else { return nil }
            completed += Int64(chunk.count)
            report(HTTPBody.Progress(completedBytes: completed, expectedBytes: expected))
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), expected: expected, report: report)
    }
}
