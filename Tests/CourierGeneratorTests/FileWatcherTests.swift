import CourierTestSupport
@testable import CourierWatching
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Every backend of `FileWatcher` on a real temporary folder: a write in place, an editor's
/// atomic save (a new file renamed over the old), a delete and a re-creation, a new file in a
/// watched folder, and a watched folder that appears only later. Each step waits for the batch
/// that names the file; the time limit only keeps a broken watcher from hanging the suite.
@Suite struct FileWatcherTests {
    static let backends: [WatcherKind] = {
        var kinds: [WatcherKind] = [.backend(.events), .backend(.polling(interval: .milliseconds(50)))]
        #if canImport(Glibc)
        kinds.append(.perFileEvents)
        #endif
        return kinds
    }()

    // Each step changes a file of its own and waits for a batch naming it, so that a late batch
    // of an earlier step cannot stand in for the one expected.
    @Test(arguments: backends) func writesAtomicSavesDeletionsAndRecreationsAreReported(backend: WatcherKind) async throws {
        let folder = try TemporaryFolder()
        let written = try folder.write("service: A\n", to: "Specs/A.yaml")
        let saved = try folder.write("service: B\n", to: "Specs/B.yaml")
        let deleted = try folder.write("service: C\n", to: "Specs/C.yaml")
        let other = try folder.write("service: D\n", to: "Specs/D.yaml")
        let watcher = try backend.make(quietPeriod: .milliseconds(20))
        defer { watcher.stop() }
        var set = WatchSet()
        for path in [written, saved, deleted] { set.insert(file: URL(fileURLWithPath: path)) }
        await watcher.watch(set)

        try Data("service: A2\n".utf8).write(to: URL(fileURLWithPath: written))
        try await expectBatch(from: watcher, naming: written)

        // An editor's save: a new file, written and closed, renamed over the old one; here of the
        // same size. (Foundation's `.atomic` closes the file only after renaming it, which a watch
        // would see as a write: not the case to test.)
        let aside = try folder.write("service: Z\n", to: "Specs/.B.yaml.new")
        #expect(rename(aside, saved) == 0)
        try await expectBatch(from: watcher, naming: saved)
        // The file now at the path is another: a write to it is seen too.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: saved))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("# edited\n".utf8))
        try handle.close()
        try await expectBatch(from: watcher, naming: saved)

        try FileManager.default.removeItem(atPath: deleted)
        try await expectBatch(from: watcher, naming: deleted)

        // The unwatched file changes first: a batch that names it would be a bug.
        try Data("service: D2 # not watched\n".utf8).write(to: URL(fileURLWithPath: other))
        try Data("service: C2 # again\n".utf8).write(to: URL(fileURLWithPath: deleted))
        let batch = try await expectBatch(from: watcher, naming: deleted)
        #expect(!batch.paths.contains(other))
    }

    @Test(arguments: backends) func aFileThatAppearsInOrLeavesAWatchedFolderIsReported(backend: WatcherKind) async throws {
        let folder = try TemporaryFolder()
        let removed = try folder.write("service: A\n", to: "Specs/A.yaml")
        let watcher = try backend.make(quietPeriod: .milliseconds(20))
        defer { watcher.stop() }
        var set = WatchSet()
        set.insert(folder: folder.url.appendingPathComponent("Specs"), nameSuffixes: [".yaml"])
        await watcher.watch(set)

        // An editor's swap file and a file of another kind come first; neither counts.
        let swap = try folder.write("x", to: "Specs/.B.yaml.swp")
        let notes = try folder.write("x", to: "Specs/notes.txt")
        let added = try folder.write("service: B\n", to: "Specs/B.yaml")
        let batch = try await expectBatch(from: watcher, naming: added)
        #expect(!batch.paths.contains(swap))
        #expect(!batch.paths.contains(notes))

        try FileManager.default.removeItem(atPath: removed)
        try await expectBatch(from: watcher, naming: removed)
    }

    @Test(arguments: backends) func aFileInAFolderThatDoesNotExistYetIsReportedWhenItAppears(backend: WatcherKind) async throws {
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("Specs/Shared/Errors.yaml").path
        let watcher = try backend.make(quietPeriod: .milliseconds(20))
        defer { watcher.stop() }
        var set = WatchSet()
        set.insert(file: URL(fileURLWithPath: missing))
        await watcher.watch(set)

        try folder.write("errorSchemas: {}\n", to: "Specs/Shared/Errors.yaml")
        try await expectBatch(from: watcher, naming: missing)
    }

    @Test func stoppingEndsTheChanges() async throws {
        let watcher = try FileWatcher(backend: .events)
        watcher.stop()
        for await _ in watcher.changes {
            Issue.record("a stopped watcher reported a change")
        }
    }

    /// Waits for the next batches until one names `path`; fails after a minute.
    @discardableResult
    func expectBatch(from watcher: FileWatcher, naming path: String) async throws -> FileChanges {
        let found = await withTaskGroup(of: FileChanges?.self) { group in
            group.addTask {
                for await batch in watcher.changes where batch.paths.contains(path) { return batch }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        return try #require(found, "no change reported for \(path)")
    }
}

/// How a test's watcher notices changes.
enum WatcherKind: Sendable, CustomTestStringConvertible {
    /// A backend as `courier generate --watch` picks it on this platform.
    case backend(FileWatcher.Backend)
    /// Darwin's backend (`PathEventSource`, per-file events on each watched file and folder)
    /// on Linux, each observation an inotify watch of one file or folder that reports only
    /// what a kqueue vnode source would: so its comparisons, re-observing of replaced files and
    /// waiting for missing folders run here against real events.
    case perFileEvents

    func make(quietPeriod: Duration) throws -> FileWatcher {
        switch self {
        case .backend(let backend):
            return try FileWatcher(backend: backend, quietPeriod: quietPeriod)
        case .perFileEvents:
            #if canImport(Glibc)
            return try FileWatcher(backend: .events, quietPeriod: quietPeriod) { queue, notice in
                PathEventSource(queue: queue, notice: notice, observe: InotifyPathObservation.observe)
            }
            #else
            return try FileWatcher(backend: .events, quietPeriod: quietPeriod)
            #endif
        }
    }

    var testDescription: String {
        switch self {
        case .backend(.events): "events"
        case .backend(.polling): "polling"
        case .perFileEvents: "per-file events"
        }
    }
}

#if canImport(Glibc)
/// One file or folder observed through an inotify instance of its own, reporting the events a
/// kqueue vnode source on it would: for a file, a write, a change of attributes, or the file
/// deleted or moved; for a folder, an entry added, removed or renamed, or the folder deleted or
/// moved, but not a write to a file inside it, which inotify would report on the folder too.
final class InotifyPathObservation: PathObservation, @unchecked Sendable {
    private let source: any DispatchSourceRead

    init?(path: String, queue: DispatchQueue, changed: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        let own = UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        let mask = isFolder.boolValue
            ? own | UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_ONLYDIR)
            : own | UInt32(IN_MODIFY) | UInt32(IN_ATTRIB)
        guard inotify_add_watch(descriptor, path, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            let capacity = 4096
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
            defer { buffer.deallocate() }
            while read(descriptor, buffer, capacity) > 0 {}
            changed()
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    func cancel() {
        source.cancel()
    }

    deinit {
        source.cancel()
    }

    static func observe(_ path: String, queue: DispatchQueue, changed: @escaping @Sendable () -> Void) -> (any PathObservation)? {
        InotifyPathObservation(path: path, queue: queue, changed: changed)
    }
}
#endif

#if !canImport(Darwin)
/// Darwin's events backend cannot be built here, so its one Darwin-only file is type-checked,
/// with the rest of the watcher, against a shim declaring the few Dispatch and Darwin names it
/// uses with Darwin's signatures (Tests/Shims/DarwinDispatch.swift). It catches a misspelt or
/// misused name in that file; it cannot catch a shim that is wrong about Darwin.
@Suite struct DarwinWatcherTypeCheckTests {
    @Test func theVnodeBackendTypeChecksAgainstDarwinsDeclarations() async throws {
        let watching = packageRoot.appendingPathComponent("Sources/CourierWatching")
        let sources = try FileManager.default.contentsOfDirectory(atPath: watching.path)
            .filter { $0.hasSuffix(".swift") }
            .sorted()
            .map { watching.appendingPathComponent($0).path }
        #expect(sources.contains { $0.hasSuffix("/VnodeObservation.swift") })
        let shim = packageRoot.appendingPathComponent("Tests/Shims/DarwinDispatch.swift").path
        let check = try await ChildProcess.run("swiftc", ["-typecheck", "-swift-version", "6", "-warnings-as-errors",
                                                         // The watcher's API is `package`, as SwiftPM builds it.
                                                         "-package-name", "courier",
                                                         "-D", "COURIER_TYPECHECK_VNODE"] + sources + [shim])
        #expect(check.succeeded, "swiftc failed:\n\(check.standardError.prefix(4000))")
    }
}
#endif
