import Foundation

/// Incremental regeneration: one endpoint of the reference spec changes, and the generator runs
/// again into the folder it wrote before. Reports the time and how many files were rewritten,
/// next to how many files' content actually changed, against a full generation into an empty
/// folder and a regeneration with nothing changed.
struct IncrementalBenchmark {
    let context: BenchContext

    func run() async throws {
        let size = context.referenceSize
        let edited = size / 2
        let spec = context.work.appendingPathComponent("Incremental\(size).yaml")
        let output = context.work.appendingPathComponent("incremental-out")
        try? FileManager.default.removeItem(at: output)
        progress("incremental: \(size) endpoints, editing endpoint \(edited)")

        var full = Samples()
        var fullWritten = Samples()
        var unchanged = Samples()
        var incremental = Samples()
        var unchangedWritten = Samples()
        var incrementalWritten = Samples()
        var contentChanged = Samples()
        var writtenFiles: Set<String> = []
        for _ in 0..<context.runs {
            // A full generation into an empty folder: the baseline.
            try? FileManager.default.removeItem(at: output)
            try context.writeSpec(endpoints: size, to: spec)
            let (first, _) = try await context.sample(.generate, spec: spec, output: output)
            full.append(first["seconds"])
            fullWritten.append(first["written"])

            // The same spec again: nothing should be written.
            let (again, _) = try await context.sample(.generate, spec: spec, output: output)
            unchanged.append(again["seconds"])
            unchangedWritten.append(again["written"])

            // One endpoint edited.
            let before = try snapshot(output)
            try context.writeSpec(endpoints: size, editedEndpoint: edited, to: spec)
            let (change, _) = try await context.sample(.generate, spec: spec, output: output)
            let after = try snapshot(output)
            incremental.append(change["seconds"])
            incrementalWritten.append(change["written"])
            writtenFiles.formUnion(change.changes)
            let differing = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
            contentChanged.append(Double(differing.count))
        }

        var table = Table(
            "Incremental regeneration (\(size) endpoints, endpoint \(edited) gains a query parameter)",
            command: "swift run -c release courier-bench --sections incremental --reference-size \(size) --runs \(context.runs)",
            header: ["Run", "Median time", "× full generation", "Files rewritten", "Files whose content changed"])
        table.add(["full generation into an empty folder (baseline)", Format.seconds(full.median), "1.00×",
                   Format.count(fullWritten.median), Format.count(fullWritten.median)])
        table.add(["regeneration, spec unchanged", Format.seconds(unchanged.median), Format.ratio(unchanged.median / full.median),
                   Format.count(unchangedWritten.median), "0"])
        table.add(["regeneration, one endpoint changed", Format.seconds(incremental.median), Format.ratio(incremental.median / full.median),
                   Format.count(incrementalWritten.median), Format.count(contentChanged.median)])
        table.notes = ["Files rewritten in the edited run: \(writtenFiles.sorted().joined(separator: ", "))."]
        table.print()
    }

    /// Every file under `folder` with its content.
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return files }
        while let relative = enumerator.nextObject() as? String {
            let path = folder.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[relative] = try Data(contentsOf: path)
        }
        return files
    }
}
