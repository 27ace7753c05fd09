import Foundation
import HelpPetKit

/// Shows a session's progress on stderr: a live bar with bytes, percent and speed on a terminal; one quiet line
/// per step otherwise.
final class UploadProgressView: @unchecked Sendable {
    private let label: String
    private let interactive: Bool
    private var task: Task<Void, Never>?
    private let lock = NSLock()
    private var drewBar = false

    init(label: String, interactive: Bool = Terminal.stderrIsTTY) {
        self.label = label
        self.interactive = interactive
    }

    /// Starts following `session`.
    func follow(_ session: PetRecordingSession) async {
        let updates = await session.stateUpdates()
        task = Task { [self] in
            var lastAttempt = 0
            var announcedProcessing = false
            for await state in updates {
                switch state {
                case let .uploading(progress):
                    if interactive {
                        draw(progress)
                    } else if progress.attempt != lastAttempt && progress.attempt > 0 {
                        Terminal.note(
                            progress.attempt == 1
                                ? "\(label): uploading \(Format.bytes(progress.totalBytes))"
                                : "\(label): retrying the upload (attempt \(progress.attempt))")
                    }
                    lastAttempt = progress.attempt
                case let .processing(visitId):
                    guard !announcedProcessing else { break }
                    announcedProcessing = true
                    endBar()
                    if !interactive { Terminal.note("\(label): uploaded; completing visit \(visitId)") }
                default:
                    break
                }
            }
        }
    }

    /// Stops following and ends the bar line.
    func finish() async {
        task?.cancel()
        await task?.value
        endBar()
    }

    private func draw(_ progress: PetRecordingSession.UploadProgress) {
        let width = 24
        let filled = Int((progress.fractionCompleted * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = String(format: "%3.0f%%", progress.fractionCompleted * 100)
        let speed = progress.bytesPerSecond.map { "  \(Format.bytes(Int64($0)))/s" } ?? ""
        let retry = progress.attempt > 1 ? "  (attempt \(progress.attempt))" : ""
        let line = "\(label)  [\(bar)] \(percent)  \(Format.bytes(progress.bytesSent)) / \(Format.bytes(progress.totalBytes))\(speed)\(retry)"
        lock.withLock { drewBar = true }
        Terminal.note("\r\u{1B}[K" + line, newline: false)
    }

    private func endBar() {
        let drew = lock.withLock { () -> Bool in
            defer { drewBar = false }
            return drewBar
        }
        if drew { Terminal.note("") }
    }
}
