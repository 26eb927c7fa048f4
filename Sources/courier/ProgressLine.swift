import CourierGenerator
import CourierLocking
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws a generation's progress as one line on standard error, redrawn in place with `\r`,
/// when standard error is a terminal: `[2/8] Specs/GitHub.yaml: rendering 12/40 files`.
///
/// Progress arrives from the generator's threads; drawing is serialised by a lock and limited
/// to a few times a second, except when a spec moves to another stage.
final class ProgressLine: Sendable {
    /// Whether anything is drawn: standard error is a terminal and `--quiet` was not given.
    let isEnabled: Bool
    private let line = Locked(Drawn())

    /// What the terminal shows now.
    private struct Drawn {
        var drawn = false
        var finishedSpecs = 0
        var lastDraw = ContinuousClock.now
        var lastStage: String?
    }

    /// A progress line, drawn only when `enabled` and standard error is a terminal.
    init(enabled: Bool) {
        isEnabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Shows one report.
    func show(_ progress: GenerationProgress) {
        guard isEnabled else { return }
        line.withLock { line in
            if progress.stage == .finished { line.finishedSpecs += 1 }
            let stage: String
            switch progress.stage {
            case .reading: stage = "reading"
            case .validating: stage = "validating"
            case .translating: stage = "translating"
            case .rendering(let done, let total): stage = "rendering \(done)/\(total) files"
            case .finished: stage = "done"
            }
            let kind = String(stage.prefix { $0 != " " })
            let now = ContinuousClock.now
            guard kind != line.lastStage || now - line.lastDraw >= .milliseconds(100) else { return }
            line.lastStage = kind
            line.lastDraw = now
            Self.draw("[\(min(line.finishedSpecs + 1, progress.specCount))/\(progress.specCount)] \(progress.specPath): \(stage)", on: &line)
        }
    }

    /// Shows that `count` files are being written.
    func showWriting(_ count: Int) {
        guard isEnabled else { return }
        line.withLock { Self.draw("writing \(count == 1 ? "1 file" : "\(count) files")", on: &$0) }
    }

    /// Removes the line, before other output.
    func clear() {
        guard isEnabled else { return }
        line.withLock { line in
            guard line.drawn else { return }
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            line = Drawn()
        }
    }

    /// Called under the lock, so that two lines never interleave.
    private static func draw(_ text: String, on line: inout Drawn) {
        // Never wider than the terminal, or the line would wrap and \r would not return over it.
        var columns = 80
        #if canImport(Glibc)
        // Darwin's TIOCGWINSZ is a macro Swift cannot import; there the line assumes 80 columns.
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { columns = Int(size.ws_col) }
        #endif
        let shown = text.count < columns ? text : String(text.prefix(max(0, columns - 2))) + "…"
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + shown).utf8))
        line.drawn = true
    }
}
