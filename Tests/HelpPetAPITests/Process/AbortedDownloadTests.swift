import Foundation
import Testing
import VaporTesting

/// A download from the embedded object store that the client abandons mid-body, over a real socket (the in-memory
/// test client cannot hang up). Regression test for c870bd2: the download route's file handle stayed open when the
/// client went away, and NIO's file system stopped the whole process ("Fatal error: Leaking file descriptor").
@Suite struct AbortedDownloadTests {
    typealias F = RecordingFixtures

    /// Large enough that the body cannot go out in one write: the server is still streaming when the client resets.
    static let size = 8 * 1024 * 1024
    static let rounds = 24

    /// `Range` headers as a browser's `<audio>` sends them (nil = a plain GET), and the bytes each one selects.
    static func range(round: Int) -> (header: String?, offset: Int, length: Int) {
        switch round % 4 {
        case 0: return (nil, 0, size)
        case 1: return ("bytes=0-", 0, size)
        case 2: return ("bytes=\(size / 2)-", size / 2, size - size / 2)
        default: return ("bytes=1000-\(size - 1001)", 1000, size - 2000)
        }
    }

    @Test func aClientThatDropsADownloadMidBodyDoesNotStopTheServer() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let bytes = F.bytes(Self.size)
            let visitID = try await F.recorded(
                app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), bytes: bytes)
            let playback = try await F.playback(app, vet, visitID)
            let target = try F.target(of: try #require(playback.json["presigned_url"].string, "\(playback)"))

            func head(_ path: String, range: String? = nil) -> String {
                "GET \(path) HTTP/1.1\r\nHost: \(target.host)\r\n" + (range.map { "Range: \($0)\r\n" } ?? "") + "\r\n"
            }

            try await app.whileListening { port in
                for round in 0..<Self.rounds {
                    let (range, offset, length) = Self.range(round: round)
                    let cut = try await RawDownload.fetchThenReset(port: port, head: head(target.path, range: range), keep: 4096)
                    // The store really was streaming the object when the client hung up (not an early 4xx).
                    #expect(cut.status == (range == nil ? 200 : 206), "round \(round): \(cut.head)")
                    #expect(cut.header("Content-Length") == String(length), "round \(round): \(cut.head)")
                    #expect(cut.body.count < length, "round \(round): the whole body arrived before the reset")
                    #expect(Array(cut.body) == Array(bytes[offset..<(offset + cut.body.count)]), "round \(round)")
                }

                // The same server still serves the whole object, and its health.
                let whole = try await RawDownload.fetch(port: port, head: head(target.path))
                #expect(whole.status == 200, "\(whole.head)")
                #expect(whole.body.count == Self.size)
                #expect(whole.body == bytes, "the downloaded bytes are the uploaded ones")
                let health = try await RawDownload.fetch(port: port, head: head("/health"))
                #expect(health.status == 200, "\(health.head)")
            }
        }
    }
}
