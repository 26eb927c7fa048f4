import CourierGenerator
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
final class ProgressLine: @unchecked Sendable {
    // Unchecked: the mutable state is guarded by `lock`.

    /// Whether anything is drawn: standard error is a terminal and `--quiet` was not given.
    let isEnabled: Bool
    private let lock = NSLock()
    private var drawn = false
    private var finishedSpecs = 0
    private var lastDraw = ContinuousClock.now
    private var lastStage: String?

    /// A progress line, drawn only when `enabled` and standard error is a terminal.
    init(enabled: Bool) {
        isEnabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Shows one report.
    func show(_ progress: GenerationProgress) {
        guard isEnabled else { return }
        lock.withLock {
            if progress.stage == .finished { finishedSpecs += 1 }
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
            guard kind != lastStage || now - lastDraw >= .milliseconds(100) else { return }
            lastStage = kind
            lastDraw = now
            draw("[\(min(finishedSpecs + 1, progress.specCount))/\(progress.specCount)] \(progress.specPath): \(stage)")
        }
    }

    /// Shows that `count` files are being written.
    func showWriting(_ count: Int) {
        guard isEnabled else { return }
        lock.withLock { draw("writing \(count == 1 ? "1 file" : "\(count) files")") }
    }

    /// Removes the line, before other output.
    func clear() {
        guard isEnabled else { return }
        lock.withLock {
            guard drawn else { return }
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            drawn = false
            finishedSpecs = 0
            lastStage = nil
        }
    }

    private func draw(_ text: String) {
        // Never wider than the terminal, or the line would wrap and \r would not return over it.
        var columns = 80
        #if canImport(Glibc)
        // Darwin's TIOCGWINSZ is a macro Swift cannot import; there the line assumes 80 columns.
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { columns = Int(size.ws_col) }
        #endif
        let line = text.count < columns ? text : String(text.prefix(max(0, columns - 2))) + "…"
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        drawn = true
    }
}
