import CourierGenerator
import Foundation
import Testing

/// Both backends of `FileWatcher` on a real temporary folder: a write in place, an editor's
/// atomic save (a new file renamed over the old), a delete and a re-creation, a new file in a
/// watched folder, and a watched folder that appears only later. Each step waits for the batch
/// that names the file; the time limit only keeps a broken watcher from hanging the suite.
@Suite struct FileWatcherTests {
    static let backends: [FileWatcher.Backend] = [.events, .polling(interval: .milliseconds(50))]

    @Test(arguments: backends) func writesAtomicSavesDeletionsAndRecreationsAreReported(backend: FileWatcher.Backend) async throws {
        let folder = try TemporaryFolder()
        let spec = try folder.write("service: A\n", to: "Specs/A.yaml")
        let other = try folder.write("service: B\n", to: "Specs/B.yaml")
        let watcher = try FileWatcher(backend: backend, quietPeriod: .milliseconds(20))
        defer { watcher.stop() }
        var set = WatchSet()
        set.insert(file: URL(fileURLWithPath: spec))
        await watcher.watch(set)

        try Data("service: A2\n".utf8).write(to: URL(fileURLWithPath: spec))
        try await expectBatch(from: watcher, naming: spec)

        try Data("service: A3 # saved\n".utf8).write(to: URL(fileURLWithPath: spec), options: .atomic)
        try await expectBatch(from: watcher, naming: spec)

        try FileManager.default.removeItem(atPath: spec)
        try await expectBatch(from: watcher, naming: spec)

        try Data("service: A4 # again\n".utf8).write(to: URL(fileURLWithPath: spec))
        // The unwatched file changes first: a batch that names it would be a bug.
        try Data("service: B2 # not watched\n".utf8).write(to: URL(fileURLWithPath: other))
        let batch = try await expectBatch(from: watcher, naming: spec)
        #expect(!batch.paths.contains(other))
    }

    @Test(arguments: backends) func aFileThatAppearsInAWatchedFolderIsReported(backend: FileWatcher.Backend) async throws {
        let folder = try TemporaryFolder()
        try folder.write("service: A\n", to: "Specs/A.yaml")
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
