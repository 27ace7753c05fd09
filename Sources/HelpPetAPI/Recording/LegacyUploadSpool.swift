import AppCore
import Foundation
import ObjectStorage
import Vapor

/// Reads a legacy `multipart/form-data` upload (contract §4.11) from the streamed body: text parts are kept
/// (first occurrence wins), the first `audio` part goes to a private temporary file as it arrives, and the size
/// limits are enforced while reading, so a file is never held in memory and its size is known before it is stored.
struct LegacyUploadSpool {
    static let maxFileBytes: Int64 = 104_857_600
    static let maxRequestBytes: Int64 = 105_906_176
    static let maxTextPartBytes = 1024
    static let tooLarge = APIError(.payloadTooLarge, "File size too large. Maximum 100MB allowed.")

    struct AudioPart {
        var filename: String?
        var contentType: String?
        var file: StreamedFileWriter
        var size: Int64 = 0
    }

    struct Result {
        var textParts: [String: String] = [:]
        /// The first text part over 1024 bytes, reported as `{part} must be at most 1024 characters`.
        var oversizedTextPart: String?
        var audioPartCount = 0
        var audio: AudioPart?
    }

    /// Spools the body (the request's body stream, chunk by chunk); on any error the temporary file is already removed.
    static func receive<Body: AsyncSequence>(
        _ body: Body, boundary: String, directory: URL, io: StorageFileIO
    ) async throws -> Result where Body.Element == ByteBuffer {
        var scanner = MultipartScanner(boundary: boundary)
        var result = Result()
        var current: (name: String, isAudio: Bool, text: [UInt8])?
        var received: Int64 = 0
        do {
            for try await chunk in body {
                received += Int64(chunk.readableBytes)
                if received > maxRequestBytes { throw tooLarge }
                if scanner.isFinished { continue }
                let events: [MultipartScanner.Event]
                do { events = try scanner.feed(chunk) } catch { throw APIError.badRequest("Malformed multipart body") }
                for event in events {
                    switch event {
                    case .partHeaders(let headers):
                        let disposition = headers.first { $0.name == "content-disposition" }?.value ?? ""
                        let name = Self.parameter("name", in: disposition) ?? ""
                        let isAudio = name == "audio"
                        if isAudio {
                            result.audioPartCount += 1
                            if result.audio == nil {
                                let path = directory.appendingPathComponent("upload-\(UUID().uuidString.lowercased())").path
                                result.audio = AudioPart(
                                    filename: Self.parameter("filename", in: disposition),
                                    contentType: headers.first { $0.name == "content-type" }?.value,
                                    file: try await StreamedFileWriter.create(at: path, io: io))
                            }
                        }
                        current = (name, isAudio, [])
                    case .bodyChunk(let buffer):
                        guard let part = current else { continue }
                        if part.isAudio {
                            // Only the first audio part is kept; others are counted and drained.
                            if result.audioPartCount == 1, let audio = result.audio {
                                if audio.file.byteCount + Int64(buffer.readableBytes) > maxFileBytes { throw tooLarge }
                                try await audio.file.append(buffer)
                            }
                        } else if part.text.count <= maxTextPartBytes {
                            current?.text.append(contentsOf: buffer.readableBytesView.prefix(maxTextPartBytes + 1 - part.text.count))
                        }
                    case .partEnd:
                        if let part = current, !part.isAudio {
                            if part.text.count > maxTextPartBytes {
                                if result.oversizedTextPart == nil { result.oversizedTextPart = part.name }
                            } else if result.textParts[part.name] == nil {
                                result.textParts[part.name] = String(decoding: part.text, as: UTF8.self)
                            }
                        }
                        current = nil
                    case .end:
                        break
                    }
                }
            }
            guard scanner.isFinished else { throw APIError.badRequest("Malformed multipart body") }
            if let audio = result.audio {
                result.audio?.size = try await audio.file.finish().size
            }
            return result
        } catch {
            await result.audio?.file.discard()
            throw error
        }
    }

    /// A parameter of a `Content-Disposition` header (`name="audio"`, `filename="x.m4a"`).
    static func parameter(_ name: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value.replacingOccurrences(of: "\\\"", with: "\"")
        }
        return nil
    }
}
