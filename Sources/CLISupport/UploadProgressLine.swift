import Foundation

/// One upload's progress on stderr, for both CLIs: on a terminal a live bar with bytes, percent (and speed when
/// known) redrawn in place; otherwise one quiet line per attempt, so logs and scripts stay readable.
package final class UploadProgressLine: @unchecked Sendable {
    /// What is shown of one moment of an upload.
    package struct Snapshot: Sendable {
        package var bytesSent: Int64
        package var totalBytes: Int64
        package var fractionCompleted: Double
        /// 1 for the first attempt; retries count up.
        package var attempt: Int
        package var bytesPerSecond: Double?

        package init(bytesSent: Int64, totalBytes: Int64, fractionCompleted: Double, attempt: Int, bytesPerSecond: Double? = nil) {
            self.bytesSent = bytesSent
            self.totalBytes = totalBytes
            self.fractionCompleted = fractionCompleted
            self.attempt = attempt
            self.bytesPerSecond = bytesPerSecond
        }
    }

    package let label: String
    /// True when stderr is a terminal: the bar is drawn; otherwise the quiet lines are written.
    package let interactive: Bool
    private let lock = NSLock()
    private var lastAttempt = 0
    private var drewBar = false

    package init(label: String, interactive: Bool = Terminal.stderrIsTTY) {
        self.label = label
        self.interactive = interactive
    }

    /// Draws `snapshot` (terminal), or notes a new attempt (otherwise).
    package func update(_ snapshot: Snapshot) {
        let newAttempt = lock.withLock { () -> Bool in
            defer { lastAttempt = snapshot.attempt }
            return snapshot.attempt != lastAttempt
        }
        if interactive {
            draw(snapshot)
        } else if newAttempt && snapshot.attempt > 0 {
            Terminal.note(
                snapshot.attempt == 1
                    ? "\(label): uploading \(Format.bytes(snapshot.totalBytes))"
                    : "\(label): retrying the upload (attempt \(snapshot.attempt))")
        }
    }

    /// Ends the bar line, if one was drawn, so the next output starts on a line of its own.
    package func endBar() {
        let drew = lock.withLock { () -> Bool in
            defer { drewBar = false }
            return drewBar
        }
        if drew { Terminal.note("") }
    }

    private func draw(_ snapshot: Snapshot) {
        let width = 24
        let filled = Int((snapshot.fractionCompleted * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = String(format: "%3.0f%%", snapshot.fractionCompleted * 100)
        let speed = snapshot.bytesPerSecond.map { "  \(Format.bytes(Int64($0)))/s" } ?? ""
        let retry = snapshot.attempt > 1 ? "  (attempt \(snapshot.attempt))" : ""
        let line = "\(label)  [\(bar)] \(percent)  \(Format.bytes(snapshot.bytesSent)) / \(Format.bytes(snapshot.totalBytes))\(speed)\(retry)"
        lock.withLock { drewBar = true }
        Terminal.note("\r\u{1B}[K" + line, newline: false)
    }
}
