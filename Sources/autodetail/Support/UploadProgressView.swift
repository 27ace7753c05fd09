import AutoDetailKit
import CLISupport
import Foundation

/// Shows a photo upload's progress on stderr (a live bar on a terminal, one quiet line per attempt otherwise),
/// through CLISupport's ``UploadProgressLine``.
final class UploadProgressView: Sendable {
    private let line: UploadProgressLine

    init(label: String, interactive: Bool = Terminal.stderrIsTTY) {
        line = UploadProgressLine(label: label, interactive: interactive)
    }

    func update(_ progress: UploadProgress) {
        line.update(
            UploadProgressLine.Snapshot(
                bytesSent: progress.bytesSent, totalBytes: progress.totalBytes,
                fractionCompleted: progress.fractionCompleted, attempt: progress.attempt))
    }

    /// Ends the bar line (or prints the quiet closing line).
    func finish(success: Bool) {
        line.endBar()
        if !line.interactive && success { Terminal.note("\(line.label): uploaded") }
    }
}
