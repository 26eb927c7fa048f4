// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "CourierRuntime", targets: ["CourierRuntime"]),
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .library(name: "CourierGenerator", targets: ["CourierGenerator"]),
        .executable(name: "courier", targets: ["courier"]),
        .plugin(name: "CourierBuildPlugin", targets: ["CourierBuildPlugin"]),
        .plugin(name: "CourierCommandPlugin", targets: ["CourierCommandPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // What generated clients compile against. Never depends on the generator or on YAML.
        .target(
            name: "CourierRuntime",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Kept apart so that apps using only URLSession do not pull in SwiftNIO.
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "CourierRuntime",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "CourierGenerator",
            dependencies: [
                .product(name: "Yams", package: "Yams"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        .executableTarget(
            name: "courier",
            dependencies: [
                "CourierGenerator",
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

        // A loopback HTTP server with fault modes, used only by tests.
        .target(
            name: "CourierTestServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/CourierTestServer"
        ),
        .testTarget(
            name: "CourierRuntimeTests",
            dependencies: ["CourierRuntime", "CourierAsyncHTTPClient", "CourierTestServer"]
        ),
        .testTarget(
            name: "CourierGeneratorTests",
            dependencies: ["CourierGenerator"]
        ),
        .testTarget(
            name: "CourierCLITests",
            dependencies: ["courier"]
        ),
        // Builds Tests/PluginConsumer (a package of its own, not a target here) through the plugins.
        .testTarget(name: "PluginTests"),
    ],
    swiftLanguageModes: [.v6]
)
