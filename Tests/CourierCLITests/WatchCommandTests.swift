import CourierTestSupport
import Foundation
import Testing

/// `courier generate --watch` as a user runs it: a real child process, real files changed under
/// it, and Ctrl-C (SIGINT) to end it. Once with file-system events and once with polling.
@Suite(.serialized) struct WatchCommandTests {
    static let errors = "errorSchemas:\n  Problem: { code: String, message: String }\n"
    static let shop = """
        service: Shop
        baseURL: https://shop.example.com
        include: Shared/Errors.yaml
        models:
          Order: { id: String }
        endpoints:
          getOrder:
            get: /orders/{id}
            path: { id: String }
            response: Order
            errors:
              404: Problem
        """

    @Test(arguments: [[], ["--poll-interval", "0.1"]])
    func regeneratesOnEachChangeCarriesOnAfterErrorsAndEndsOnInterrupt(options: [String]) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-watch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(Self.errors, to: folder.appendingPathComponent("Specs/Shared/Errors.yaml"))
        try write(Self.shop, to: folder.appendingPathComponent("Specs/Shop.yaml"))
        let models = folder.appendingPathComponent("Generated/Shop/ShopModels.swift")
        // A copy of the built-in templates, given with --templates, so that a template can change.
        let templates = folder.appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: CLITests.packageRoot.appendingPathComponent("Templates"), to: templates)

        let end = try await InteractiveProcess.run(
            try TestEnvironment.courierExecutable().path, ["generate", "Specs", "--output", "Generated", "--templates", "Templates", "--watch"] + options, in: folder
        ) { courier in
            try await courier.line(on: .standardOutput, containing: "Generated 1 service")
            try await courier.line(on: .standardOutput, containing: "Watching")
            #expect(try String(contentsOf: models, encoding: .utf8).contains("struct Order"))

            // The included file, saved as editors do: written aside, then renamed over it.
            try self.write(Self.errors.replacingOccurrences(of: "message: String", with: "message: String, hint: String"),
                           to: folder.appendingPathComponent("Specs/Shared/Errors.yaml"), atomically: true)
            try await courier.line(on: .standardOutput, containing: "Errors.yaml; regenerating")
            try await courier.line(on: .standardOutput, containing: "Generated 1 service")
            try await courier.line(on: .standardOutput, containing: "Watching")
            #expect(try String(contentsOf: models, encoding: .utf8).contains("hint"))

            // A broken spec: its diagnostic comes, and courier keeps watching.
            try self.write(Self.shop.replacingOccurrences(of: "response: Order", with: "response: Ordr"),
                           to: folder.appendingPathComponent("Specs/Shop.yaml"))
            let diagnostic = try await courier.line(on: .standardError, containing: "error:")
            #expect(diagnostic.hasPrefix("Specs/Shop.yaml:"))
            #expect(diagnostic.contains("'Ordr'"))
            try await courier.line(on: .standardOutput, containing: "1 spec failed")
            try await courier.line(on: .standardOutput, containing: "Watching")

            // The fix regenerates.
            try self.write(Self.shop.replacingOccurrences(of: "Order: { id: String }", with: "Order: { id: String, total: Int }"),
                           to: folder.appendingPathComponent("Specs/Shop.yaml"))
            try await courier.line(on: .standardOutput, containing: "Shop.yaml; regenerating")
            try await courier.line(on: .standardOutput, containing: "Generated 1 service")
            try await courier.line(on: .standardOutput, containing: "Watching")
            #expect(try String(contentsOf: models, encoding: .utf8).contains("total"))

            // A template changes: every file is rendered again.
            let header = templates.appendingPathComponent("header.mustache")
            try self.write(try String(contentsOf: header, encoding: .utf8) + "// Watched.\n", to: header)
            try await courier.line(on: .standardOutput, containing: "header.mustache; regenerating")
            try await courier.line(on: .standardOutput, containing: "Generated 1 service")
            try await courier.line(on: .standardOutput, containing: "Watching")
            #expect(try String(contentsOf: models, encoding: .utf8).contains("// Watched."))

            try courier.send(SIGINT)
        }
        #expect(end.exited, "courier was ended by the signal's default action, not by its own handler")
        #expect(end.status == 130)
    }

    func write(_ text: String, to url: URL, atomically: Bool = false) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: atomically ? .atomic : [])
    }
}
