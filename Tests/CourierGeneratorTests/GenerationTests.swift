@testable import CourierGenerator
import Foundation
import Testing

@Suite("Generation and output management")
struct GenerationTests {
    static let refreshCommand = "swift run courier generate Specs --output Generated"

    @Test("Generated/ is what the example specs generate today")
    func generatedFolderIsCurrent() async throws {
        let scratch = try TemporaryFolder()
        let results = try await Generator().generate(specs: exampleSpecInputs())
        for result in results {
            #expect(result.succeeded, "\(result.specPath): \(result.diagnostics.renderedLines)")
        }
        let report = GenerationOutput(root: scratch.url).apply(results, checkOnly: false, removesStaleFolders: true)
        #expect(report.failures.isEmpty)
        let expected = try filesUnder(scratch.url)
        let actual = try filesUnder(packageRoot.appendingPathComponent("Generated"))
        #expect(expected.count == 32)
        let drift = differences(expected: expected, actual: actual)
        #expect(drift.isEmpty, "Generated/ is stale (\(drift.joined(separator: "; "))); refresh it with: \(Self.refreshCommand)")
    }

    @Test("Resilience hints become an EndpointResilience only when they say something")
    func resilienceOnlyWhenHinted() throws {
        let yaml = serviceYAML("Hints", """
            endpoints:
              plain: { get: /plain, timeout: 5 }
              once: { get: /once, retry: false }
              careful: { post: /careful, retry: { maxAttempts: 2, nonIdempotent: true }, breaker: { resetAfter: 0.5 } }
            """)
        let spec = try #require(loadSpec(yaml).spec)
        let requests = try #require(try Generator().generate(spec, specPath: "hints.yaml")["HintsRequests.swift"])
        let plain = try #require(requests.range(of: "struct PlainRequest")).lowerBound
        let once = try #require(requests.range(of: "struct OnceRequest")).lowerBound
        let careful = try #require(requests.range(of: "struct CarefulRequest")).lowerBound
        #expect(!requests[plain..<once].contains("resilience"), "no hint, no property: the client's setup applies")
        #expect(requests[once..<careful].contains("EndpointResilience(maxAttempts: 1)"))
        #expect(requests[careful...].contains("""
            EndpointResilience(
                        maxAttempts: 2,
                        isSafeToRepeat: true,
                        circuitBreaker: .endpoint("careful"),
                        circuitBreakerConfiguration: .failureRate(breakDuration: .milliseconds(500))
                    )
            """))
    }

    @Test("The service's request protocol supplies the shared timeout, resilience and secrets; a request states only where it differs")
    func requestProtocolDefaults() throws {
        let yaml = serviceYAML("Defaults", """
            headers:
              X-Api-Key: { secret: true }
            defaults:
              timeout: 20
              retry: { maxAttempts: 3 }
            endpoints:
              plain: { get: /plain }
              slow: { get: /slow, timeout: 60 }
              once: { get: /once, retry: false }
              signed: { get: /signed, headers: { X-Signature: { type: String, secret: true } } }
            """)
        let spec = try #require(loadSpec(yaml).spec)
        let requests = try #require(try Generator().generate(spec, specPath: "defaults.yaml")["DefaultsRequests.swift"])
        #expect(requests.contains("""
            public protocol DefaultsAPIRequest: APIRequest {}

            extension DefaultsAPIRequest {
                /// The `defaults:` timeout of each attempt.
                public var timeout: Duration? { .seconds(20) }
                /// The `defaults:` retry and circuit-breaker hints.
                public var resilience: EndpointResilience { .defaultsDefaults }
                /// The header fields of the service and its auth whose values are never logged.
                public var secretHeaderNames: Set<String> { ["X-Api-Key"] }
            }
            """))
        func members(of name: String) throws -> [String] {
            let start = try #require(requests.range(of: "public struct \(name): DefaultsAPIRequest {")).upperBound
            let end = try #require(requests.range(of: "\n}\n", range: start..<requests.endIndex)).lowerBound
            return requests[start..<end].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("public var timeout") || $0.hasPrefix("public var resilience") || $0.hasPrefix("public var secretHeaderNames") }
        }
        #expect(try members(of: "PlainRequest") == [])
        #expect(try members(of: "SlowRequest") == ["public var timeout: Duration? { .seconds(60) }"])
        #expect(try members(of: "OnceRequest") == ["public var resilience: EndpointResilience { EndpointResilience(maxAttempts: 1) }"])
        #expect(try members(of: "SignedRequest") == [#"public var secretHeaderNames: Set<String> { ["X-Api-Key", "X-Signature"] }"#])
    }

    @Test("CodingKeys are written only where a key is not its property's name, as many to a line as fit")
    func codingKeysOnlyWhereNeeded() throws {
        let yaml = serviceYAML("Keys", """
            models:
              Plain: { id: Int, name: String }
              Renamed: { id: Int, created_at: Date, name: String }
            endpoints:
              plain: { get: /plain, response: Plain }
              renamed: { get: /renamed, response: Renamed }
            """)
        let spec = try #require(loadSpec(yaml).spec)
        let models = try #require(try Generator().generate(spec, specPath: "keys.yaml")["KeysModels.swift"])
        let plain = try #require(models.range(of: "public struct Plain:"))
        let renamed = try #require(models.range(of: "public struct Renamed:"))
        let (first, second) = plain.lowerBound < renamed.lowerBound
            ? (models[plain.lowerBound..<renamed.lowerBound], models[renamed.lowerBound...])
            : (models[plain.lowerBound...], models[renamed.lowerBound..<plain.lowerBound])
        #expect(!first.contains("CodingKeys"), "Swift's synthesized keys are the same")
        #expect(second.contains("""
                private enum CodingKeys: String, CodingKey {
                    case id, createdAt = "created_at", name
                }
            """))
    }

    @Test("Endpoints that document the same failures share the first one's enum; each keeps its name as an alias")
    func equalFailuresShareOneEnum() throws {
        let yaml = serviceYAML("Share", """
            errorSchemas:
              Problem: { properties: { message: String } }
            defaults:
              errors:
                500: { case: serverError, body: Problem }
            endpoints:
              first: { get: /first, errors: { 404: { case: notFound, body: Problem } } }
              plain: { get: /plain }
              second: { get: /second, errors: { 404: { case: notFound, body: Problem } } }
              worded: { get: /worded, errors: { 404: { case: notFound, body: Problem, message: Gone. } } }
              third: { delete: /third, errors: { 404: { case: notFound, body: Problem } } }
              restated: { get: /restated, errors: { 500: { case: serverError, body: Problem } } }
            """)
        let spec = try #require(loadSpec(yaml).spec)
        let errors = try #require(try Generator().generate(spec, specPath: "share.yaml")["ShareErrors.swift"])
        let declarations = errors.split(separator: "\n").filter { $0.hasPrefix("public enum") || $0.hasPrefix("public typealias") }
        #expect(declarations == [
            "public enum ShareFailure: EndpointFailure, LocalizedError {",
            "public enum FirstFailure: EndpointFailure, LocalizedError {",
            // A message of its own makes the enum differ, so it keeps its own.
            "public enum WordedFailure: EndpointFailure, LocalizedError {",
            // The aliases follow the enums, in endpoint order, as one block.
            "public typealias PlainFailure = ShareFailure",
            "public typealias SecondFailure = FirstFailure",
            "public typealias ThirdFailure = FirstFailure",
            // Its own mapping says what the defaults say, so it gets the service's enum.
            "public typealias RestatedFailure = ShareFailure",
        ])
        #expect(errors.contains("(`GET /restated`): the same as the service's defaults, shared as `ShareFailure`."))
        #expect(errors.contains("""
            public typealias PlainFailure = ShareFailure
            /// The documented failures of `ShareClient.second`
            """))
        #expect(errors.contains("/// The documented failures of `ShareClient.first` (`GET /first`). 2 other endpoints document the same failures"))
        #expect(errors.contains("/// The documented failures of `ShareClient.third` (`DELETE /third`): the same as `first`'s, shared as `FirstFailure`."))
    }

    @Test("Every spec yields exactly four files named after the service")
    func fourFilesPerSpec() throws {
        let result = try Generator().generate(specAt: packageRoot.appendingPathComponent("Specs/Bookshelf.yaml"),
                                          displayPath: "Specs/Bookshelf.yaml")
        #expect(result.files.keys.sorted() == [
            "BookshelfClient.swift", "BookshelfErrors.swift", "BookshelfModels.swift", "BookshelfRequests.swift",
        ])
        for (name, text) in result.files {
            #expect(text.hasPrefix("// Generated by Courier \(GeneratorVersion.current) from Specs/Bookshelf.yaml. Do not edit.\n"), "\(name)")
            // Complete to the end: a closing brace, or an endpoint's alias of the shared failures.
            let lastLine = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
            #expect(text.hasSuffix("\n") && (lastLine == "}" || lastLine.hasPrefix("public typealias ")), "\(name)")
            #expect(!text.contains("/tmp") && !text.contains(packageRoot.path), "\(name) names an absolute path")
        }
    }

    @Test("A file prefix replaces the service name in file names")
    func filePrefix() throws {
        let generator = try Generator(options: GenerationOptions(filePrefix: "Shop"))
        let result = generator.generate(specAt: packageRoot.appendingPathComponent("Specs/Marketplace.yaml"),
                                        displayPath: "Specs/Marketplace.yaml")
        #expect(result.files.keys.sorted() == ["ShopClient.swift", "ShopErrors.swift", "ShopModels.swift", "ShopRequests.swift"])
        #expect(result.files["ShopClient.swift"]?.contains("public struct MarketplaceClient") == true)
    }

    @Test("Two runs give byte-identical files, and the second writes nothing")
    func deterministicAndWriteIfChanged() async throws {
        let scratch = try TemporaryFolder()
        let inputs = try exampleSpecInputs()
        let first = try await Generator().generate(specs: inputs)
        let second = try await Generator().generate(specs: inputs)
        #expect(first.map(\.files) == second.map(\.files))

        let output = GenerationOutput(root: scratch.url)
        let written = output.apply(first, checkOnly: false, removesStaleFolders: true)
        #expect(written.changeLines.count == 32)
        let file = scratch.url.appendingPathComponent("GitHub/GitHubClient.swift")
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file.path)

        let again = output.apply(second, checkOnly: false, removesStaleFolders: true)
        #expect(again.isUpToDate)
        #expect(again.changeLines.isEmpty)
        let date = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(date == past, "an unchanged file was rewritten")
    }

    @Test("--check lists drift and writes nothing")
    func checkWritesNothing() async throws {
        let scratch = try TemporaryFolder()
        let results = try await Generator().generate(specs: exampleSpecInputs())
        let output = GenerationOutput(root: scratch.url)
        let planned = output.apply(results, checkOnly: true, removesStaleFolders: true)
        #expect(planned.changeLines.contains("added: Qiita/QiitaModels.swift"))
        #expect(try filesUnder(scratch.url).isEmpty)

        output.apply(results, checkOnly: false, removesStaleFolders: true)
        let file = scratch.url.appendingPathComponent("Qiita/QiitaErrors.swift")
        let edited = try String(contentsOf: file, encoding: .utf8) + "// edited\n"
        try edited.write(to: file, atomically: true, encoding: .utf8)
        let drift = output.apply(results, checkOnly: true, removesStaleFolders: true)
        #expect(drift.changeLines == ["changed: Qiita/QiitaErrors.swift"])
        #expect(try String(contentsOf: file, encoding: .utf8) == edited)
    }

    @Test("A removed spec's folder is removed; a failing spec's files are kept; foreign files stay")
    func staleFolders() async throws {
        let specs = try TemporaryFolder()
        let scratch = try TemporaryFolder()
        let alpha = try specs.write(serviceYAML("Alpha", "endpoints:\n  ping: { get: /ping }\n"), to: "Alpha.yaml")
        let beta = try specs.write(serviceYAML("Beta", "endpoints:\n  ping: { get: /ping }\n"), to: "Beta.yaml")
        let output = GenerationOutput(root: scratch.url)
        let generator = try Generator()
        let both = await generator.generate(specs: [
            SpecInput(url: URL(fileURLWithPath: alpha), displayPath: "Alpha.yaml"),
            SpecInput(url: URL(fileURLWithPath: beta), displayPath: "Beta.yaml"),
        ])
        output.apply(both, checkOnly: false, removesStaleFolders: true)
        try Data("mine".utf8).write(to: scratch.url.appendingPathComponent("Beta/Notes.txt"))
        let betaClient = try Data(contentsOf: scratch.url.appendingPathComponent("Beta/BetaClient.swift"))

        // Beta breaks: its files stay, and nothing is treated as stale.
        try Data("service: Beta\nbaseURL: 42\nendpoints: nope\n".utf8).write(to: URL(fileURLWithPath: beta))
        let broken = await generator.generate(specs: [
            SpecInput(url: URL(fileURLWithPath: alpha), displayPath: "Alpha.yaml"),
            SpecInput(url: URL(fileURLWithPath: beta), displayPath: "Beta.yaml"),
        ])
        #expect(broken[0].succeeded)
        #expect(!broken[1].succeeded)
        #expect(broken[1].diagnostics.hasErrors)
        let afterFailure = output.apply(broken, checkOnly: false, removesStaleFolders: true)
        #expect(afterFailure.isUpToDate)
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("Beta/BetaClient.swift")) == betaClient)

        // Beta is removed: its generated files go, the user's note stays.
        try FileManager.default.removeItem(atPath: beta)
        let alone = await generator.generate(specs: [SpecInput(url: URL(fileURLWithPath: alpha), displayPath: "Alpha.yaml")])
        let removed = output.apply(alone, checkOnly: false, removesStaleFolders: true)
        #expect(removed.changeLines == [
            "removed: Beta/BetaClient.swift", "removed: Beta/BetaErrors.swift",
            "removed: Beta/BetaModels.swift", "removed: Beta/BetaRequests.swift",
        ])
        #expect(try filesUnder(scratch.url.appendingPathComponent("Beta")).keys.sorted() == ["Notes.txt"])
        #expect(try filesUnder(scratch.url.appendingPathComponent("Alpha")).count == 4)
    }

    @Test("Without stale removal (single-spec runs), other services' folders are left alone")
    func singleSpecRunKeepsOtherFolders() async throws {
        let specs = try TemporaryFolder()
        let scratch = try TemporaryFolder()
        let alpha = try specs.write(serviceYAML("Alpha", "endpoints:\n  ping: { get: /ping }\n"), to: "Alpha.yaml")
        let beta = try specs.write(serviceYAML("Beta", "endpoints:\n  ping: { get: /ping }\n"), to: "Beta.yaml")
        let generator = try Generator()
        let output = GenerationOutput(root: scratch.url)
        output.apply(await generator.generate(specs: [SpecInput(url: URL(fileURLWithPath: beta), displayPath: "Beta.yaml")]), checkOnly: false, removesStaleFolders: false)
        let report = output.apply(await generator.generate(specs: [SpecInput(url: URL(fileURLWithPath: alpha), displayPath: "Alpha.yaml")]),
                                  checkOnly: false, removesStaleFolders: false)
        #expect(report.changeLines.allSatisfy { $0.hasPrefix("added: Alpha/") })
        #expect(try filesUnder(scratch.url.appendingPathComponent("Beta")).count == 4)
    }

    @Test("The flat layout writes one spec's files into the folder itself")
    func flatLayout() async throws {
        let scratch = try TemporaryFolder()
        let generator = try Generator(options: GenerationOptions(filePrefix: "API"))
        let results = await generator.generate(specs: [SpecInput(url: packageRoot.appendingPathComponent("Specs/Qiita.yaml"), displayPath: "Specs/Qiita.yaml")])
        let report = GenerationOutput(root: scratch.url, layout: .flat).apply(results, checkOnly: false, removesStaleFolders: false)
        #expect(report.changeLines == [
            "added: APIClient.swift", "added: APIErrors.swift", "added: APIModels.swift", "added: APIRequests.swift",
        ])
    }

    @Test("Specs generate in parallel; a broken spec stops none of the others")
    func parallelWithFailure() async throws {
        let specs = try TemporaryFolder()
        var inputs: [SpecInput] = []
        for index in 0..<6 {
            let text = index == 3
                ? "service: Broken\nbaseURL: https://x.example.com\nendpoints:\n  a: { get: /a, response: Missing }\n"
                : serviceYAML("Service\(index)", "endpoints:\n  ping: { get: /ping }\n")
            let path = try specs.write(text, to: "S\(index).yaml")
            inputs.append(SpecInput(url: URL(fileURLWithPath: path), displayPath: "S\(index).yaml"))
        }
        let results = try await Generator().generate(specs: inputs)
        #expect(results.map(\.specPath) == inputs.map(\.displayPath))
        #expect(results.map(\.succeeded) == [true, true, true, false, true, true])
        #expect(results[3].files.isEmpty)
        #expect(results[3].diagnostics.renderedLines.contains { $0.hasPrefix("S3.yaml:4:") && $0.contains("error:") })
        #expect(results[4].files.count == 4)
    }

    @Test("A template set without a required template is refused before any spec is read")
    func missingTemplate() throws {
        var set = TemplateSet()
        set.register("{{% CONTENT_TYPE: TEXT }}\n// Generated by Courier", named: "header", origin: "header.mustache")
        #expect(throws: TemplateError.missingTemplates(names: ["client", "errors", "failureMatching", "failureSwitch", "models", "parameters", "requests"])) {
            try Generator(options: GenerationOptions(templates: set))
        }
    }

    @Test("A single overridden template is used")
    func overrideOneTemplate() throws {
        var set = TemplateSet.builtIn
        set.register("{{% CONTENT_TYPE: TEXT }}\n{{> header}}\n// custom client for {{name}}\n", named: "client", origin: "custom.mustache")
        let generator = try Generator(options: GenerationOptions(templates: set))
        let result = generator.generate(specAt: packageRoot.appendingPathComponent("Specs/Qiita.yaml"), displayPath: "Specs/Qiita.yaml")
        #expect(result.files["QiitaClient.swift"] == "// Generated by Courier \(GeneratorVersion.current) from Specs/Qiita.yaml. Do not edit.\n// custom client for QiitaClient\n")
        #expect(result.files["QiitaModels.swift"]?.contains("public struct") == true)
    }
}

@Suite("Header paths")
struct HeaderPathTests {
    @Test("Absolute spec paths are written relative to the working directory", arguments: [
        ("Specs/A.yaml", "/work/repo", "Specs/A.yaml"),
        ("/work/repo/Specs/A.yaml", "/work/repo", "Specs/A.yaml"),
        ("/work/other/A.yaml", "/work/repo", "../other/A.yaml"),
        ("/work/repo/./x/../Specs/A.yaml", "/work/repo/", "Specs/A.yaml"),
    ])
    func relative(path: String, directory: String, expected: String) {
        #expect(HeaderPath.relative(path, to: directory) == expected)
    }

    @Test("A spec given by absolute path gets a relative header")
    func generatedHeader() throws {
        let absolute = packageRoot.appendingPathComponent("Specs/Qiita.yaml").path
        let result = try Generator().generate(specAt: URL(fileURLWithPath: absolute), displayPath: absolute)
        let header = try #require(result.files["QiitaModels.swift"]?.split(separator: "\n").first)
        #expect(!header.contains(packageRoot.path))
        #expect(header.hasSuffix("Qiita.yaml. Do not edit."))
    }
}

@Suite("Output conflicts and package targets")
struct OutputConflictTests {
    @Test("Two specs of one service cannot share its folder; the first is written, the second reported")
    func duplicateService() async throws {
        let specs = try TemporaryFolder()
        let scratch = try TemporaryFolder()
        let first = try specs.write(serviceYAML("Twin", "endpoints:\n  a: { get: /a }\n"), to: "one.yaml")
        let second = try specs.write(serviceYAML("Twin", "endpoints:\n  b: { get: /b }\n"), to: "two.yaml")
        let results = try await Generator().generate(specs: [
            SpecInput(url: URL(fileURLWithPath: first), displayPath: "one.yaml"),
            SpecInput(url: URL(fileURLWithPath: second), displayPath: "two.yaml"),
        ])
        let report = GenerationOutput(root: scratch.url).apply(results, checkOnly: false, removesStaleFolders: true)
        #expect(report.failures.map(\.specPath) == ["two.yaml"])
        #expect(report.failures.first.map { "\($0.error)" }?.contains("Twin (from one.yaml)") == true)
        let client = try String(contentsOf: scratch.url.appendingPathComponent("Twin/TwinClient.swift"), encoding: .utf8)
        #expect(client.contains("func a()"))
        #expect(!client.contains("func b()"))
    }

    @Test("Every folder of Generated/ is a library target of the package")
    func generatedTargets() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Generated").path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
        #expect(folders == ["Bookshelf", "Discord", "GitHub", "Marketplace", "OpenAI", "Qiita", "Slack", "Stripe"])
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        for folder in folders {
            #expect(manifest.contains("generatedService(\"\(folder)\")"), "add generatedService(\"\(folder)\") to Package.swift")
        }
    }
}

@Suite("Splitting a big service into parts")
struct SplitPartsTests {
    @Test("Every model declaration lands in exactly one part, unions included")
    func eachDeclarationOnce() throws {
        let spec = packageRoot.appendingPathComponent("Specs/Discord.yaml")
        let whole = try Generator().generate(specAt: spec, displayPath: "Specs/Discord.yaml")
        let split = try Generator(options: GenerationOptions(declarationsPerFile: 3)).generate(specAt: spec, displayPath: "Specs/Discord.yaml")
        func declarations(_ files: [String: String], prefix: String) -> [String] {
            files.filter { $0.key.hasPrefix(prefix) }.values.flatMap { text in
                text.split(separator: "\n").filter { $0.hasPrefix("public struct ") || $0.hasPrefix("public enum ") || $0.hasPrefix("public indirect enum ") }
                    .map(String.init)
            }.sorted()
        }
        let models = declarations(split.files, prefix: "DiscordModels")
        #expect(split.files.keys.filter { $0.hasPrefix("DiscordModels") }.count > 2, "the models come in parts")
        #expect(models == declarations(whole.files, prefix: "DiscordModels"))
        #expect(Set(models).count == models.count, "a declaration in two parts does not compile")
        #expect(models.contains { $0.hasPrefix("public enum Channel:") }, "Discord's channel union is among them")
    }

    @Test("Parts, translated one at a time, are the whole file cut in order; what a module needs once is in the first part",
          arguments: ["Tests/References/Recursion/spec.yaml", "Specs/Discord.yaml", "Specs/Stripe.yaml"])
    func partsKeepTheWholeFilesOrder(path: String) throws {
        let spec = packageRoot.appendingPathComponent(path)
        let whole = try Generator().generate(specAt: spec, displayPath: path)
        let split = try Generator(options: GenerationOptions(declarationsPerFile: 2)).generate(specAt: spec, displayPath: path)
        try #require(whole.succeeded && split.succeeded)
        /// The files of one kind in part order: `XModels.swift`, `XModels2.swift`, ...
        func parts(_ files: [String: String], _ kind: String) -> [String] {
            let names = files.keys.filter { $0.contains(kind) }
            return (1...names.count).compactMap { index in
                files.first { name, _ in name.hasSuffix(kind + (index == 1 ? "" : String(index)) + ".swift") }?.value
            }
        }
        /// Top-level declarations that start with `keyword`, in file order. A template writes
        /// each kind of declaration in a block of its own, and a part cuts every block at the same
        /// place, so within a kind the parts keep the whole file's order.
        func declarations(_ texts: [String], _ keyword: String) -> [Substring] {
            texts.flatMap { $0.split(separator: "\n").filter { $0.hasPrefix(keyword) } }
        }
        for kind in ["Models", "Requests", "Errors"] {
            let wholeFile = parts(whole.files, kind)
            let cut = parts(split.files, kind)
            #expect(wholeFile.count == 1)
            for keyword in ["public struct ", "public enum ", "public indirect enum ", "public typealias ", "struct ", "public protocol "] {
                #expect(declarations(cut, keyword) == declarations(wholeFile, keyword),
                        "\(path): the \(kind) parts keep the whole file's '\(keyword)' declarations in order")
            }
            if declarations(wholeFile, "public ").count > 3 {
                #expect(cut.count > 1, "\(path): the \(kind) file comes in parts")
            }
        }
        let models = parts(split.files, "Models")
        let indirect = models.map { $0.contains("enum Indirect<") }
        #expect(indirect.dropFirst().allSatisfy { !$0 }, "the Indirect box is declared once, in the first part")
        #expect(indirect.first == whole.files.values.contains { $0.contains("enum Indirect<") })
        let requests = parts(split.files, "Requests")
        #expect(requests.dropFirst().allSatisfy { !$0.contains("protocol ") }, "the request protocol is declared once, in the first part")
    }
}
