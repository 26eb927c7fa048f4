import CourierTestSupport
import Foundation
import Testing

/// Builds Tests/PluginConsumer, a package that uses Courier the way docs/Plugins.md says, through the
/// build plugin, with a Courier spec in one target and an OpenAPI document in another: from clean,
/// after spec, include, `$ref`'d file and template changes, with no change, and with a spec error. Then runs the command plugin on it and on this repository.
///
/// The steps share one consumer copy and depend on each other, so they run in order in one test;
/// each step's full output is in `.build-plugin-tests/logs/`.
@Suite(.serialized)
struct ConsumerBuildTests {
    /// What the build log shows when the build plugin's command runs (its display name).
    static let generationMarker = "Generating Courier client Pets from Pets.courier.yaml"
    /// The same for the OpenAPI document of the StoreAPI target, prefixed with the target's name.
    static let documentMarker = "Generating Courier client StoreAPI from openapi.yaml"
    /// A schema outside the target that the document reaches through `$ref`.
    static let referencedSchema = "Shared/inventory.yaml"
    static let spec = "Sources/PetsDemo/Pets.courier.yaml"
    static let include = "Sources/PetsDemo/Shared/Problems.yaml"
    static let template = "Sources/PetsDemo/CourierTemplates/header.mustache"
    static let main = "Sources/PetsDemo/main.swift"

    @Test func buildPluginGeneratesRegeneratesOnlyOnChangeAndReportsSpecErrors() async throws {
        try PluginWorkspace.prepareCleanConsumer()

        // 1. From clean: the plugin generates the client, the app compiles against it and runs.
        let clean = try await build("1-clean-build")
        try #require(clean.succeeded, "the consumer does not build from clean:\n\(clean)")
        #expect(clean.output.contains(Self.generationMarker), "no generation step in the log:\n\(clean)")
        #expect(clean.output.contains(Self.documentMarker), "the OpenAPI document was not generated:\n\(clean)")
        let firstRun = try await runDemo("1-run")
        #expect(firstRun.lines == ["pet 1: Rex (dog)", "pet 2: Tom", "store: 7 available, open"], "unexpected output:\n\(firstRun)")
        let files = try generatedFiles()
        #expect(files.keys.sorted() == ["PetsClient.swift", "PetsErrors.swift", "PetsModels.swift", "PetsRequests.swift",
                                        "StoreAPIClient.swift", "StoreAPIErrors.swift", "StoreAPIModels.swift", "StoreAPIRequests.swift"])
        let client = try text(files, "PetsClient.swift")
        #expect(client.contains("Header template overridden by the PluginConsumer example."),
                "the target's CourierTemplates/header.mustache was not used")

        // 2. A new endpoint: the spec change regenerates, and the app can call the new method.
        try append("""
              newestPet:
                get: /pets/newest
                description: The pet registered last.
                response: Pet

            """, to: Self.spec)
        try PluginWorkspace.write(Self.mainCallingNewestPet, to: Self.main)
        let afterSpecChange = try await build("2-spec-changed")
        try #require(afterSpecChange.succeeded, "the consumer does not build after adding an endpoint:\n\(afterSpecChange)")
        #expect(afterSpecChange.output.contains(Self.generationMarker))
        #expect(try text(try generatedFiles(), "PetsClient.swift").contains("func newestPet("))
        let secondRun = try await runDemo("2-run")
        #expect(secondRun.lines == ["pet 1: Rex (dog)", "pet 2: Tom", "newest: pet 3: Kitty"], "unexpected output:\n\(secondRun)")

        // 3. No change: the generator does not run, and its outputs keep their dates.
        let datesBefore = try modificationDates()
        let unchanged = try await build("3-no-change")
        try #require(unchanged.succeeded, "\(unchanged)")
        #expect(!unchanged.output.contains(Self.generationMarker), "the generator ran although nothing changed:\n\(unchanged)")
        #expect(!unchanged.output.contains(Self.documentMarker), "the generator ran although nothing changed:\n\(unchanged)")
        #expect(try modificationDates() == datesBefore)

        // 3b. A file outside the target that the OpenAPI document reaches through `$ref` is an
        // input: changing it regenerates that client.
        try append("  restockedAt: { type: string, format: date-time }\n", to: Self.referencedSchema)
        let afterReference = try await build("3b-referenced-schema-changed")
        try #require(afterReference.succeeded, "\(afterReference)")
        #expect(afterReference.output.contains(Self.documentMarker), "editing a $ref'd file did not regenerate:\n\(afterReference)")
        #expect(try text(try generatedFiles(), "StoreAPIModels.swift").contains("restockedAt"))

        // 4. An included file is an input: changing it regenerates.
        try append("    detail: String?\n", to: Self.include)
        let afterInclude = try await build("4-include-changed")
        try #require(afterInclude.succeeded, "\(afterInclude)")
        #expect(afterInclude.output.contains(Self.generationMarker), "editing an included file did not regenerate:\n\(afterInclude)")
        #expect(try generatedFiles().values.contains { $0.contains("detail") })

        // 5. An overriding template is an input: changing it regenerates.
        let templateText = try PluginWorkspace.read(Self.template)
        try PluginWorkspace.write(
            templateText.replacingOccurrences(of: "by the PluginConsumer example.", with: "by the PluginConsumer example, second version."),
            to: Self.template
        )
        let afterTemplate = try await build("5-template-changed")
        try #require(afterTemplate.succeeded, "\(afterTemplate)")
        #expect(afterTemplate.output.contains(Self.generationMarker), "editing a template did not regenerate:\n\(afterTemplate)")
        #expect(try text(try generatedFiles(), "PetsClient.swift").contains("second version"))

        // 5b. Files that outgrow one part (here the included file, with a long comment) are
        // written in numbered parts of each kind. The plugin declares them from the files' size
        // alone: three parts' worth of bytes asks for four parts, and the service's two requests
        // fill two, so `courier` leaves the last two empty, and those compile too.
        let line = "# A long comment that makes the included file large for its few declarations.\n"
        try append(String(repeating: line, count: 3 * CourierConventions.specBytesPerPart / line.utf8.count + 1), to: Self.include)
        // SwiftPM keeps a plugin's commands until it plans the build again, as it does after a
        // manifest change; until then the plugin's earlier count and file names stand together.
        try append("\n", to: "Package.swift")
        let afterGrowth = try await build("5b-spec-outgrows-a-part")
        try #require(afterGrowth.succeeded, "\(afterGrowth)")
        let parts = try generatedFiles()
        let kinds = ["Errors", "Models", "Requests"].flatMap { kind in ["", "2", "3", "4"].map { "Pets\(kind)\($0).swift" } }
        #expect(parts.keys.sorted().filter { $0.hasPrefix("Pets") } == (["PetsClient.swift"] + kinds).sorted())
        #expect(try text(parts, "PetsRequests.swift").contains("struct ListPetsRequest"))
        #expect(try text(parts, "PetsRequests2.swift").contains("struct NewestPetRequest"))
        #expect(try !text(parts, "PetsRequests4.swift").contains("struct"), "a part beyond the requests is not empty")
        let grownRun = try await runDemo("5b-run")
        #expect(grownRun.lines == secondRun.lines, "unexpected output:\n\(grownRun)")

        // 6. A spec error fails the build with a diagnostic that points at the YAML line.
        let specText = try PluginWorkspace.read(Self.spec)
        let lines = specText.components(separatedBy: "\n")
        let responseLine = try #require(lines.lastIndex(of: "    response: Pet"), "the added endpoint is gone")
        try PluginWorkspace.write(
            lines.enumerated().map { $0.offset == responseLine ? "    respnse: Pet" : $0.element }.joined(separator: "\n"),
            to: Self.spec
        )
        let broken = try await build("6-spec-error")
        #expect(!broken.succeeded, "a spec error did not fail the build:\n\(broken)")
        let diagnostic = try #require(
            broken.lines.compactMap(YAMLDiagnostic.init).first,
            "no path:line:column: error: line in the build log:\n\(broken)"
        )
        #expect(diagnostic.file.resolvingSymlinksInPath() == PluginWorkspace.consumer.appendingPathComponent(Self.spec).resolvingSymlinksInPath())
        #expect(diagnostic.line == responseLine + 1)
        #expect(diagnostic.column == 5)
        #expect(diagnostic.message.contains("respnse"), "\(diagnostic.message)")

        // 7. A spec whose file name cannot prefix Swift files fails the build, naming the file.
        try PluginWorkspace.write(try PluginWorkspace.read(Self.spec), to: "Sources/PetsDemo/pet-store.courier.yaml")
        let badName = try await build("7-bad-spec-name")
        #expect(!badName.succeeded, "a spec named pet-store.courier.yaml did not fail the build:\n\(badName)")
        #expect(badName.output.contains("Sources/PetsDemo/pet-store.courier.yaml: name the spec after the Swift type name"),
                "\(badName)")
    }

    /// Getting started as a new user types it: `courier init <Service> --package`, an endpoint
    /// added to the spec, `swift build --build-tests` and `swift test`. Declared after the test
    /// above so that it runs in the consumer's scratch path where Courier and its dependencies
    /// are built already, and only the new package compiles (when run alone, it builds them).
    @Test func anInitializedPackageBuildsAndTestsAfterAnEdit() async throws {
        let package = PluginWorkspace.gettingStarted
        try FileManager.default.createDirectory(at: PluginWorkspace.root.appendingPathComponent("logs"), withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: package.path) {
            try FileManager.default.removeItem(at: package)
        }
        let created = try await SwiftPMRun.run(
            try TestEnvironment.courierExecutable(),
            ["init", "Greeter", "--package", "--courier-path", PluginWorkspace.repository.path, "--output", package.path],
            in: PluginWorkspace.root, log: PluginWorkspace.log("12-init-package")
        )
        try #require(created.succeeded, "\(created)")
        // The repository's resolved versions, as for the consumer.
        let resolved = PluginWorkspace.repository.appendingPathComponent("Package.resolved")
        if FileManager.default.fileExists(atPath: resolved.path) {
            try FileManager.default.copyItem(at: resolved, to: package.appendingPathComponent("Package.resolved"))
        }

        // The user's first edit: a new endpoint, and the example calling it.
        let spec = package.appendingPathComponent("Sources/GreeterAPI/Greeter.courier.yaml")
        let main = package.appendingPathComponent("Sources/GreeterExample/main.swift")
        try (try String(contentsOf: spec, encoding: .utf8) + """

              latestItem:
                get: /items/latest
                description: The item added last.
                response: Item

            """).write(to: spec, atomically: true, encoding: .utf8)
        try (try String(contentsOf: main, encoding: .utf8) + """
            let latest = try? await client.latestItem()
            print("latest: \\(latest?.name ?? "none")")

            """).write(to: main, atomically: true, encoding: .utf8)

        // The user's first test of their own: code that takes the protocol, given the generated
        // fake of the endpoint just added.
        let tests = package.appendingPathComponent("Tests/GreeterAPITests/LatestItemTests.swift")
        try """
            import CourierRuntime
            import Foundation
            import GreeterAPI
            import Testing

            func latestName(from api: any GreeterAPIProtocol) async -> String {
                (try? await api.latestItem().name) ?? "nothing yet"
            }

            @Test func theLatestItemNamesItself() async {
                let fake = GreeterFake()
                fake.latestItem = .success(Item(id: 3, name: "Third"))
                #expect(await latestName(from: fake) == "Third")
                fake.latestItem = .error(.transport(TransportError(.notConnected)))
                #expect(await latestName(from: fake) == "nothing yet")
                #expect(fake.calls.requests.map(\\.operationName) == ["latestItem", "latestItem"])
            }

            """.write(to: tests, atomically: true, encoding: .utf8)

        let scratch = ["--package-path", package.path, "--scratch-path", PluginWorkspace.consumerScratch.path]
        let build = try await SwiftPMRun.swift(["build", "--build-tests"] + scratch, in: package,
                                               log: PluginWorkspace.log("13-init-package-build"))
        try #require(build.succeeded, "the package courier init wrote does not build after adding an endpoint:\n\(build)")
        #expect(build.output.contains("Generating Courier client Greeter from Greeter.courier.yaml"), "\(build)")
        let test = try await SwiftPMRun.swift(["test", "--skip-build"] + scratch, in: package,
                                              log: PluginWorkspace.log("14-init-package-test"))
        #expect(test.succeeded, "the package's starter tests fail:\n\(test)")
        #expect(test.output.contains("Test run with 4 tests"), "\(test)")

        // The starter spec says how to check it alone: Courier's command, run from the package.
        let validate = try await SwiftPMRun.swift(["run"] + scratch + ["courier", "validate", "Sources/GreeterAPI/Greeter.courier.yaml"],
                                                  in: package, log: PluginWorkspace.log("15-init-package-validate"))
        #expect(validate.succeeded, "`swift run courier validate` from the package fails:\n\(validate)")
        #expect(try String(contentsOf: spec, encoding: .utf8).contains("swift run courier validate Sources/GreeterAPI/Greeter.courier.yaml"))
    }

    @Test func commandPluginWritesAndChecksCheckedInCode() async throws {
        // A fresh copy of the consumer in the consumer's scratch path, where the other test has
        // built `courier` already (when run alone, this test builds it).
        try PluginWorkspace.copyConsumer()
        let arguments = ["--specs", Self.spec, "--output", "CheckedIn"]
        let write = try await package(["generate-clients"] + arguments, log: "8-command-write")
        try #require(write.succeeded, "\(write)")
        let folder = PluginWorkspace.consumer.appendingPathComponent("CheckedIn/Pets")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(written == ["PetsClient.swift", "PetsErrors.swift", "PetsModels.swift", "PetsRequests.swift"])
        // Courier runs in the package folder, so the header names the spec by a relative path
        // and checked-in files are the same on every machine.
        let header = try String(contentsOf: folder.appendingPathComponent("PetsClient.swift"), encoding: .utf8)
            .prefix { $0 != "\n" }
        #expect(header.contains(" \(Self.spec)"), "\(header)")
        #expect(!header.contains(PluginWorkspace.consumer.path), "\(header)")

        let clean = try await package(["generate-clients", "--check"] + arguments, log: "9-command-check-clean")
        #expect(clean.succeeded, "--check fails right after generating:\n\(clean)")

        try PluginWorkspace.write(
            try PluginWorkspace.read(Self.spec).replacingOccurrences(
                of: "  listPets:\n",
                with: "  listPets:\n    description: Every pet, in the order they were registered.\n"
            ),
            to: Self.spec
        )
        let drift = try await package(["generate-clients", "--check"] + arguments, log: "10-command-check-drift")
        #expect(!drift.succeeded, "--check passes although the spec changed:\n\(drift)")
        #expect(drift.output.contains("PetsClient.swift"), "--check does not name the file that would change:\n\(drift)")
    }

    @Test func commandPluginReproducesThisPackagesGeneratedFolder() async throws {
        try FileManager.default.createDirectory(at: PluginWorkspace.root.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let check = try await SwiftPMRun.swift(
            ["package", "--package-path", PluginWorkspace.repository.path,
             "--scratch-path", PluginWorkspace.selfScratch.path,
             "--allow-writing-to-package-directory", "generate-clients", "--check"],
            in: PluginWorkspace.repository,
            log: PluginWorkspace.log("11-self-check")
        )
        #expect(check.succeeded, "Generated/ differs from what the command plugin generates from Specs/:\n\(check)")
    }

    // MARK: - Steps

    private func build(_ step: String) async throws -> SwiftPMRun {
        try await SwiftPMRun.swift(
            ["build", "--package-path", PluginWorkspace.consumer.path, "--scratch-path", PluginWorkspace.consumerScratch.path],
            in: PluginWorkspace.consumer,
            log: PluginWorkspace.log(step)
        )
    }

    private func package(_ arguments: [String], log step: String) async throws -> SwiftPMRun {
        try await SwiftPMRun.swift(
            ["package", "--package-path", PluginWorkspace.consumer.path, "--scratch-path", PluginWorkspace.consumerScratch.path,
             "--allow-writing-to-package-directory"] + arguments,
            in: PluginWorkspace.consumer,
            log: PluginWorkspace.log(step)
        )
    }

    private func runDemo(_ step: String) async throws -> SwiftPMRun {
        let executable = PluginWorkspace.consumerScratch.appendingPathComponent("debug/PetsDemo")
        let run = try await SwiftPMRun.run(executable, [], in: PluginWorkspace.consumer, log: PluginWorkspace.log(step))
        #expect(run.succeeded, "\(run)")
        return run
    }

    private func append(_ text: String, to relativePath: String) throws {
        try PluginWorkspace.write(try PluginWorkspace.read(relativePath) + text, to: relativePath)
    }

    /// The files the build plugin generated for the consumer, by name.
    private func generatedFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        for url in try generatedFileURLs() {
            files[url.lastPathComponent] = try String(contentsOf: url, encoding: .utf8)
        }
        return files
    }

    private func generatedFileURLs() throws -> [URL] {
        let outputs = PluginWorkspace.consumerScratch.appendingPathComponent("plugins/outputs")
        let enumerator = FileManager.default.enumerator(at: outputs, includingPropertiesForKeys: nil)
        var urls: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathComponents.contains("CourierBuildPlugin"), url.pathExtension == "swift" {
                urls.append(url)
            }
        }
        return urls.sorted { $0.path < $1.path }
    }

    private func modificationDates() throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for url in try generatedFileURLs() {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            dates[url.path] = attributes[.modificationDate] as? Date
        }
        return dates
    }

    private func text(_ files: [String: String], _ name: String) throws -> String {
        try #require(files[name], "the build plugin generated no \(name); it generated \(files.keys.sorted())")
    }

    static let mainCallingNewestPet = #"""
        import CourierRuntime
        import CourierTesting

        let stub = StubTransport()
        stub.on(.get, "/v1/pets", .json(#"[{"id": 1, "name": "Rex", "tag": "dog"}, {"id": 2, "name": "Tom"}]"#))
        stub.on(.get, "/v1/pets/newest", .json(#"{"id": 3, "name": "Kitty"}"#))

        let pets = PetsClient(transport: stub)
        do {
            for pet in try await pets.listPets() {
                print("pet \(pet.id): \(pet.name)\(pet.tag.map { " (\($0))" } ?? "")")
            }
            let newest = try await pets.newestPet()
            print("newest: pet \(newest.id): \(newest.name)")
        } catch {
            print("failed: \(error)")
        }

        """#
}

/// A `path:line:column: error: message` line.
struct YAMLDiagnostic {
    var file: URL
    var line: Int
    var column: Int
    var message: String

    init?(_ text: String) {
        guard let range = text.range(of: ": error: ") else { return nil }
        let location = text[..<range.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
        guard location.count >= 3,
              let column = Int(location[location.count - 1]),
              let line = Int(location[location.count - 2])
        else { return nil }
        let path = location.dropLast(2).joined(separator: ":")
        guard path.hasSuffix(".yaml") || path.hasSuffix(".yml") else { return nil }
        self.file = URL(fileURLWithPath: path)
        self.line = line
        self.column = column
        self.message = String(text[range.upperBound...])
    }
}
