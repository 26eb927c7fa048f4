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
    ],
    swiftLanguageModes: [.v6]
)
