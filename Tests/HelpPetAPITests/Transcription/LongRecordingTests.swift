import Foundation
import Testing

/// "Long visits" (docs/scribe.md): a recording longer than the chunk length is transcribed in chunks cut in its pauses,
/// the visit shows `metadata.transcription_progress` while it runs, nothing is lost at the cuts, and the segments
/// keep the recording's clock. Real engine (Whisper), a real server process; the chunk length is set short
/// (TRANSCRIPTION_CHUNK_SECONDS=20) so a one-minute recording has three chunks.
@Suite(.serialized) struct LongRecordingTests {
    typealias Tools = TranscriptionTools

    static let sentences = [
        "Bella presents with vomiting since yesterday.", "Her temperature is one hundred and three degrees.",
        "We will start amoxicillin twice daily.", "Recheck her in two weeks.",
    ]

    /// The sentences with 12 s pauses between them, as an m4a: about 48 s.
    static func recording(in folder: URL) throws -> [UInt8] {
        var list = ""
        for (index, sentence) in sentences.enumerated() {
            let spoken = folder.appendingPathComponent("s\(index).wav")
            let resampled = folder.appendingPathComponent("r\(index).wav")
            try SpeechFixture.run("espeak-ng", ["-v", "en", "-s", "140", "-w", spoken.path, sentence])
            try SpeechFixture.run("ffmpeg", [
                "-nostdin", "-loglevel", "error", "-y", "-i", spoken.path, "-ac", "1", "-ar", "16000",
                "-c:a", "pcm_s16le", resampled.path,
            ])
            list += "file '\(resampled.path)'\n"
            if index < sentences.count - 1 { list += "file '\(folder.appendingPathComponent("gap.wav").path)'\n" }
        }
        try SpeechFixture.run("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "12",
            "-c:a", "pcm_s16le", folder.appendingPathComponent("gap.wav").path,
        ])
        let listFile = folder.appendingPathComponent("list.txt")
        try list.write(to: listFile, atomically: true, encoding: .utf8)
        let m4a = folder.appendingPathComponent("visit.m4a")
        try SpeechFixture.run("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", listFile.path,
            "-c:a", "aac", "-b:a", "64k", m4a.path,
        ])
        return Array(try Data(contentsOf: m4a))
    }

    @Test(.enabled(if: Tools.whisperRunnable)) func aLongRecordingIsTranscribedInChunksWithProgress() async throws {
        try Tools.requireWhisper()
        try await withEngineServerDatabase { database, group in
            let server = try await group.start(
                database, env: Tools.env(engine: "whisper", ["TRANSCRIPTION_CHUNK_SECONDS": "20"]))
            let vet = try await server.client.login(Demo.vet1)
            let harness = TranscriptionHarness(api: server, token: vet)
            let visitID = try await harness.record(
                pet: Demo.pet(1), bytes: try Self.recording(in: database.directory))

            // Watch the visit while it is processed: the progress it shows on the way.
            var seen: [Double] = []
            var visit = try await server.client.get(TranscriptionHarness.visitPath(visitID), token: vet)
            let deadline = ContinuousClock.now + .seconds(240)
            while visit.json["state"].string == "processing" || visit.json["state"].string == "new",
                ContinuousClock.now < deadline
            {
                if let progress = visit.json["metadata"]["transcription_progress"].double, seen.last != progress {
                    seen.append(progress)
                }
                try await Task.sleep(for: .milliseconds(100))
                visit = try await server.client.get(TranscriptionHarness.visitPath(visitID), token: vet)
            }
            #expect(visit.json["state"].string == "processed", "\(visit)")
            let metadata = visit.json["metadata"]
            #expect(metadata["transcription_progress"].double == 1)
            #expect(seen.contains { $0 > 0 && $0 < 1 }, "no progress between 0 and 1 was shown: \(seen)")
            #expect(seen == seen.sorted(), "progress went backwards: \(seen)")

            let text = (visit.json["full_text"].string ?? "").lowercased()
            // The words on both sides of each cut (after "degrees" and after "daily"; tiny.en spells the drug and
            // "recheck" differently from run to run, so the test holds to the words it writes reliably).
            for word in ["yesterday", "temperature", "degrees", "we will", "twice", "check", "weeks"] {
                #expect(text.contains(word), "'\(word)' lost: \(text)")
            }
            // The segments are on the recording's clock, in order, the last one well past the first chunk.
            let starts = (metadata["transcript_segments"].array ?? []).compactMap { $0["start"].double }
            #expect(starts == starts.sorted(), "\(starts)")
            #expect((starts.last ?? 0) > 40, "\(starts)")
            #expect((metadata["audio_duration_seconds"].double ?? 0) > 45)
        }
    }
}
