import CourierGenerator
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Both backends of `FileWatcher` on a real temporary folder: a write in place, an editor's
/// atomic save (a new file renamed over the old), a delete and a re-creation, a new file in a
/// watched folder, and a watched folder that appears only later. Each step waits for the batch
/// that names the file; the time limit only keeps a broken watcher from hanging the suite.
@Suite struct FileWatcherTests {
    static let backends: [FileWatcher.Backend] = [.events, .polling(interval: .milliseconds(50))]

    // Each step changes a file of its own and waits for a batch naming it, so that a late batch
    // of an earlier step cannot stand in for the one expected.
    @Test(arguments: backends) func writesAtomicSavesDeletionsAndRecreationsAreReported(backend: FileWatcher.Backend) async throws {
        let folder = try TemporaryFolder()
        let written = try folder.write("service: A\n", to: "Specs/A.yaml")
        let saved = try folder.write("service: B\n", to: "Specs/B.yaml")
        let deleted = try folder.write("service: C\n", to: "Specs/C.yaml")
        let other = try folder.write("service: D\n", to: "Specs/D.yaml")
        let watcher = try FileWatcher(backend: backend, quietPeriod: .milliseconds(20))
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

        try FileManager.default.removeItem(atPath: deleted)
        try await expectBatch(from: watcher, naming: deleted)

        // The unwatched file changes first: a batch that names it would be a bug.
        try Data("service: D2 # not watched\n".utf8).write(to: URL(fileURLWithPath: other))
        try Data("service: C2 # again\n".utf8).write(to: URL(fileURLWithPath: deleted))
        let batch = try await expectBatch(from: watcher, naming: deleted)
        #expect(!batch.paths.contains(other))
    }

    @Test(arguments: backends) func aFileThatAppearsInOrLeavesAWatchedFolderIsReported(backend: FileWatcher.Backend) async throws {
        let folder = try TemporaryFolder()
        let removed = try folder.write("service: A\n", to: "Specs/A.yaml")
        let watcher = try FileWatcher(backend: backend, quietPeriod: .milliseconds(20))
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

    @Test(arguments: backends) func aFileInAFolderThatDoesNotExistYetIsReportedWhenItAppears(backend: FileWatcher.Backend) async throws {
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("Specs/Shared/Errors.yaml").path
        let watcher = try FileWatcher(backend: backend, quietPeriod: .milliseconds(20))
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
