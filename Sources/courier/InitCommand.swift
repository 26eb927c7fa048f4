import ArgumentParser
import CourierGenerator
import Foundation

/// `courier init`: a commented starter spec for a new service, or a whole SwiftPM package that
/// builds its client with the build plugin.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Writes a commented starter spec, or a SwiftPM package that builds its client.",
        discussion: """
            Without --package, writes <Service>.yaml: a valid spec with a model, an error schema \
            and three endpoints, each section commented and pointing to docs/SpecFormat.md. \
            'courier generate' turns it into a client at once. Its first line names \
            courier-spec.schema.json, written beside it, for editors' completion.

            With --package, writes a SwiftPM package around it: Package.swift, the spec as \
            Sources/<Service>API/<Service>.courier.yaml (the build plugin generates <Service>Client \
            from it on every build) beside a Swift file for your own extensions, an executable <Service>Example that calls the client, and a \
            test target that calls it through the stub transport; the schema goes at the package's \
            root. The package depends on Courier \
            by --courier-path (a local checkout; a relative path is relative to the package \
            folder, as SwiftPM reads it) or by --courier-url with --from.

            Existing files are never replaced unless --force is given; without it, nothing is \
            written when any of the files exists.

            Examples:
              courier init Weather
              courier init Weather --output Specs
              courier init Weather --package --courier-path ../courier --output Weather
              cd Weather && swift build && swift test
              courier init Weather --package --courier-url https://git.example.com/courier.git --from 0.1.0

            \(ExitStatus.helpText(for: .`init`))
            """
    )

    @Argument(help: "The service's name, a Swift type name such as Weather: it prefixes the generated types.")
    var service: String

    @Option(name: .shortAndLong, help: "The folder to write into (made when missing).")
    var output = "."

    @Flag(help: "Write a SwiftPM package that builds the client with the build plugin, not only the spec.")
    var package = false

    @Option(help: ArgumentHelp("With --package: a local checkout of Courier to depend on by path.", valueName: "path"))
    var courierPath: String?

    @Option(help: ArgumentHelp("With --package: Courier's Git URL to depend on (with --from).", valueName: "url"))
    var courierURL: String?

    @Option(help: ArgumentHelp("With --courier-url: the lowest version to accept.", valueName: "version"))
    var from: String?

    @Flag(help: "Replace files that exist.")
    var force = false

    func validate() throws {
        if package {
            switch (courierPath, courierURL, from) {
            case (.some, nil, nil), (nil, .some, .some): break
            case (nil, nil, _):
                throw ValidationError("--package needs Courier's location: --courier-path <path> (a local checkout) or --courier-url <url> --from <version>")
            case (.some, .some, _):
                throw ValidationError("give --courier-path or --courier-url, not both")
            case (nil, .some, nil):
                throw ValidationError("--courier-url needs --from <version>")
            case (.some, nil, .some):
                throw ValidationError("--from goes with --courier-url")
            }
        } else if courierPath != nil || courierURL != nil || from != nil {
            throw ValidationError("--courier-path, --courier-url and --from go with --package")
        }
    }

    func run() throws {
        let starter = StarterProject(serviceName: service)
        // The spec's own rules decide whether the name can name a service.
        let diagnostics = starter.diagnostics()
        if diagnostics.hasErrors {
            // The spec was never written, so its places (`my service.yaml:9:10`) would name a
            // file that is not there: the reasons alone, in the usage error's one line.
            let reasons = diagnostics.errors.map(\.message)
            throw ValidationError("'\(service)' cannot name a service: \(reasons.joined(separator: "; "))")
        }
        let files = try filesToWrite(starter)

        let folder = URL(fileURLWithPath: output, isDirectory: true)
        let existing = files.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0.path).path) }
        guard existing.isEmpty || force else {
            for file in existing {
                StandardError.print("error: \(display(file.path)) exists; pass --force to replace it")
            }
            StandardError.print("nothing was written")
            throw ExitStatus.outputFailure.code
        }
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url, options: .atomic)
            } catch {
                StandardError.print("error: cannot write \(display(file.path)): \(error.localizedDescription)")
                throw ExitStatus.outputFailure.code
            }
            print("Wrote \(display(file.path))")
        }
        if package {
            print("Next: \(output == "." ? "" : "cd \(output) && ")swift build && swift test")
        } else {
            print("Next: courier generate \(display(starter.specFileName)) --output Generated")
        }
    }

    private func filesToWrite(_ starter: StarterProject) throws -> [StarterProject.File] {
        guard package else { return starter.specFiles }
        if let courierPath {
            // SwiftPM reads the path relative to the package folder; a wrong one would only show as
            // a resolution error at the first build.
            // SwiftPM resolves `..` by the text of the path, not through the folders, so the
            // check does too: the output folder need not exist yet (`out/../../courier`).
            let checkout = (courierPath.hasPrefix("/") ? URL(fileURLWithPath: courierPath)
                : URL(fileURLWithPath: output, isDirectory: true).appendingPathComponent(courierPath)).standardizedFileURL
            guard FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Package.swift").path) else {
                throw ValidationError("--courier-path \(courierPath): no Package.swift at \(checkout.path) (a relative path is relative to the package folder, \(output))")
            }
            return starter.packageFiles(dependency: .path(courierPath))
        }
        return starter.packageFiles(dependency: .url(courierURL ?? "", from: from ?? ""))
    }

    private func display(_ path: String) -> String {
        output == "." ? path : (output.hasSuffix("/") ? output + path : output + "/" + path)
    }
}
