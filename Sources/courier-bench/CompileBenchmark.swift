import CourierGenerator
import CourierTestSupport
import Foundation

/// Compile time of generated code: a throwaway package holds the generated module of the
/// reference spec twice, as the generator writes it (large kinds in numbered parts) and as four
/// files, and, as the baseline, a one-endpoint module written by hand; all depend on this
/// package's CourierRuntime by path. Each is rebuilt from clean in debug, as a developer's build
/// would, in turn within every run.
struct CompileBenchmark {
    let context: BenchContext

    func run() async throws {
        let size = context.referenceSize
        let package = context.work.appendingPathComponent("CompileBench")
        try? FileManager.default.removeItem(at: package)
        let generated = try writePackage(at: package, size: size)
        progress("compile: building dependencies of \(package.path) (untimed)")
        _ = try await ChildProcess.runChecked("swift", ["build", "--target", "CourierRuntime"], in: package.path)

        var baseline = Samples()
        var synthetic = Samples()
        var fourFiles = Samples()
        for run in 0..<context.compileRuns {
            progress("compile: run \(run + 1) of \(context.compileRuns)")
            baseline.append(try await cleanBuild("Baseline", in: package))
            synthetic.append(try await cleanBuild("SyntheticAPI", in: package))
            fourFiles.append(try await cleanBuild("SyntheticAPIFourFiles", in: package))
        }

        var table = Table(
            "Compile time of the generated module (\(size) endpoints, debug, clean build of the one target)",
            command: "swift run -c release courier-bench --sections compile --reference-size \(size) --compile-runs \(context.compileRuns)",
            header: ["Module", "Lines", "Lines per endpoint", "Median build time", "× baseline"])
        table.add(["hand-written one-endpoint module (baseline)", "\(baselineSource.split(separator: "\n").count)", "",
                   Format.seconds(baseline.median), "1.00×"])
        table.add(["generated SyntheticAPI, \(generated.linesByFile.count) files (as written by default)", "\(generated.lines)",
                   Format.count(Double(generated.lines) / Double(size)),
                   Format.seconds(synthetic.median), Format.ratio(synthetic.median / baseline.median)])
        table.add(["the same, as 4 files (`--declarations-per-file 0`)", "\(generated.lines)",
                   Format.count(Double(generated.lines) / Double(size)),
                   Format.seconds(fourFiles.median), Format.ratio(fourFiles.median / baseline.median)])
        var perFile = generated.linesByFile.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        if perFile.isEmpty { perFile = "none" }
        table.notes = [
            "Lines by file: \(perFile).",
            "Each figure is `swift build --target <Module>` after deleting that module's build products; the dependencies stay built. "
                + "The baseline is mostly SwiftPM's fixed cost of planning a build.",
            "Build times of every run, in run order: generated \(synthetic.values.map(Format.seconds).joined(separator: ", ")); "
                + "as 4 files \(fourFiles.values.map(Format.seconds).joined(separator: ", ")).",
        ]
        table.print()
    }

    /// Writes the package and the generated sources; returns the generated line counts.
    private func writePackage(at package: URL, size: Int) throws -> (lines: Int, linesByFile: [String: Int]) {
        let manager = FileManager.default
        try manager.createDirectory(at: package.appendingPathComponent("Sources/SyntheticAPI"), withIntermediateDirectories: true)
        try manager.createDirectory(at: package.appendingPathComponent("Sources/SyntheticAPIFourFiles"), withIntermediateDirectories: true)
        try manager.createDirectory(at: package.appendingPathComponent("Sources/Baseline"), withIntermediateDirectories: true)
        let root = context.packageRoot.standardizedFileURL
        let identity = root.lastPathComponent.lowercased()
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "CompileBench",
                dependencies: [
                    .package(path: "\(root.path)"),
                    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
                ],
                targets: [
                    .target(name: "SyntheticAPI", dependencies: [
                        .product(name: "CourierRuntime", package: "\(identity)"),
                        .product(name: "HTTPTypes", package: "swift-http-types"),
                    ]),
                    .target(name: "SyntheticAPIFourFiles", dependencies: [
                        .product(name: "CourierRuntime", package: "\(identity)"),
                        .product(name: "HTTPTypes", package: "swift-http-types"),
                    ]),
                    .target(name: "Baseline", dependencies: [
                        .product(name: "CourierRuntime", package: "\(identity)"),
                        .product(name: "HTTPTypes", package: "swift-http-types"),
                    ]),
                ],
                swiftLanguageModes: [.v6]
            )

            """
        try Data(manifest.utf8).write(to: package.appendingPathComponent("Package.swift"))
        try Data(baselineSource.utf8).write(to: package.appendingPathComponent("Sources/Baseline/Baseline.swift"))

        let spec = context.work.appendingPathComponent("Compile\(size).yaml")
        try context.writeSpec(endpoints: size, to: spec)
        let result = try Generator().generate(specAt: spec, displayPath: "Synthetic\(size).yaml")
        guard result.succeeded else {
            throw BenchFailure(description: "generation failed:\n" + result.diagnostics.renderedLines.prefix(5).joined(separator: "\n"))
        }
        var linesByFile: [String: Int] = [:]
        for (name, text) in result.files {
            try Data(text.utf8).write(to: package.appendingPathComponent("Sources/SyntheticAPI/" + name))
            linesByFile[name] = text.utf8.reduce(into: 0) { count, byte in if byte == UInt8(ascii: "\n") { count += 1 } }
        }
        let unsplit = try Generator(options: GenerationOptions(declarationsPerFile: 0))
            .generate(specAt: spec, displayPath: "Synthetic\(size).yaml")
        for (name, text) in unsplit.files {
            try Data(text.utf8).write(to: package.appendingPathComponent("Sources/SyntheticAPIFourFiles/" + name))
        }
        return (linesByFile.values.reduce(0, +), linesByFile)
    }

    /// Deletes `target`'s compiled products and the driver's incremental state (keeping
    /// SwiftPM's build plan, such as the output file map, which it writes only when it plans)
    /// and times `swift build --target target`.
    private func cleanBuild(_ target: String, in package: URL) async throws -> Double {
        let binPath = try await ChildProcess.runChecked("swift", ["build", "--show-bin-path"], in: package.path)
            .standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let manager = FileManager.default
        let buildFolder = binPath + "/\(target).build"
        // The driver's `.priors` go too: with them left, it plans an incremental build of every
        // file instead of a clean one, which scheduled the same 11 files into 68-81 s instead of
        // 39-43 s.
        let products = [".o", ".swiftdeps", ".swiftdeps~", ".d", ".dia", ".swiftmodule", ".swiftdoc", ".swiftsourceinfo", ".emit-module.d", ".priors"]
        for name in (try? manager.contentsOfDirectory(atPath: buildFolder)) ?? [] where products.contains(where: name.hasSuffix) {
            try? manager.removeItem(atPath: buildFolder + "/" + name)
        }
        for suffix in ["swiftmodule", "swiftdoc", "swiftsourceinfo", "abi.json"] {
            try? manager.removeItem(atPath: binPath + "/Modules/\(target).\(suffix)")
        }
        let outcome = try await ChildProcess.runChecked("swift", ["build", "--target", target], in: package.path)
        guard outcome.standardOutput.contains("Compiling \(target)") else {
            throw BenchFailure(description: "swift build --target \(target) compiled nothing; the clean build did not happen:\n\(outcome.standardOutput.suffix(2000))")
        }
        return outcome.duration.seconds
    }

    /// One endpoint written by hand the way a careful developer would: a model, a request type,
    /// an error enum with a status mapping, and a client method.
    private var baselineSource: String {
        """
        import CourierRuntime
        import Foundation
        import HTTPTypes

        /// An account.
        public struct Account: Codable, Hashable, Sendable {
            public var id: Int64
            public var name: String
            public var createdAt: Date

            public init(id: Int64, name: String, createdAt: Date) {
                self.id = id
                self.name = name
                self.createdAt = createdAt
            }
        }

        /// Why getting an account failed.
        public enum GetAccountError: EndpointFailure {
            case notFound
            case unauthorized

            public static func map(_ response: RawResponse) -> GetAccountError? {
                switch response.status.code {
                case 404: .notFound
                case 401: .unauthorized
                default: nil
                }
            }
        }

        /// `GET /accounts/{accountId}`.
        public struct GetAccount: APIRequest {
            public typealias Response = Account
            public typealias Failure = GetAccountError
            public var accountID: Int64
            public var method: HTTPRequest.Method { .get }
            public var path: RequestPath { RequestPath("/accounts/{accountId}", ["accountId": accountID]) }
        }

        /// The client.
        public struct BaselineClient: Sendable {
            public let client: APIClient

            public init(client: APIClient) {
                self.client = client
            }

            /// One account by its identifier.
            public func getAccount(accountID: Int64) async throws(APIError<GetAccountError>) -> Account {
                try await client.send(GetAccount(accountID: accountID))
            }
        }

        """
    }
}
