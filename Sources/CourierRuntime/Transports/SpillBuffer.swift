import CourierLocking
import Foundation

/// The bytes of a streamed URLSession response between the session delegate, which receives
/// them as fast as the network brings them, and the reader, which may be slower.
///
/// FoundationNetworking cannot be slowed down: suspending a running task does not stop it
/// reading (measured: a 50 MB download rose by 43–52 MB with suspension). So the buffer holds
/// at most ``memoryLimit`` unread bytes in memory and writes the rest to a temporary file,
/// which the reader drains in order once it catches up. A reader that keeps up never touches
/// the disk; one that falls behind costs disk, not memory.
final class SpillBuffer: Sendable {
    /// The most unread bytes kept in memory.
    static let memoryLimit = 1024 * 1024

    private let state = Locked(State())
    private let onReaderGone: @Sendable () -> Void

    /// - Parameter onReaderGone: Called once when the reader stops before the end (cancelled, or
    ///   its iterator dropped), to cancel the task.
    init(onReaderGone: @escaping @Sendable () -> Void) {
        self.onReaderGone = onReaderGone
    }

    deinit {
        state.withLock { $0.removeSpill() }
    }

    // MARK: The delegate's side

    /// Takes bytes the delegate received.
    func append(_ data: Data) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.readerGone, state.ending == nil else { return nil }
            state.store(data)
            return state.takeWaiter()
        }
        waiter?.resume()
    }

    /// Ends the body, completely or with a failure.
    func finish(_ result: Result<Void, TransportError>) {
        let waiter = state.withLock { state in
            if state.ending == nil { state.ending = result }
            return state.takeWaiter()
        }
        waiter?.resume()
    }

    // MARK: The reader's side

    /// The next chunk, `nil` at the end of a complete body.
    func next() async throws -> Data? {
        while true {
            try Task.checkCancellation()
            switch try state.withLock({ try $0.take() }) {
            case .chunk(let chunk):
                return chunk
            case .end:
                return nil
            case .wait:
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        if !park(continuation) { continuation.resume() }
                    }
                } onCancel: {
                    wake()
                }
            }
        }
    }

    /// Stores the reader's continuation unless something is ready already; `false` then.
    private func park(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        state.withLock { state in
            if state.hasSomethingToRead || Task.isCancelled { return false }
            state.waiter = continuation
            return true
        }
    }

    private func wake() {
        state.withLock { $0.takeWaiter() }?.resume()
    }

    /// The reader stopped before the end.
    func readerStopped() {
        let first = state.withLock { state in
            let first = !state.readerGone && state.ending == nil
            state.readerGone = true
            state.memory = []
            state.memoryBytes = 0
            state.removeSpill()
            return first
        }
        if first { onReaderGone() }
    }

    private enum Step {
        case chunk(Data)
        case end
        case wait
    }

    /// Everything the delegate and the reader share, touched only under the lock.
    private struct State {
        var memory: [Data] = []
        var memoryHead = 0
        var memoryBytes = 0
        var spill: (url: URL, writer: FileHandle, reader: FileHandle)?
        var spilledUnread: Int64 = 0
        var ending: Result<Void, TransportError>?
        var waiter: CheckedContinuation<Void, Never>?
        var readerGone = false

        var hasSomethingToRead: Bool {
            memoryHead < memory.count || spilledUnread > 0 || ending != nil
        }

        /// Keeps `data` in memory while under the limit, on disk after.
        mutating func store(_ data: Data) {
            if spill == nil, memoryBytes + data.count <= SpillBuffer.memoryLimit {
                memory.append(data)
                memoryBytes += data.count
                return
            }
            // Once anything is on disk, later bytes go there too, so the order holds.
            if spill == nil { openSpill() }
            guard let spill else {
                ending = .failure(TransportError(.other, underlying: SpillFailure(reason: "No temporary file could be created.")))
                return
            }
            do {
                try spill.writer.write(contentsOf: data)
                spilledUnread += Int64(data.count)
            } catch {
                ending = .failure(TransportError(.other, underlying: SpillFailure(reason: String(describing: error))))
            }
        }

        /// What the reader can have now, without waiting.
        mutating func take() throws -> Step {
            if memoryHead < memory.count {
                let chunk = memory[memoryHead]
                memory[memoryHead] = Data()
                memoryHead += 1
                memoryBytes -= chunk.count
                if memoryHead == memory.count {
                    memory.removeAll(keepingCapacity: true)
                    memoryHead = 0
                }
                return .chunk(chunk)
            }
            if spilledUnread > 0, let spill {
                let count = Int(min(spilledUnread, 64 * 1024))
                let chunk: Data
                do {
                    chunk = try spill.reader.read(upToCount: count) ?? Data()
                } catch {
                    throw TransportError(.other, underlying: SpillFailure(reason: String(describing: error)))
                }
                guard !chunk.isEmpty else {
                    throw TransportError(.other, underlying: SpillFailure(reason: "The temporary file ended early."))
                }
                spilledUnread -= Int64(chunk.count)
                if spilledUnread == 0 {
                    // Drained: later bytes may go to memory again.
                    removeSpill()
                }
                return .chunk(chunk)
            }
            if let ending {
                try ending.get()
                return .end
            }
            return .wait
        }

        mutating func takeWaiter() -> CheckedContinuation<Void, Never>? {
            defer { waiter = nil }
            return waiter
        }

        mutating func openSpill() {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-stream-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: url.path, contents: nil),
                  let writer = try? FileHandle(forWritingTo: url),
                  let reader = try? FileHandle(forReadingFrom: url)
            else { return }
            // Unlinked at once where the system allows it, so that a crash leaves nothing behind;
            // the open handles keep the file alive.
            #if !os(Windows)
            try? FileManager.default.removeItem(at: url)
            #endif
            spill = (url, writer, reader)
        }

        mutating func removeSpill() {
            guard let spill else { return }
            try? spill.writer.close()
            try? spill.reader.close()
            try? FileManager.default.removeItem(at: spill.url)
            self.spill = nil
            spilledUnread = 0
        }
    }

    struct SpillFailure: Error, Sendable, CustomStringConvertible {
        var reason: String
        var description: String { "The streamed body could not be buffered on disk: \(reason)" }
    }
}

/// A streamed URLSession body read from its ``SpillBuffer``; single-use.
struct SpilledChunks: AsyncSequence, Sendable {
    typealias Element = Data

    private let owner: BodyOwner

    init(_ buffer: SpillBuffer) {
        owner = BodyOwner(buffer)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        private let guardian: ReaderGuardian

        init(_ owner: BodyOwner) {
            guardian = ReaderGuardian(owner)
        }

        mutating func next() async throws -> Data? {
            let buffer = guardian.owner.buffer
            do {
                guard let chunk = try await buffer.next() else {
                    guardian.finished = true
                    return nil
                }
                return chunk
            } catch is CancellationError {
                buffer.readerStopped()
                throw TransportError(.cancelled)
            } catch {
                guardian.finished = true
                throw error
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(owner)
    }
}

/// Lives as long as the body or an iterator over it: a body dropped unread still stops its
/// task, or an event stream nobody reads would run, and buffer, forever.
final class BodyOwner: Sendable {
    let buffer: SpillBuffer

    init(_ buffer: SpillBuffer) {
        self.buffer = buffer
    }

    deinit {
        buffer.readerStopped()
    }
}

/// Tells the buffer when an iterator is dropped before the end, so that the task is cancelled
/// and its connection closed.
private final class ReaderGuardian {
    let owner: BodyOwner
    var finished = false

    init(_ owner: BodyOwner) {
        self.owner = owner
    }

    deinit {
        if !finished { owner.buffer.readerStopped() }
    }
}
