import Foundation

/// Where generated files go under an output folder.
package enum OutputLayout: Sendable, Hashable {
    /// `DIR/<ServiceTypeName>/<Prefix>Models.swift`, ...: one folder per service.
    case serviceFolders
    /// `DIR/<Prefix>Models.swift`, ...: directly in the folder; for one spec only (the build plugin).
    case flat
}

/// What writing (or checking) the results of a run did, or would do, per folder.
package struct OutputReport: Sendable {
    /// What changed in one folder under the output folder.
    struct FolderChanges: Sendable {
        /// The folder relative to the output folder: `GitHub`, or `""` for the flat layout.
        var folder: String
        /// The changes; their paths are relative to ``folder``.
        var changes: OutputChanges

        /// The changes of `folder`.
        init(folder: String, changes: OutputChanges) {
            self.folder = folder
            self.changes = changes
        }
    }

    /// A spec whose folder could not be written (or checked); other folders were still written.
    package struct Failure: Sendable {
        /// The spec's path as given, or the stale folder that could not be removed.
        package var specPath: String
        /// What went wrong.
        package var error: OutputError

        /// The failure of `specPath`.
        package init(specPath: String, error: OutputError) {
            self.specPath = specPath
            self.error = error
        }
    }

    /// Changes by folder, sorted by folder.
    var folders: [FolderChanges]
    /// Problems writing one spec's folder; other folders were still written.
    package var failures: [Failure]

    /// A report of `folders` and `failures`.
    init(folders: [FolderChanges] = [], failures: [Failure] = []) {
        self.folders = folders
        self.failures = failures
    }

    /// Every added, changed or removed file, relative to the output folder, one per line, sorted.
    package var changeLines: [String] {
        var lines: [(String, String)] = []
        for entry in folders {
            let changes = entry.changes
            let prefix = entry.folder.isEmpty ? "" : entry.folder + "/"
            lines += changes.added.map { (prefix + $0, "added") }
            lines += changes.changed.map { (prefix + $0, "changed") }
            lines += changes.removed.map { (prefix + $0, "removed") }
        }
        return lines.sorted { $0.0 < $1.0 }.map { "\($0.1): \($0.0)" }
    }

    /// Whether nothing was, or would be, written or removed.
    package var isUpToDate: Bool { folders.allSatisfy { $0.changes.isEmpty } }
}

/// Writes the results of a run into an output folder, or checks what writing would change.
///
/// Safety rules:
/// - A spec that failed is skipped, so the files it generated on an earlier run stay as they were.
/// - With ``OutputLayout/serviceFolders`` and `removesStaleFolders`, generated files in service
///   folders that no spec produced any more are removed, but only when every spec of the run
///   succeeded: a failed spec's folder name may not be known, and must never be mistaken for stale.
/// - Files Courier did not write are never touched (see ``OutputDirectory``).
package struct GenerationOutput: Sendable {
    /// The output folder.
    package let root: URL
    /// The layout.
    package let layout: OutputLayout

    /// An output for `root` with `layout`.
    package init(root: URL, layout: OutputLayout = .serviceFolders) {
        self.root = root.standardizedFileURL
        self.layout = layout
    }

    /// Writes (or, with `checkOnly`, only plans) the files of every successful result.
    ///
    /// - Parameters:
    ///   - results: What a run produced.
    ///   - checkOnly: Write nothing; report what would change.
    ///   - removesStaleFolders: Remove generated files of services no longer generated (whole-folder runs).
    @discardableResult
    package func apply(_ results: [GenerationResult], checkOnly: Bool, removesStaleFolders: Bool) -> OutputReport {
        var report = OutputReport()
        var produced: [String: String] = [:]
        for result in results where result.succeeded && !result.isSharedFile {
            guard let service = result.serviceName else { continue }
            let folder = layout == .flat ? "" : service
            // Two specs for one folder would each remove the other's files as stale.
            if let first = produced[folder] {
                report.failures.append(OutputReport.Failure(specPath: result.specPath, error: .conflictingPaths(
                    "\(folder.isEmpty ? "." : folder) (from \(first))", "\(folder.isEmpty ? "." : folder) (from \(result.specPath))")))
                continue
            }
            produced[folder] = result.specPath
            let directory = OutputDirectory(folder.isEmpty ? root : root.appendingPathComponent(folder, isDirectory: true))
            do {
                let changes = checkOnly ? try directory.changes(for: result.files) : try directory.write(result.files)
                report.folders.append(OutputReport.FolderChanges(folder: folder, changes: changes))
            } catch {
                report.failures.append(OutputReport.Failure(specPath: result.specPath, error: error))
            }
        }
        let everySpecSucceeded = results.allSatisfy(\.succeeded)
        if layout == .serviceFolders, removesStaleFolders, everySpecSucceeded {
            for folder in staleCandidates(excluding: Set(produced.keys)) {
                let url = root.appendingPathComponent(folder, isDirectory: true)
                let directory = OutputDirectory(url)
                do {
                    let changes = checkOnly ? try directory.changes(for: [:]) : try directory.write([:])
                    guard !changes.removed.isEmpty else { continue }
                    report.folders.append(OutputReport.FolderChanges(folder: folder, changes: changes))
                    if !checkOnly, (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.isEmpty == true {
                        try? FileManager.default.removeItem(at: url)
                    }
                } catch {
                    report.failures.append(OutputReport.Failure(specPath: folder, error: error))
                }
            }
        }
        report.folders.sort { $0.folder < $1.folder }
        return report
    }

    /// The folders directly under the root that no spec of this run produced.
    private func staleCandidates(excluding produced: Set<String>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().filter { name in
            guard !produced.contains(name), !name.hasPrefix(".") else { return false }
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }
}
