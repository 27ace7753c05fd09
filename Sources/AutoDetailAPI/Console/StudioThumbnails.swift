import AppCore
import Foundation
import NIOCore
import Vapor

/// Photo thumbnails of the studio console: made at the first view with ffmpeg (already a dependency of the server
/// for transcription) and cached on disk under `DATA_DIR/studio-thumbnails/`, one JPEG of at most 320 px width per
/// photo id. Photos are write-once and their ids never reused, so a cached thumbnail never goes stale. When a
/// thumbnail cannot be made (no ffmpeg, HEIC, an undecodable file), the caller shows the original instead.
package enum StudioThumbnails {
    static let width = 320

    /// JPEG bytes of the thumbnail of a booking's photo; nil when there is no such photo or none can be made.
    package static func thumbnail(photo photoID: UUID, booking: UUID, request: Request) async throws -> Data? {
        let folder = request.application.core.config.dataDirectory.appendingPathComponent("studio-thumbnails", isDirectory: true)
        let cached = folder.appendingPathComponent(photoID.uuidString.lowercased() + ".jpg")
        guard let objectKey = try await StudioReads.photoObjectKey(photoID, booking: booking, request) else { return nil }
        if let data = FileManager.default.contents(atPath: cached.path) { return data }
        let demuxer: String
        switch objectKey.split(separator: ".").last {
        case "jpg": demuxer = "jpeg_pipe"
        case "png": demuxer = "png_pipe"
        default: return nil
        }
        guard let original = try await request.photoStorage.store.get(
            bucket: request.photoStorage.bucket, key: objectKey, range: nil, maxBytes: Int(PhotoStorage.maxObjectBytes))
        else { return nil }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tag = UUID().uuidString.lowercased()
        let input = folder.appendingPathComponent("in-\(tag)")
        let output = folder.appendingPathComponent("out-\(tag).jpg")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        try Data(original.bytes.readableBytesView).write(to: input)
        let ok = await run("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-protocol_whitelist", "file", "-f", demuxer, "-i", input.path,
            "-vf", "scale='min(\(width),iw)':-2", "-frames:v", "1", "-q:v", "5", "-y", output.path,
        ], timeout: 20)
        guard ok, let data = FileManager.default.contents(atPath: output.path), !data.isEmpty else {
            request.logger.warning("studio thumbnail could not be made; the original is shown")
            return nil
        }
        // Published by rename: a concurrent first view of the same photo writes the same bytes.
        try? FileManager.default.moveItem(at: output, to: cached)
        return data
    }

    /// Runs a program without a shell; false on a non-zero exit, a missing program or the timeout.
    private static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval) async -> Bool {
        guard FileManager.default.isExecutableFile(atPath: executable) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            process.terminationHandler = { finished in
                continuation.resume(returning: finished.terminationReason == .exit && finished.terminationStatus == 0)
            }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: false)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if process.isRunning { process.terminate() }
            }
        }
    }
}
