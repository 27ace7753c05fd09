import AppCore
import Foundation
import Testing
import Transcription

/// `AudioPreparation`'s duration cap against the real ffmpeg/ffprobe : a recording over the cap is
/// refused from its declared duration without being decoded, and a container that understates its length is cut
/// by ffmpeg's own `-t`/`-fs` one second past the cap instead of decoding three hours. Skipped without ffmpeg unless
/// `HELPPET_REQUIRE_ENGINES=1`.
@Suite(.serialized) struct AudioDurationCapTests {
    static var runnable: Bool {
        ProcessInfo.processInfo.environment["HELPPET_REQUIRE_ENGINES"] == "1" || tool("ffmpeg") != nil
    }

    static func tool(_ name: String) -> String? {
        ["/usr/bin", "/usr/local/bin", "/bin"].map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A job folder with a three-hour silent FLAC as `input`, optionally with STREAMINFO claiming one second.
    static func input(lying: Bool) throws -> (JobFolder, URL) {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("duration-cap-\(UUID().uuidString.prefix(8))")
        let folder = try JobFolder(parent: parent)
        let input = folder.url.appendingPathComponent("input")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(tool("ffmpeg"), "ffmpeg is not installed"))
        process.arguments = [
            "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "10800",
            "-c:a", "flac", "-f", "flac", input.path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        if lying {
            var bytes = [UInt8](try Data(contentsOf: input))
            let offset = 8 + 13
            bytes[offset] &= 0xF0
            bytes.replaceSubrange((offset + 1)...(offset + 4), with: [0x00, 0x00, 0x3E, 0x80])  // 16 000 samples
            try Data(bytes).write(to: input)
        }
        return (folder, input)
    }

    @Test(.enabled(if: runnable)) func aRecordingOverTheCapIsRefusedFromItsDeclaredDuration() async throws {
        let (folder, input) = try Self.input(lying: false)
        defer { folder.remove() }
        let started = ContinuousClock.now
        let error = await #expect(throws: TranscriptionFailure.self) {
            _ = try await AudioPreparation(maxSeconds: 7200).convert(input, contentType: "audio/flac")
        }
        #expect(error?.isFinal == true)
        #expect(error?.message == "The recording is longer than the maximum of 2:00:00 (about 3:00:00); it is not transcribed")
        // Refused before decoding: no WAV was written (three hours would be 346 MB).
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("audio.wav").path))
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test(.enabled(if: runnable)) func aContainerThatUnderstatesItsLengthIsStoppedByFFmpegsOwnCaps() async throws {
        let (folder, input) = try Self.input(lying: true)
        defer { folder.remove() }
        let error = await #expect(throws: TranscriptionFailure.self) {
            _ = try await AudioPreparation(maxSeconds: 30).convert(input, contentType: "audio/flac")
        }
        #expect(error?.isFinal == true)
        // ffmpeg stopped at 31 s (`-t`, with `-fs` as the byte bound) instead of decoding all three hours.
        #expect(error?.message.contains("(about 0:00:31)") == true, "\(error?.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("audio.wav").path))
    }
}

/// `TRANSCRIPTION_MAX_AUDIO_SECONDS` (README "Configuration"): default two hours, validated at start.
@Suite struct MaxAudioSecondsSettingTests {
    @Test func defaultAndValue() throws {
        #expect(try TranscriptionSettingsTests.load([:]).maxAudioSeconds == 7200)
        #expect(try TranscriptionSettingsTests.load(["TRANSCRIPTION_MAX_AUDIO_SECONDS": "600"]).maxAudioSeconds == 600)
    }

    @Test(arguments: ["0", "9", "86401", "2h", "-5"]) func invalidValuesAreRefused(value: String) {
        #expect {
            _ = try TranscriptionSettingsTests.load(["TRANSCRIPTION_MAX_AUDIO_SECONDS": value])
        } throws: { error in
            "\(error)".contains("TRANSCRIPTION_MAX_AUDIO_SECONDS must be an integer between 10 and 86400")
        }
    }
}
