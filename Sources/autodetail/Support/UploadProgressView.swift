import AutoDetailKit
import Foundation

/// Shows a photo upload's progress on stderr: a live bar with bytes and percent on a terminal; one quiet line per
/// attempt otherwise (logs and scripts stay readable).
final class UploadProgressView: @unchecked Sendable {
    private let label: String
    private let interactive: Bool
    private let lock = NSLock()
    private var lastAttempt = 0
    private var drewBar = false

    init(label: String, interactive: Bool = Terminal.stderrIsTTY) {
        self.label = label
        self.interactive = interactive
    }

    func update(_ progress: UploadProgress) {
        let newAttempt = lock.withLock { () -> Bool in
            defer { lastAttempt = progress.attempt }
            return progress.attempt != lastAttempt
        }
        if interactive {
            draw(progress)
        } else if newAttempt {
            Terminal.note(
                progress.attempt == 1
                    ? "\(label): uploading \(Format.bytes(progress.totalBytes))"
                    : "\(label): retrying the upload (attempt \(progress.attempt))")
        }
    }

    private func draw(_ progress: UploadProgress) {
        let width = 24
        let filled = Int((progress.fractionCompleted * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = String(format: "%3.0f%%", progress.fractionCompleted * 100)
        let retry = progress.attempt > 1 ? "  (attempt \(progress.attempt))" : ""
        lock.withLock { drewBar = true }
        Terminal.note(
            "\r\u{1B}[K\(label)  [\(bar)] \(percent)  \(Format.bytes(progress.bytesSent)) / \(Format.bytes(progress.totalBytes))\(retry)",
            newline: false)
    }

    /// Ends the bar line (or prints the quiet closing line).
    func finish(success: Bool) {
        let drew = lock.withLock { () -> Bool in
            defer { drewBar = false }
            return drewBar
        }
        if drew { Terminal.note("") }
        if !interactive && success { Terminal.note("\(label): uploaded") }
    }
}
