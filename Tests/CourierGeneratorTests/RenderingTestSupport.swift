import CourierTestSupport
import Foundation

/// A folder under the system's temporary directory, removed when the value goes away.
final class RenderTestFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-test-\(UUID().uuidString)", isDirectory: true)
            .standardizedFileURL
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func write(_ text: String, to relativePath: String) throws {
        try write(Data(text.utf8), to: relativePath)
    }

    func write(_ data: Data, to relativePath: String) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }
}

/// Compiles a Swift program with the toolchain's `swiftc` and runs it.
enum SwiftProgramRunner {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The program's standard output. Warnings count as errors, so that a literal or comment the
    /// compiler merely warns about (a raw NUL, say) fails too.
    static func compileAndRun(_ source: String) async throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-literal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sourceFile = folder.appendingPathComponent("main.swift")
        let executable = folder.appendingPathComponent("main")
        try Data(source.utf8).write(to: sourceFile)

        let compile = try await ChildProcess.run(
            "swiftc", ["-swift-version", "6", "-warnings-as-errors", sourceFile.path, "-o", executable.path], in: folder)
        guard compile.succeeded else {
            throw Failure(description: "swiftc failed (\(compile.status)):\n\(compile.standardError)\nsource:\n\(source)")
        }
        let result = try await ChildProcess.run(executable.path, in: folder)
        guard result.succeeded else {
            throw Failure(description: "program failed (\(result.status)):\n\(result.standardError)")
        }
        return result.standardOutput
    }
}
