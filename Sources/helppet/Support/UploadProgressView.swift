import CLISupport
import Foundation
import HelpPetKit

/// Shows a recording session's progress on stderr (a live bar on a terminal, one quiet line per step otherwise),
/// through CLISupport's ``UploadProgressLine``.
final class UploadProgressView: @unchecked Sendable {
    private let line: UploadProgressLine
    private var task: Task<Void, Never>?

    init(label: String, interactive: Bool = Terminal.stderrIsTTY) {
        line = UploadProgressLine(label: label, interactive: interactive)
    }

    /// Starts following `session`.
    func follow(_ session: PetRecordingSession) async {
        let updates = await session.stateUpdates()
        task = Task { [line] in
            var announcedProcessing = false
            for await state in updates {
                switch state {
                case let .uploading(progress):
                    line.update(
                        UploadProgressLine.Snapshot(
                            bytesSent: progress.bytesSent, totalBytes: progress.totalBytes,
                            fractionCompleted: progress.fractionCompleted, attempt: progress.attempt,
                            bytesPerSecond: progress.bytesPerSecond))
                case let .processing(visitId):
                    guard !announcedProcessing else { break }
                    announcedProcessing = true
                    line.endBar()
                    if !line.interactive { Terminal.note("\(line.label): uploaded; completing visit \(visitId)") }
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
        line.endBar()
    }
}
