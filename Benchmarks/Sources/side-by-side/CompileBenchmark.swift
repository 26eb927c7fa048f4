import Foundation

/// Clean debug builds of the modules each generator wrote for one API. Each module is a package
/// of its own, whose dependencies (CourierRuntime; OpenAPIRuntime and HTTPTypes) are built
/// first, so that only the generated module is timed.
struct CompileBenchmark {
    /// The Courier checkout, which the Courier module's package depends on by path.
    var repository: String
    var courier: String
    var openAPIGenerator: String
    var openAPIConfiguration: String
    var folder: String

    private struct Module {
        var name: String
        var packageText: String
        var dependencyTargets: [String]
        var generate: (String) throws -> Void
    }

    func measure(_ api: API, runs: Int) throws -> CompileResult {
        let identity = URL(fileURLWithPath: repository).lastPathComponent.lowercased()
        let courierPackage = """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "Generated",
                platforms: [.macOS(.v13)],
                dependencies: [.package(path: "\(repository)")],
                targets: [.target(name: "Generated", dependencies: [.product(name: "CourierRuntime", package: "\(identity)")])]
            )
            """
        let openAPIPackage = """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "Generated",
                platforms: [.macOS(.v13)],
                dependencies: [
                    .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
                    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
                ],
                targets: [.target(name: "Generated", dependencies: [
                    .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                    .product(name: "HTTPTypes", package: "swift-http-types"),
                ])]
            )
            """
        var modules: [Module] = []
        if let spec = api.spec {
            modules.append(Module(name: "Courier, from the Courier spec", packageText: courierPackage, dependencyTargets: ["CourierRuntime"]) {
                try Child.measure(courier, ["generate", spec, "--output", $0, "--flat"])
            })
        }
        modules.append(Module(name: "Courier, from the OpenAPI document", packageText: courierPackage, dependencyTargets: ["CourierRuntime"]) {
            try Child.measure(courier, ["generate", api.document, "--output", $0, "--flat"])
        })
        modules.append(Module(name: "swift-openapi-generator", packageText: openAPIPackage, dependencyTargets: ["OpenAPIRuntime", "HTTPTypes"]) {
            try Child.measure(openAPIGenerator, ["generate", api.document, "--config", openAPIConfiguration, "--output-directory", $0])
        })

        var rows: [CompileResult.Row] = []
        for (index, module) in modules.enumerated() {
            let package = "\(folder)/\(api.slug)-\(index)"
            let sources = package + "/Sources/Generated"
            try? FileManager.default.removeItem(atPath: package)
            try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
            try module.packageText.write(toFile: package + "/Package.swift", atomically: true, encoding: .utf8)
            try module.generate(sources)
            for target in module.dependencyTargets {
                FileHandle.standardError.write(Data("  building \(target) for \(module.name)\n".utf8))
                try Child.measure("/usr/bin/env", ["swift", "build", "--target", target], in: package)
            }
            var row = CompileResult.Row(name: module.name, size: OutputSize(of: sources), warnings: 0)
            for run in 0..<runs {
                FileHandle.standardError.write(Data("  compiling \(module.name), build \(run + 1) of \(runs)\n".utf8))
                try touchSources(in: sources)
                let (usage, output) = try Child.measure("/usr/bin/env", ["swift", "build", "--target", "Generated"], in: package)
                row.usage.append(usage)
                // The driver prints a warning once per frontend job that sees it: count each once.
                row.warnings = Set(output.split(whereSeparator: \.isNewline).filter { $0.contains(": warning: ") }).count
            }
            rows.append(row)
        }
        return CompileResult(api: api, rows: rows)
    }

    /// Makes the next build of the generated module a clean one for it alone: every source file
    /// is newer than its object file, so the driver compiles them all again and re-emits the
    /// module, while the dependencies stay built. (Deleting the target's build folder instead
    /// loses the build plan's output file map, which SwiftPM does not write again.)
    private func touchSources(in sources: String) throws {
        let now = Date()
        for file in try FileManager.default.contentsOfDirectory(atPath: sources) where file.hasSuffix(".swift") {
            try FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: sources + "/" + file)
        }
    }
}
