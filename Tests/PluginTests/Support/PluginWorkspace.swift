import CourierTestSupport
import Foundation

/// Where the plugin tests build: everything under `.build-plugin-tests/` in the repository, which
/// git ignores (`.build-*/`) and which survives between runs, so that dependency checkouts and
/// the Courier package's own build are reused.
///
/// The tests never use `.build/`: `swift test` holds its lock while they run, and a nested
/// `swift build` there would wait for it forever.
enum PluginWorkspace {
    /// The repository.
    static let repository = TestEnvironment.repositoryRoot

    /// The folder that holds every scratch path and copy.
    static let root = repository.appendingPathComponent(".build-plugin-tests")

    /// The example consumer package as checked in.
    static let consumerSource = repository.appendingPathComponent("Tests/PluginConsumer")

    /// Where the consumer is copied for a run.
    static let consumer = root.appendingPathComponent("consumer")

    /// The consumer's scratch path.
    static let consumerScratch = root.appendingPathComponent("consumer-scratch")

    /// The scratch path for running the command plugin on this repository.
    static let selfScratch = root.appendingPathComponent("self-scratch")

    /// Where `courier init --package` writes the getting-started package.
    static let gettingStarted = root.appendingPathComponent("getting-started")


    /// A log file for one step.
    static func log(_ name: String) -> URL {
        root.appendingPathComponent("logs").appendingPathComponent(name + ".log")
    }

    /// What a scratch path keeps for a clean build: the dependency checkouts and how they were
    /// resolved. Everything else (build products, plugin outputs, build databases) goes.
    static let reusableScratchEntries: Set<String> = ["checkouts", "repositories", "artifacts", "workspace-state.json"]

    /// Copies the consumer to ``consumer`` and empties ``consumerScratch`` of everything but the
    /// checkouts, for a build from clean.
    static func prepareCleanConsumer() throws {
        try copyConsumer()
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: consumerScratch, withIntermediateDirectories: true)
        for entry in try fileManager.contentsOfDirectory(atPath: consumerScratch.path)
        where !reusableScratchEntries.contains(entry) {
            try fileManager.removeItem(at: consumerScratch.appendingPathComponent(entry))
        }
    }

    /// Copies the consumer to ``consumer`` (replacing an earlier copy), pointing its Courier
    /// dependency at this repository by absolute path.
    static func copyConsumer() throws {
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: root.appendingPathComponent("logs"), withIntermediateDirectories: true)
        if fileManager.fileExists(atPath: consumer.path) {
            try fileManager.removeItem(at: consumer)
        }
        try fileManager.copyItem(at: consumerSource, to: consumer)
        // A copy made by hand (or a crashed run) may hold a build folder; it must not count.
        for leftover in [".build", ".swiftpm", "Package.resolved"] {
            let url = consumer.appendingPathComponent(leftover)
            if fileManager.fileExists(atPath: url.path) { try fileManager.removeItem(at: url) }
        }

        let manifest = consumer.appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let relative = #"path: "../..""#
        guard text.contains(relative) else {
            throw WorkspaceError("Tests/PluginConsumer/Package.swift no longer depends on Courier by \(relative)")
        }
        try text.replacingOccurrences(of: relative, with: "path: \"\(repository.path)\"")
            .write(to: manifest, atomically: true, encoding: .utf8)

        // The repository's resolved versions, when `swift test` has written them, so that the
        // consumer builds against the same dependency versions.
        let resolved = repository.appendingPathComponent("Package.resolved")
        if fileManager.fileExists(atPath: resolved.path) {
            try fileManager.copyItem(at: resolved, to: consumer.appendingPathComponent("Package.resolved"))
        }
    }

    /// The text of a file of the consumer copy.
    static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: consumer.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// Replaces a file of the consumer copy.
    static func write(_ text: String, to relativePath: String) throws {
        try text.write(to: consumer.appendingPathComponent(relativePath), atomically: true, encoding: .utf8)
    }
}

/// The test setup itself failed.
struct WorkspaceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
