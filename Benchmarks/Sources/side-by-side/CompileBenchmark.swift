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
            let binPath = try Child.measure("/usr/bin/env", ["swift", "build", "--show-bin-path"], in: package).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
            for run in 0..<runs {
                FileHandle.standardError.write(Data("  compiling \(module.name), build \(run + 1) of \(runs)\n".utf8))
                try removeProducts(of: "Generated", in: binPath)
                let (usage, output) = try Child.measure("/usr/bin/env", ["swift", "build", "--target", "Generated"], in: package)
                row.usage.append(usage)
                // The driver prints a warning once per frontend job that sees it: count each once.
                row.warnings = Set(output.split(whereSeparator: \.isNewline).filter { $0.contains(": warning: ") }).count
            }
            rows.append(row)
        }
        return CompileResult(api: api, rows: rows)
    }

    /// Makes the next build of the generated module a clean one for it alone: its object files,
    /// module and the driver's incremental state go, while the dependencies and SwiftPM's build
    /// plan (the output file map, which SwiftPM writes only when it plans) stay.
    ///
    /// Touching the sources is not enough: the frontend then recompiles each file but finds the
    /// LLVM module's hash equal to the one stored in the existing object file and skips LLVM's
    /// code generation, about half of a generated file's compile; a touched rebuild of the
    /// 1,000-endpoint module took 41 s where a clean build took 60 s for that reason.
    private func removeProducts(of target: String, in binPath: String) throws {
        let manager = FileManager.default
        let buildFolder = binPath + "/\(target).build"
        let products = [".o", ".swiftdeps", ".swiftdeps~", ".d", ".dia", ".swiftmodule", ".swiftdoc", ".swiftsourceinfo", ".emit-module.d", ".priors"]
        for name in (try? manager.contentsOfDirectory(atPath: buildFolder)) ?? [] where products.contains(where: name.hasSuffix) {
            try manager.removeItem(atPath: buildFolder + "/" + name)
        }
        for suffix in ["swiftmodule", "swiftdoc", "swiftsourceinfo", "abi.json"] where manager.fileExists(atPath: binPath + "/Modules/\(target).\(suffix)") {
            try manager.removeItem(atPath: binPath + "/Modules/\(target).\(suffix)")
        }
    }
}
