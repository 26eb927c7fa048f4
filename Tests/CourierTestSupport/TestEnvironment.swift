import Foundation

/// Where Courier's tests find the repository, the tools built with them, and scratch files:
/// written once here, so that every test target follows the same rules.
public enum TestEnvironment {
    /// The repository's root folder: two levels above this file (`Tests/CourierTestSupport/`).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CourierTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .standardizedFileURL

    /// The `courier` executable built with the running tests, in the same products folder.
    ///
    /// Looks beside the test runner and up to four folders above it (SwiftPM's layout on Linux,
    /// and an `.xctest` bundle's on Darwin), so that the executable tested is the one this build
    /// made, never one on `PATH`.
    public static func courierExecutable() throws(TestEnvironmentError) -> URL {
        var candidates: [URL] = []
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder.appendingPathComponent("courier"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("courier"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestEnvironmentError(
                "no courier executable beside the tests (\(CommandLine.arguments[0])); looked at: "
                    + candidates.map(\.path).joined(separator: ", ")
            )
        }
        return found
    }

    /// A new path in the system's temporary folder, `courier-<name>-<UUID>`; nothing is created there.
    public static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(name)-\(UUID().uuidString)")
    }
}

/// What ``TestEnvironment`` could not find.
public struct TestEnvironmentError: Error, CustomStringConvertible {
    /// What was missing, and where it was looked for.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
