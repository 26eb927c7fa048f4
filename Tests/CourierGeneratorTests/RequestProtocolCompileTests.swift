@testable import CourierGenerator
import CourierTestSupport
import Foundation
import Testing

/// A client and its fake send only their own service's requests: two services are generated
/// into one module and type-checked against this build's CourierRuntime, once with each
/// sending its own request (which must compile) and once with the other service's request
/// (which the compiler must refuse). Without the constraint a `StripeClient` would send a
/// GitHub request to Stripe's base URL, with Stripe's configuration.
@Suite struct RequestProtocolCompileTests {
    static let alpha = """
        service: Alpha
        baseURL: https://alpha.example.com
        endpoints:
          ping: { get: /ping }
        """
    static let beta = """
        service: Beta
        baseURL: https://beta.example.com
        endpoints:
          pong: { get: /pong }
        """

    /// The generated sources of both services, written to `folder`.
    static func generatedSources(in folder: TemporaryFolder) throws -> [String] {
        var sources: [String] = []
        for (name, yaml) in [("Alpha", alpha), ("Beta", beta)] {
            let specPath = try folder.write(yaml, to: "\(name).yaml")
            let result = try Generator().generate(specAt: URL(fileURLWithPath: specPath), displayPath: "\(name).yaml")
            try #require(result.diagnostics.renderedLines == [])
            for (file, text) in result.files.sorted(by: { $0.key < $1.key }) {
                sources.append(try folder.write(text, to: "Services/" + file))
            }
        }
        return sources
    }

    /// Type-checks the generated sources and `snippet` as one module.
    static func typeCheck(_ snippet: String, sources: [String], in folder: TemporaryFolder, as name: String) async throws -> ChildProcess.Result {
        let snippetPath = try folder.write("import CourierRuntime\n\n" + snippet, to: "\(name).swift")
        let modules = try SyntheticCompileTests.modulesFolder()
        return try await ChildProcess.run("swiftc", ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library",
                                                     "-module-name", "Services", "-I", modules.path] + sources + [snippetPath])
    }

    @Test("A client and a fake send their own service's requests and refuse another's")
    func otherServicesRequestsAreRefused() async throws {
        let folder = try TemporaryFolder()
        let sources = try Self.generatedSources(in: folder)

        // The control: each sends its own request, so a refusal below is about the constraint.
        let own = try await Self.typeCheck("""
            func sendOwn(_ client: BetaClient, _ fake: BetaFake) async throws {
                _ = try await client.send(PongRequest())
                _ = try await fake.send(PongRequest())
            }
            """, sources: sources, in: folder, as: "Own")
        #expect(own.succeeded, "swiftc failed:\n\(own.standardError.prefix(3000))")

        for sender in ["client: BetaClient", "fake: BetaFake"] {
            let variable = String(sender.prefix { $0 != ":" })
            let other = try await Self.typeCheck("""
                func sendOther(_ \(sender)) async throws {
                    _ = try await \(variable).send(PingRequest())
                }
                """, sources: sources, in: folder, as: "Other")
            #expect(!other.succeeded, "\(sender) accepted Alpha's PingRequest")
            let complaints = other.standardError.split(separator: "\n").filter { $0.contains("error:") }
            #expect(complaints.contains { $0.contains("Other.swift") && $0.contains("BetaAPIRequest") },
                    "\(sender): \(complaints.prefix(5))")
        }
    }
}
