import ArgumentParser
import CourierGenerator
import CourierLocking
import CourierWatching
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension GenerateCommand {
    /// `--watch`: generates, then regenerates after each batch of changes to what the last run
    /// read, until Ctrl-C (exit status 130) or SIGTERM (143).
    func runWatching() async throws {
        let backend: FileWatcher.Backend = pollInterval.map { .polling(interval: .milliseconds(Int(($0 * 1000).rounded()))) } ?? .events
        let watcher: FileWatcher
        do {
            watcher = try FileWatcher(backend: backend)
        } catch {
            StandardError.print("error: \(error)")
            throw ExitStatus.outputFailure.code
        }
        let stop = StopSignals { watcher.stop() }
        let progress = ProgressLine(enabled: !quiet)
        var run = try await generateOnce(progress: progress)
        await watcher.watch(run.sources)
        announce(run.sources, backend: watcher.backend)
        for await changes in watcher.changes {
            if stop.received != nil { break }
            if !quiet {
                let names = changes.paths.sorted().map(Self.shown)
                print("Changed: \(names.joined(separator: ", ")); regenerating.")
                fflush(nil)
            }
            do {
                run = try await generateOnce(progress: progress)
            } catch {
                // A spec argument that went away: say so and keep watching for it to come back.
                StandardError.print("error: \(error)")
            }
            await watcher.watch(run.sources)
            announce(run.sources, backend: watcher.backend)
        }
        progress.clear()
        throw stop.received == SIGTERM ? ExitCode(128 + SIGTERM) : ExitStatus.interrupted.code
    }

    private func announce(_ sources: WatchSet, backend: FileWatcher.Backend) {
        guard !quiet else { return }
        var how = ""
        if case .polling = backend { how = ", checking every \((pollInterval ?? 0.5).formatted()) s" }
        print("Watching \(plural(sources.files.count, "file"))"
            + (sources.folders.isEmpty ? "" : " and \(plural(sources.folders.count, "folder"))")
            + "\(how) for changes; press Ctrl-C to stop.")
        // Standard output is a pipe to whoever watches the watcher: send each line now.
        fflush(nil)
    }

    /// `path` relative to the working directory when it is inside it.
    private static func shown(_ path: String) -> String {
        let directory = FileManager.default.currentDirectoryPath
        return path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
    }
}

/// Catches SIGINT and SIGTERM for `--watch`: the first ends the watch after the run under way
/// (its files are written whole); a second one exits at once.
final class StopSignals: @unchecked Sendable {
    // Unchecked: the sources are set once, in `init`, and only kept alive after it.
    private let caught = Locked<Int32?>(nil)
    private var sources: [any DispatchSourceSignal] = []

    /// Starts catching; `onStop` runs on the first signal.
    init(onStop: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            // Ignored, so that the dispatch source rather than the default action handles it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let first = self.caught.withLock { caught in
                    defer { if caught == nil { caught = number } }
                    return caught == nil
                }
                if first {
                    onStop()
                } else {
                    exit(128 + number)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal caught, if any.
    var received: Int32? { caught.value }
}
