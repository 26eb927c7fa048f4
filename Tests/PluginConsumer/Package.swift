// swift-tools-version: 6.0
// An app that uses Courier the way docs/Plugins.md shows: the build plugin generates a client from
// Sources/PetsDemo/Pets.courier.yaml, and another from the OpenAPI document
// Sources/StoreAPI/openapi.yaml, at build time. Tests/PluginTests builds a copy of it.
import PackageDescription

let package = Package(
    name: "PluginConsumer",
    platforms: [.macOS(.v13)],
    dependencies: [
        // A path dependency's identity is its folder's name; `name:` lets the product references
        // below say "Courier" wherever the checkout lives.
        .package(name: "Courier", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "PetsDemo",
            dependencies: [
                "StoreAPI",
                .product(name: "CourierRuntime", package: "Courier"),
                .product(name: "CourierTesting", package: "Courier"),
            ],
            plugins: [.plugin(name: "CourierBuildPlugin", package: "Courier")]
        ),
        .target(
            name: "StoreAPI",
            dependencies: [.product(name: "CourierRuntime", package: "Courier")],
            plugins: [.plugin(name: "CourierBuildPlugin", package: "Courier")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
