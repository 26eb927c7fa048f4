// swift-tools-version: 6.0
import PackageDescription

// Side-by-side benchmarks of Courier against apple/swift-openapi-generator, on the same APIs in
// the same run. A package of its own, so that Courier's users never resolve
// swift-openapi-generator and `swift test` in the main package never builds it.
// Run it with `Benchmarks/run`; docs/BENCHMARKS.md explains what it measures.
let package = Package(
    name: "CourierBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Courier itself, by path: `run` builds its `courier` executable from here.
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .executableTarget(
            name: "side-by-side",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The baseline: Yams' compose of the same file, as a process of its own like the generators.
        .executableTarget(name: "yams-compose", dependencies: [.product(name: "Yams", package: "Yams")]),
        // The floor under it: libyaml's event parse alone, in C over the system's libyaml
        // (libyaml-dev on Debian, `brew install libyaml` on macOS).
        .executableTarget(name: "libyaml-parse", linkerSettings: [.linkedLibrary("yaml")]),
    ]
)
