import Dispatch
import Foundation

/// Reports changes to a ``WatchSet`` as batches: `courier generate --watch`'s eyes.
///
/// ```swift
/// let watcher = FileWatcher(backend: .events)
/// await watcher.watch(files)
/// for await changes in watcher.changes {
///     regenerate()
///     await watcher.watch(filesReadThisTime)
/// }
/// ```
///
/// Changes are gathered until none has come for ``quietPeriod``, so that an editor's save (a
/// temporary file written, then renamed over the original; or several writes) is one batch.
/// A change that happens while the caller works on the previous batch waits in ``changes``.
package final class FileWatcher: @unchecked Sendable {
    // Unchecked: every mutable property is touched only on `queue`.

    /// How changes are noticed.
    package enum Backend: Sendable, Equatable {
        /// The platform's file-system events, watching folders so that atomic saves are seen:
        /// inotify on Linux; kqueue vnode events on Darwin, where each watched file is observed
        /// too, for writes in place. Where there are none, polling every half second.
        case events
        /// Comparing each file's identity, size and modification time every `interval`: for file
        /// systems without events (some network and container mounts).
        case polling(interval: Duration)

        /// Whether `.events` uses real file-system events on this platform.
        static var eventsAreAvailable: Bool {
            #if canImport(Glibc) || canImport(Darwin)
            return true
            #else
            return false
            #endif
        }
    }

    /// The batches of changed paths, in order; ends after ``stop()``.
    package let changes: AsyncStream<FileChanges>
    /// How long a batch waits for further changes before it is reported.
    let quietPeriod: Duration
    /// The backend in use: `.polling` when `.events` was asked for where there are none.
    package let backend: Backend

    private let continuation: AsyncStream<FileChanges>.Continuation
    private let queue = DispatchQueue(label: "courier.file-watcher")
    private var source: (any ChangeSource)?
    private var set = WatchSet()
    private var pending: Set<String> = []
    private var flush: DispatchWorkItem?
    private var pendingSince: DispatchTime?
    private var stopped = false

    /// A watcher that watches nothing until ``watch(_:)``.
    ///
    /// - Parameters:
    ///   - backend: How changes are noticed.
    ///   - quietPeriod: How long a batch waits for more changes; never more than ten times this
    ///     in all, so that a file written without pause is still reported.
    /// - Throws: ``FileWatcherError`` when the platform refuses the events backend (too many
    ///   inotify instances, say); polling never throws.
    package convenience init(backend: Backend, quietPeriod: Duration = .milliseconds(150)) throws(FileWatcherError) {
        #if canImport(Glibc) || canImport(Darwin)
        let chosen = backend
        #else
        let chosen: Backend = if case .events = backend { .polling(interval: .milliseconds(500)) } else { backend }
        #endif
        try self.init(backend: chosen, quietPeriod: quietPeriod) { queue, notice throws(FileWatcherError) in
            switch chosen {
            case .polling(let interval):
                return PollingSource(interval: interval, queue: queue, notice: notice)
            case .events:
                #if canImport(Darwin) || COURIER_TYPECHECK_VNODE
                return PathEventSource(queue: queue, notice: notice, observe: VnodeObservation.observe)
                #elseif canImport(Glibc)
                return try InotifySource(queue: queue, notice: notice)
                #else
                return PollingSource(interval: .milliseconds(500), queue: queue, notice: notice)
                #endif
            }
        }
    }

    /// A watcher whose changes come from the source `makeSource` makes, given the queue it
    /// must call back on and what to call: for tests of a source on a platform whose
    /// ``Backend/events`` is another.
    init(
        backend: Backend,
        quietPeriod: Duration,
        makeSource: (DispatchQueue, @escaping @Sendable (String) -> Void) throws(FileWatcherError) -> any ChangeSource
    ) throws(FileWatcherError) {
        (changes, continuation) = AsyncStream.makeStream(of: FileChanges.self, bufferingPolicy: .unbounded)
        self.quietPeriod = quietPeriod
        self.backend = backend
        let notice: @Sendable (String) -> Void = { [weak self] path in self?.notice(path) }
        source = try makeSource(queue, notice)
        continuation.onTermination = { [weak self] _ in self?.stop() }
    }

    /// Watches `set` from now on, in place of what was watched before. Returns once the
    /// watches are in place, so that a change made after it returns is seen.
    package func watch(_ set: WatchSet) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async {
                if !self.stopped {
                    self.set = set
                    self.source?.watch(set)
                }
                done.resume()
            }
        }
    }

    /// Stops watching and ends ``changes``.
    package func stop() {
        queue.async {
            guard !self.stopped else { return }
            self.stopped = true
            self.source?.stop()
            self.source = nil
            self.flush?.cancel()
            self.continuation.finish()
        }
    }

    /// A backend saw `path` change (on `queue`).
    private func notice(_ path: String) {
        guard !stopped, set.contains(path) else { return }
        pending.insert(path)
        let now = DispatchTime.now()
        if pendingSince == nil { pendingSince = now }
        flush?.cancel()
        let quiet = Self.nanoseconds(quietPeriod)
        let latest = (pendingSince ?? now).uptimeNanoseconds + 10 * quiet
        let due = min(now.uptimeNanoseconds + quiet, max(latest, now.uptimeNanoseconds))
        let item = DispatchWorkItem { [weak self] in self?.report() }
        flush = item
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: due), execute: item)
    }

    private func report() {
        guard !stopped, !pending.isEmpty else { return }
        continuation.yield(FileChanges(paths: pending))
        pending = []
        pendingSince = nil
        flush = nil
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds / 1_000_000_000))
    }
}

/// One batch of changes.
package struct FileChanges: Sendable, Equatable {
    /// The absolute paths that changed, appeared or went away.
    package var paths: Set<String>

    /// A batch.
    init(paths: Set<String>) {
        self.paths = paths
    }
}

/// Why a ``FileWatcher`` could not start.
package struct FileWatcherError: Error, Sendable, CustomStringConvertible {
    /// What failed, in words.
    package var description: String
}

/// A way of noticing changes: told what to watch, it reports each path it sees change to
/// `notice`, on the watcher's queue. Its methods are called on that queue.
protocol ChangeSource: AnyObject {
    func watch(_ set: WatchSet)
    func stop()
}
