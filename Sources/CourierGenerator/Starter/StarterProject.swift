import Foundation

/// What `courier init` writes: a commented starter spec for a new service, and optionally a
/// SwiftPM package around it whose build plugin generates the client on every build.
///
/// The texts are made here rather than in the CLI so that the tests can check them (the spec
/// validates and generates without a diagnostic) without running the command.
package struct StarterProject: Sendable {
    /// Where the package's Courier dependency comes from.
    ///
    /// Courier has no public URL to default to, so the user names one or the other.
    package enum CourierDependency: Sendable, Hashable {
        /// A local checkout: `.package(name: "Courier", path: path)`; a relative path is relative
        /// to the package's folder, as SwiftPM reads it.
        case path(String)
        /// A Git URL and the lowest version to accept: `.package(url: url, from: version)`.
        case url(String, from: String)
    }

    /// One file to write, by its path relative to the output folder.
    package struct File: Sendable, Hashable {
        /// The path relative to the output folder, with `/` between folders.
        package var path: String
        /// The file's text.
        package var contents: String
    }

    /// The service's name, which prefixes every generated type (`<Service>Client`).
    package let serviceName: String

    /// A starter for the service named `serviceName`. Whether the name can name a service is
    /// what ``diagnostics()`` says.
    package init(serviceName: String) {
        self.serviceName = serviceName
    }

    /// The spec's file name when written on its own: `<Service>.yaml`.
    package var specFileName: String { serviceName + ".yaml" }

    /// The build plugin finds specs by their `.courier.yaml` suffix (`CourierConventions`), and
    /// names the client after the rest of the file name.
    var packageSpecPath: String { "Sources/\(targetName)/\(serviceName).courier.yaml" }

    /// The generated client's type: `<Service>Client`, or the service's own name when it ends
    /// with `Client` (``GeneratedNames/client(ofService:)``).
    var clientName: String { GeneratedNames.client(ofService: SwiftIdentifier(verbatim: serviceName)) }

    /// The library target that holds the spec and the generated client: `<Service>API`, without
    /// a second `API` for a service named `TrainTravelAPI`.
    var targetName: String { GeneratedNames.joined(service: SwiftIdentifier(verbatim: serviceName), suffix: "API") }

    /// The executable target that calls the client.
    var exampleTargetName: String { serviceName + "Example" }

    /// The test target that calls the client through the stub transport.
    var testTargetName: String { targetName + "Tests" }

    /// What loading the starter spec reports: errors when `serviceName` cannot name a service
    /// (the same rules as for any spec) or is not the Swift type name the service would get
    /// (`my service` would be `MyService`), since it also names the files, folders and targets;
    /// nothing otherwise.
    package func diagnostics() -> DiagnosticCollector {
        let loaded = SpecLoader().loadSpec(contents: specText, displayPath: specFileName)
        var diagnostics = loaded.diagnostics
        if let spec = loaded.spec, spec.swiftName.name != serviceName {
            diagnostics.report(.error(
                "'\(serviceName)' is not a Swift type name; the service would be named \(spec.swiftName.name): use that, or another name",
                at: spec.location))
        }
        return diagnostics
    }

    /// The files of the spec alone: `<Service>.yaml`, and beside it the schema its modeline names.
    package var specFiles: [File] {
        [File(path: specFileName, contents: specText), schemaFile]
    }

    /// The spec format's JSON Schema, which the spec's modeline names, at the top of what `init`
    /// writes: beside the lone spec, or at the package's root (outside every target, so that
    /// SwiftPM has no file it does not know what to do with).
    var schemaFile: File {
        File(path: SpecSchema.fileName(for: .spec), contents: SpecSchema.json(for: .spec))
    }

    /// The files of a package that builds the client with the build plugin: `Package.swift`, the
    /// spec and a Swift file beside it, an executable that calls the client and a test that calls it through the stub
    /// transport.
    package func packageFiles(dependency: CourierDependency) -> [File] {
        [
            File(path: "Package.swift", contents: packageManifest(dependency: dependency)),
            File(path: packageSpecPath, contents: specText(schemaPath: "../../" + SpecSchema.fileName(for: .spec), inPackage: true)),
            File(path: "Sources/\(targetName)/\(targetName).swift", contents: targetSource),
            File(path: "Sources/\(exampleTargetName)/main.swift", contents: exampleMain),
            File(path: "Tests/\(testTargetName)/\(clientName)Tests.swift", contents: clientTests),
            schemaFile,
        ]
    }

    /// The commented starter spec, for a schema beside it.
    package var specText: String { specText(schemaPath: SpecSchema.fileName(for: .spec), inPackage: false) }

    /// How the starter spec says to check itself: in a package, where the build checks it and
    /// `courier` runs as the Courier dependency's executable, or alone, beside the command.
    func checkingAdvice(inPackage: Bool) -> String {
        guard inPackage else { return "# Check the file with `courier validate \(specFileName)`." }
        return """
            # `swift build` checks the file and reports mistakes at their lines. To check it alone,
            # run Courier's command from the package's folder: `swift run courier validate \(packageSpecPath)`.
            """
    }

    /// The commented starter spec. Its first line is the modeline that tells editors speaking the
    /// YAML language server protocol which JSON Schema checks and completes the file;
    /// `schemaPath` is relative to the spec.
    package func specText(schemaPath: String, inPackage: Bool) -> String {
        """
        \(SpecSchema.modeline(schemaPath: schemaPath))
        # A Courier spec: one YAML file describes one HTTP service, and `courier generate` (or the
        # build plugin) turns it into a typed Swift client, \(clientName). Every key is
        # documented in Courier's docs/SpecFormat.md; each section below names its part there.
        \(checkingAdvice(inPackage: inPackage))

        # The name prefixes every generated type: \(clientName), \(serviceName)Models.swift…
        # The description becomes the client's documentation. (SpecFormat.md: Top level)
        service: \(serviceName)
        description: What the service does, in a sentence.
        # Endpoint paths are appended to this URL; the client's init can point elsewhere.
        baseURL: https://api.example.com/v1

        # Header fields sent with every request. (SpecFormat.md: headers)
        headers:
          Accept: application/json

        # How requests authenticate: `bearer` sends `Authorization: Bearer <token>`, the token
        # asked for before every call. Delete the line for an open API. (SpecFormat.md: auth)
        auth: bearer

        # What every endpoint inherits: a timeout in seconds, retries of failed attempts (only
        # for requests that are safe to repeat), and how failed statuses become named Swift
        # error cases, decoded from the body. (SpecFormat.md: defaults, Error mappings,
        # Resilience hints)
        defaults:
          timeout: 30
          retry: { maxAttempts: 3 }
          errors:
            404: { case: notFound, body: Problem, message: That item does not exist. }
            5XX: { case: server, body: Problem }

        # The shapes of error bodies, named by the mappings above. (SpecFormat.md: Error schemas)
        errorSchemas:
          Problem:
            code: String
            message: String

        # Each model becomes a Codable struct; `?` makes a property optional, `[Item]` is a list.
        # (SpecFormat.md: Models, Types)
        models:
          Item:
            id: Int
            name: String
            note: String?
          NewItem:
            name: String
            note: String?

        # Each endpoint becomes a method of the client, named by its key: the HTTP method and
        # path, parameters, body and response. (SpecFormat.md: Endpoints)
        endpoints:
          listItems:
            description: The items, a page at a time.
            get: /items
            query:
              limit: { type: Int, default: 20 }
            response: "[Item]"

          getItem:
            get: /items/{id}
            path: { id: Int }
            response: Item

          createItem:
            post: /items
            body: NewItem
            response: { status: 201, body: Item }

        """
    }

    /// `Package.swift`: the library with the spec and the build plugin, the example and the test.
    func packageManifest(dependency: CourierDependency) -> String {
        let package: String
        let packageName: String
        switch dependency {
        case .path(let path):
            // A path dependency's identity is its folder's name; `name:` makes it "Courier" wherever
            // the checkout lives.
            package = ".package(name: \"Courier\", path: \(SwiftLiteral.string(path)))"
            packageName = "Courier"
        case .url(let url, let version):
            package = ".package(url: \(SwiftLiteral.string(url)), from: \(SwiftLiteral.string(version)))"
            packageName = Self.packageIdentity(ofURL: url)
        }
        let courier = SwiftLiteral.string(packageName)
        return """
            // swift-tools-version: 6.0
            // Made by `courier init \(serviceName) --package`. The build plugin generates \(clientName) from
            // \(packageSpecPath) on every build: edit the spec and build again.
            import PackageDescription

            let package = Package(
                name: \(SwiftLiteral.string(serviceName)),
                platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
                dependencies: [
                    \(package),
                ],
                targets: [
                    // The spec and the client generated from it.
                    .target(
                        name: "\(targetName)",
                        dependencies: [.product(name: "CourierRuntime", package: \(courier))],
                        plugins: [.plugin(name: "CourierBuildPlugin", package: \(courier))]
                    ),
                    // Calls the service: `swift run \(exampleTargetName) [base URL]`.
                    .executableTarget(
                        name: "\(exampleTargetName)",
                        dependencies: ["\(targetName)"]
                    ),
                    // Calls the client through the stub transport, without a network.
                    .testTarget(
                        name: "\(testTargetName)",
                        dependencies: [
                            "\(targetName)",
                            .product(name: "CourierRuntime", package: \(courier)),
                            .product(name: "CourierTesting", package: \(courier)),
                        ]
                    ),
                ],
                swiftLanguageModes: [.v6]
            )

            """
    }

    /// The one Swift file of the spec's target: SwiftPM drops a target without Swift sources, and
    /// with it the build plugin's output.
    var targetSource: String {
        """
        // SwiftPM builds a target only when it has a Swift file, so this one stays, even empty. The
        // build plugin adds \(clientName) and its types, generated from \(serviceName).courier.yaml on
        // every build; this is the place for your own extensions to them.

        """
    }

    /// The example's `main.swift`.
    var exampleMain: String {
        """
            import Foundation
            import \(targetName)

            // Calls the service at the spec's base URL, or at the URL given as the first argument.
            let baseURL = CommandLine.arguments.dropFirst().first.flatMap { URL(string: $0) } ?? \(clientName).defaultBaseURL
            let client = \(clientName)(baseURL: baseURL)
            do {
                for item in try await client.listItems() {
                    print("\\(item.id): \\(item.name)")
                }
            } catch {
                // Written `do throws(APIError<ListItemsFailure>)`, the error is typed: switch over its
                // cases to handle each documented failure (see the test target).
                print("listItems failed: \\(error.localizedDescription)")
            }

            """
    }

    /// The test target's file: the generated fake for code that uses the client, which is what
    /// most tests need, and the stub transport for what goes over the wire.
    var clientTests: String {
        """
        import CourierRuntime
        import CourierTesting
        import Foundation
        import Testing
        import \(targetName)

        // Code that uses the client takes `any \(serviceName)APIProtocol`, so that tests (and
        // previews) hand it the generated fake: typed results, no HTTP.
        struct ItemTitles {
            let api: any \(serviceName)APIProtocol

            func title(ofItem id: Int) async -> String {
                do throws(APIError<GetItemFailure>) {
                    return try await api.getItem(id: id).name
                } catch .endpoint(.notFound, _) {
                    return "(deleted)"
                } catch {
                    return "(unavailable)"
                }
            }
        }

        @Test func aDeletedItemHasAPlaceholderTitle() async {
            let fake = \(serviceName)Fake()
            fake.getItem = .failure(.notFound(ErrorBody(value: nil, raw: Data())), status: .notFound)
            #expect(await ItemTitles(api: fake).title(ofItem: 7) == "(deleted)")
            #expect(fake.calls.requests(of: GetItemRequest.self).map(\\.id) == [7])
        }

        // The stub transport runs the real client against scripted responses: for what goes over
        // the wire, such as paths, statuses and bodies.

        @Test func listItemsDecodesTheItems() async throws {
            let stub = StubTransport()
            stub.on(.get, "/v1/items", .json(#"[{"id": 1, "name": "First"}]"#))
            let items = try await \(clientName)(transport: stub).listItems()
            #expect(items.map(\\.name) == ["First"])
        }

        @Test func aMissingItemIsNotFound() async throws {
            let stub = StubTransport()
            stub.on(.get, "/v1/items/{id}", .json(#"{"code": "missing", "message": "No such item."}"#, status: 404))
            do throws(APIError<GetItemFailure>) {
                _ = try await \(clientName)(transport: stub).getItem(id: 7)
                Issue.record("expected notFound")
            } catch {
                guard case .endpoint(.notFound(let problem), _) = error else {
                    Issue.record("expected notFound, got \\(error)")
                    return
                }
                #expect(problem.value?.code == "missing")
            }
        }

        """
    }

    /// SwiftPM's identity of a URL dependency, which product references name it by: the last path
    /// component without `.git`.
    static func packageIdentity(ofURL url: String) -> String {
        var last = url.split(separator: "/").last.map(String.init) ?? url
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last
    }
}
