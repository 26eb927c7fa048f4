// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "CourierRuntime", targets: ["CourierRuntime"]),
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .library(name: "CourierBridges", targets: ["CourierBridges"]),
        .library(name: "CourierObservability", targets: ["CourierObservability"]),
        // CourierGenerator is deliberately not a product: the README presents the CLI and the plugins,
        // never the generator as an API, and an exported library would promise a stable API that
        // is still changing. The CLI, the plugins (through the CLI) and the tests use the target.
        .executable(name: "courier", targets: ["courier"]),
        .plugin(name: "CourierBuildPlugin", targets: ["CourierBuildPlugin"]),
        .plugin(name: "CourierCommandPlugin", targets: ["CourierCommandPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Runs child processes without blocking a thread of the concurrency pool: tests and courier-bench.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        // Builds the DocC catalogs: `scripts/docs` (docs/Architecture.md, Documentation). A command plugin only.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Combine for CourierBridges where Apple's is missing (Linux), so the bridge is built and tested there too.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // Tracing and metrics for CourierObservability only; the runtime stays free of them.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        // The package's one lock (`Locked`), shared by every target at `package` access: a lock is
        // not API Courier offers, and one implementation is better than a copy per module. A
        // target of its own because the generator and the test server do not depend on the runtime.
        .target(name: "CourierLocking"),
        // What generated clients compile against. Never depends on the generator or on YAML.
        .target(
            name: "CourierRuntime",
            dependencies: [
                "CourierLocking",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Kept apart so that apps using only URLSession do not pull in SwiftNIO.
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "CourierRuntime",
                "CourierLocking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Test doubles for apps' tests and Courier's own: the stub transport and the manual clock.
        // Kept out of CourierRuntime so that what ships in an app carries only production code.
        .target(
            name: "CourierTesting",
            dependencies: [
                "CourierRuntime",
                "CourierLocking",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Combine publishers and completion handlers over the async calls, for code that is not
        // async yet; a product of its own so that async-only apps neither build nor link it.
        .target(
            name: "CourierBridges",
            dependencies: [
                "CourierRuntime",
                "CourierLocking",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
            ]
        ),
        // Spans (swift-distributed-tracing) and metrics (swift-metrics) for calls, through the
        // runtime's dependency-free `ClientInstrument` seam; apps opt in by adding this product.
        .target(
            name: "CourierObservability",
            dependencies: [
                "CourierRuntime",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "CourierGenerator",
            dependencies: [
                "CourierLocking",
                // For libyaml, which Yams builds as its C target `CYaml`: `YAMLReader` reads its
                // events into Courier's own nodes, and nothing needs installing on macOS.
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // Watches spec files for `courier generate --watch`: inotify on Linux, vnode sources on
        // Darwin, polling elsewhere. Apart from the generator, which it does not use, and from
        // the CLI so that its tests need no executable.
        .target(name: "CourierWatching"),
        // Benchmark tooling: the synthetic specs of `courier synthesize`, courier-bench and the scale
        // tests. Kept out of CourierGenerator, whose API it does not need, and not a product.
        .target(name: "SyntheticSpecs"),
        .executableTarget(
            name: "courier",
            dependencies: [
                "CourierGenerator",
                "CourierLocking",
                "CourierWatching",
                "SyntheticSpecs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The plugins only find inputs and run `courier`; they share Plugins/Shared through a
        // symlink in each plugin's folder, because plugin targets cannot depend on libraries.
        .plugin(
            name: "CourierBuildPlugin",
            capability: .buildTool(),
            dependencies: ["courier"]
        ),
        .plugin(
            name: "CourierCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "generate-clients",
                    description: "Regenerates checked-in Courier clients (default: Specs into Generated); --check reports drift."
                ),
                permissions: [
                    .writeToPackageDirectory(reason: "Courier writes the generated clients into the package's output folder.")
                ]
            ),
            dependencies: ["courier"]
        ),

        // The example services of Specs/, generated by `swift run courier generate Specs --output Generated`.
        // Building them proves that generated code compiles against CourierRuntime.
        generatedService("Bookshelf"),
        generatedService("Discord"),
        generatedService("GitHub"),
        generatedService("Marketplace"),
        generatedService("OpenAI"),
        generatedService("Qiita"),
        generatedService("Slack"),
        generatedService("Stripe"),

        // Reference outputs of small focused specs (Tests/References/<Feature>/spec.yaml), compiled so
        // that every feature's expected code is proven to build without warnings.
        referenceFixture("Auth"),
        referenceFixture("Discriminators"),
        referenceFixture("Enums"),
        referenceFixture("ErrorMatching"),
        referenceFixture("ErrorMeaning"),
        referenceFixture("ErrorRanges"),
        referenceFixture("Escaping"),
        referenceFixture("FaultSuite"),
        referenceFixture("Forms"),
        referenceFixture("Keywords"),
        referenceFixture("OpenAPIOverlay", specs: ["overlay.yaml", "openapi.yaml"]),
        referenceFixture("OpenAPIPetstore", specs: ["openapi.yaml"]),
        referenceFixture("Outcomes"),
        referenceFixture("Pagination"),
        referenceFixture("Parameters"),
        referenceFixture("Payloads"),
        referenceFixture("Recursion"),
        referenceFixture("Resilience"),
        referenceFixture("Streaming"),
        referenceFixture("Unions"),

        // Benchmarks, run as `swift run -c release courier-bench`; see docs/BENCHMARKS.md. Not part of `swift test`.
        .executableTarget(
            name: "courier-bench",
            dependencies: [
                "CourierGenerator",
                "CourierLocking",
                "CourierRuntime",
                "CourierAsyncHTTPClient",
                "CourierObservability",
                "CourierTestServer",
                "CourierTestSupport",
                "SyntheticSpecs",
                // A generated client, for the runtime-overhead figures.
                "BookshelfAPI",
                .product(name: "Yams", package: "Yams"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),

        // A loopback HTTP server with fault modes, used only by tests.
        .target(
            name: "CourierTestServer",
            dependencies: [
                "CourierLocking",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/CourierTestServer"
        ),
        // How tests and courier-bench run child processes (courier, swiftc, nested swift builds):
        // awaited, never blocking one of the few threads of the concurrency pool.
        .target(
            name: "CourierTestSupport",
            dependencies: [
                "CourierLocking",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/CourierTestSupport"
        ),
        .testTarget(
            name: "CourierRuntimeTests",
            dependencies: [
                "CourierRuntime", "CourierTesting", "CourierAsyncHTTPClient", "CourierTestServer", "CourierObservability",
                "CourierLocking",
                // Proves spans and metrics with the libraries' own in-memory tracer and test metrics factory.
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                // Runs `courier-bench transfer` as a child process to measure a transfer's memory apart from the server's.
                "CourierTestSupport",
                // The transport's own tests build HTTPClients and classify HTTPClientError.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "CourierGeneratorTests",
            dependencies: ["CourierGenerator", "CourierWatching", "CourierTestSupport", "SyntheticSpecs"]
        ),
        // Calls the generated clients of Generated/ and the reference fixtures, through the stub
        // transport and the real loopback server.
        .testTarget(
            name: "GeneratedClientTests",
            dependencies: [
                "BookshelfAPI", "DiscordAPI", "GitHubAPI", "MarketplaceAPI", "OpenAIAPI", "QiitaAPI", "SlackAPI", "StripeAPI",
                "ReferenceAuth", "ReferenceDiscriminators", "ReferenceEnums", "ReferenceErrorMatching", "ReferenceErrorMeaning", "ReferenceErrorRanges", "ReferenceEscaping",
                "ReferenceKeywords", "ReferenceOutcomes", "ReferencePagination", "ReferenceParameters", "ReferenceResilience", "ReferencePayloads", "ReferenceStreaming", "ReferenceUnions",
                "ReferenceForms",
                // The generated client of the server-counted fault suite (Faults/).
                "ReferenceFaultSuite",
                "CourierRuntime", "CourierTesting", "CourierAsyncHTTPClient", "CourierTestServer", "CourierGenerator",
                "CourierLocking", "CourierTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CourierCLITests",
            dependencies: ["courier", "CourierGenerator", "CourierTestSupport", "SyntheticSpecs"]
        ),
        // Builds Tests/PluginConsumer (a package of its own, not a target here) through the plugins,
        // and a package that `courier init` writes.
        .testTarget(name: "PluginTests", dependencies: ["CourierTestSupport", "courier"]),
        // The bridges against the real loopback server and URLSession, through a generated client.
        .testTarget(
            name: "CourierBridgesTests",
            dependencies: ["CourierBridges", "CourierRuntime", "CourierTestServer", "MarketplaceAPI", "CourierLocking"]
        ),
        .testTarget(name: "CourierTestSupportTests", dependencies: ["CourierTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

/// A library target for one generated service: `<Service>API` built from `Generated/<Service>`.
func generatedService(_ name: String) -> Target {
    .target(
        name: name + "API",
        // CourierRuntime re-exports HTTPTypes, so generated code needs nothing else.
        dependencies: ["CourierRuntime"],
        path: "Generated/" + name
    )
}

/// A library target for one reference output: `Reference<Feature>` built from `Tests/References/<Feature>`.
func referenceFixture(_ feature: String, specs: [String] = ["spec.yaml"]) -> Target {
    .target(
        name: "Reference" + feature,
        // CourierRuntime re-exports HTTPTypes, so generated code needs nothing else.
        dependencies: ["CourierRuntime"],
        path: "Tests/References/" + feature,
        exclude: specs
    )
}
