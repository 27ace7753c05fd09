import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Offline transcription end to end (contract §5.1) against real `server` processes and real engines, on SQLite
/// and, with `DATABASE_URL`, on PostgreSQL: initiate → upload → complete → worker → `processed`.
@Suite(.serialized) struct TranscriptionFlowTests {
    typealias Tools = TranscriptionTools

    /// Whisper: key words in `full_text`, ordered segments, the contract's metadata, a draft summary that lists
    /// the spoken temperature and medication, hidden from the pet owner until a vet approves it.
    @Test(.enabled(if: Tools.whisperRunnable)) func whisperTranscribesARecording() async throws {
        try Tools.requireWhisper()
        try await withEngineServerDatabase { database, group in
            let server = try await group.start(database, env: Tools.env(engine: "whisper"))
            let ready = try await server.client.get("/health/ready")
            #expect(ready.json["checks"]["transcription"].string == "ok", "\(ready)")
            let vet = try await server.client.login(Demo.vet1)
            let harness = TranscriptionHarness(api: server, token: vet)
            let visitID = try await harness.record(
                pet: Demo.pet(1), bytes: try SpeechFixture.m4a(SpeechFixture.visitText, in: database.directory))
            let visit = try await harness.waitForState(visitID, ["processed", "failed"])
            #expect(visit.json["state"].string == "processed", "\(visit)")
            let text = (visit.json["full_text"].string ?? "").lowercased()
            #expect(text.contains("amoxicillin"), "\(text)")
            #expect(text.contains("103"), "\(text)")
            #expect(text.contains("250"), "\(text)")
            let metadata = visit.json["metadata"]
            #expect(metadata["transcription_engine"].string == "whisper")
            #expect(metadata["transcription_model"].string == "whisper-tiny.en")
            #expect(metadata["language"].string == "en")
            #expect(metadata["transcript_length"].int == visit.json["full_text"].string?.count)
            #expect((metadata["audio_duration_seconds"].double ?? 0) > 5)
            #expect(metadata["real_time_factor"].double != nil)
            #expect(metadata["transcription_completed_at"].string != nil)
            #expect(metadata["transcription_note"].isAbsent, "speech is not `no_speech`")
            let segments = metadata["transcript_segments"].array ?? []
            #expect(!segments.isEmpty)
            let starts = segments.compactMap { $0["start"].double }
            #expect(starts == starts.sorted() && starts.count == segments.count)
            #expect(segments.allSatisfy { ($0["end"].double ?? -1) >= ($0["start"].double ?? 0) })
            // The draft summary.
            #expect(metadata["summary_status"].string == "draft")
            let summary = visit.json["summary"].string ?? ""
            #expect(summary.contains("temperature 103 °F"), "\(summary)")
            #expect(summary.lowercased().contains("amoxicillin 250 mg twice daily"), "\(summary)")
            // Written from the note (NoteSummaryText): its sections' sentences, then its fields.
            #expect(summary.contains("vomiting since yesterday."), "\(summary)")
            #expect(summary.contains("Follow-up: "), "\(summary)")
            let note = metadata["clinical_note"]
            #expect(summary.contains("Follow-up: \(note["follow_up"]["text"].string ?? "?")"), "\(summary)")
            // The pet owner never sees a draft; a vet's PUT of summary approves it.
            let owner = try await server.client.login(Demo.owner1)
            let ownerView = try await server.client.get(TranscriptionHarness.visitPath(visitID), token: owner)
            #expect(ownerView.status == .ok)
            #expect(ownerView.json["summary"].isNull, "\(ownerView)")
            let approved = try await server.client.put(
                TranscriptionHarness.visitPath(visitID), token: vet, json: ["summary": summary + "\nReviewed."])
            #expect(approved.json["metadata"]["summary_status"].string == "approved", "\(approved)")
            let ownerAfter = try await server.client.get(TranscriptionHarness.visitPath(visitID), token: owner)
            #expect(ownerAfter.json["summary"].string == summary + "\nReviewed.")
            // Transcribe again: a person's summary is never overwritten.
            let again = try await server.client.send(.POST, TranscriptionHarness.visitPath(visitID) + "/transcribe", token: vet)
            #expect(again.status == .accepted, "\(again)")
            let redone = try await harness.waitForState(visitID, ["processed", "failed"])
            #expect(redone.json["state"].string == "processed")
            #expect(redone.json["summary"].string == summary + "\nReviewed.")
            #expect(redone.json["metadata"]["summary_status"].string == "approved")
        }
    }

    /// pocketsphinx (no Python): a real transcript with timed segments, engine and model recorded.
    @Test(.enabled(if: Tools.pocketsphinxRunnable)) func pocketsphinxTranscribesARecording() async throws {
        try Tools.requirePocketsphinx()
        try await withEngineServerDatabase { database, group in
            let server = try await group.start(database, env: Tools.env(engine: "pocketsphinx"))
            let vet = try await server.client.login(Demo.vet1)
            let harness = TranscriptionHarness(api: server, token: vet)
            let visitID = try await harness.record(
                pet: Demo.pet(2),
                bytes: try SpeechFixture.m4a("The dog has a temperature of one hundred and two degrees.", in: database.directory))
            let visit = try await harness.waitForState(visitID, ["processed", "failed"])
            #expect(visit.json["state"].string == "processed", "\(visit)")
            // pocketsphinx's general model hears espeak's synthetic voice poorly (see bench/results): a real,
            // non-empty transcript is what is checked here; word accuracy is Whisper's test.
            let text = visit.json["full_text"].string ?? ""
            #expect(!text.isEmpty, "\(visit)")
            #expect(visit.json["metadata"]["transcript_length"].int == text.count)
            #expect(visit.json["metadata"]["transcription_engine"].string == "pocketsphinx")
            #expect(visit.json["metadata"]["transcription_model"].string == "cmusphinx-en-us")
            let starts = (visit.json["metadata"]["transcript_segments"].array ?? []).compactMap { $0["start"].double }
            #expect(!starts.isEmpty && starts == starts.sorted())
        }
    }

    /// Bytes that are not audio, and an HLS playlist disguised as m4a that points at a real speech file outside
    /// the job folder: both fail after three attempts (visit `failed`, `transcription_error`, job `failed`) —
    /// had ffmpeg followed the playlist, the speech file would have been transcribed. Then the recording is
    /// replaced with real audio and `/transcribe` makes it `processed`.
    @Test(.enabled(if: Tools.pocketsphinxRunnable)) func badInputFailsThenReplacedAudioIsTranscribed() async throws {
        try Tools.requirePocketsphinx()
        try await withEngineServerDatabase { database, group in
            let server = try await group.start(database, env: Tools.env(engine: "pocketsphinx"))
            let rows = try await JobRows.open(database)
            defer { Task { await rows.close() } }
            let vet = try await server.client.login(Demo.vet1)
            let harness = TranscriptionHarness(api: server, token: vet)

            let garbage = try await harness.record(pet: Demo.pet(4), bytes: Array(repeating: 0x5A, count: 4096))
            let outside = database.directory.appendingPathComponent("outside.m4a")
            try Data(try SpeechFixture.m4a("The dog has a fever.", in: database.directory)).write(to: outside)
            let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile://\(outside.path)\n#EXT-X-ENDLIST\n"
            let disguised = try await harness.record(pet: Demo.pet(5), bytes: Array(playlist.utf8))

            for visitID in [garbage, disguised] {
                let failed = try await harness.waitForState(visitID, ["processed", "failed"], timeout: .seconds(120))
                #expect(failed.json["state"].string == "failed", "\(failed)")
                let error = failed.json["metadata"]["transcription_error"].string ?? ""
                #expect(error.contains("Audio could not be decoded"), "\(error)")
                #expect(!error.contains(database.directory.path), "\(error)")
                #expect(failed.json["metadata"]["transcription_failed_at"].string != nil)
                let jobs = try await rows.jobs(visit: visitID)
                #expect(jobs.count == 1 && jobs[0].status == "failed" && jobs[0].attempts == 3, "\(jobs)")
            }
            // No job folder is left behind.
            let tmp = database.directory.appendingPathComponent("tmp/transcription")
            let leftovers = (FileManager.default.enumerator(atPath: tmp.path)?.allObjects as? [String] ?? [])
                .filter { $0.contains("job-") }
            #expect(leftovers.isEmpty, "\(leftovers)")

            // Replace the recording with real audio, then transcribe again.
            let speech = try SpeechFixture.m4a("The dog has a temperature of one hundred and two degrees.", in: database.directory)
            let replaced = try await harness.record(pet: Demo.pet(4), bytes: speech, replace: true)
            #expect(replaced == garbage)
            // Complete already queued the new key's job; /transcribe while it is live is a 409, else 202.
            let transcribe = try await server.client.send(.POST, TranscriptionHarness.visitPath(replaced) + "/transcribe", token: vet)
            #expect(transcribe.status == .accepted || transcribe.status == .conflict, "\(transcribe)")
            let processed = try await harness.waitForState(replaced, ["processed", "failed"])
            #expect(processed.json["state"].string == "processed", "\(processed)")
            #expect(processed.json["metadata"]["transcription_error"].isAbsent)
            let jobs = try await rows.jobs(visit: replaced)
            #expect(jobs.map(\.status).sorted() == ["done", "failed"], "\(jobs)")
        }
    }

    /// The engine missing (no ffmpeg on the PATH): `/health/ready` reports `transcription: unavailable` and
    /// `degraded` (never 503), and the job waits in the queue instead of failing.
    @Test func missingEngineIsReportedAndJobsWait() async throws {
        try await withServerDatabase { database, group in
            let server = try await group.start(
                database, env: Tools.env(engine: "whisper", ["PATH": "/nonexistent", "TRANSCRIPTION_PYTHON": "/nonexistent/python3"]))
            let ready = try await server.client.get("/health/ready")
            #expect(ready.status == .ok, "\(ready)")
            #expect(ready.json["checks"]["transcription"].string == "unavailable", "\(ready)")
            #expect(ready.json["status"].string == "degraded", "\(ready)")
            let rows = try await JobRows.open(database)
            defer { Task { await rows.close() } }
            let vet = try await server.client.login(Demo.vet1)
            let harness = TranscriptionHarness(api: server, token: vet)
            let visitID = try await harness.record(pet: Demo.pet(6), bytes: Array(repeating: 1, count: 2000))
            try await Task.sleep(for: .seconds(2))
            #expect(try await rows.jobs(visit: visitID) == [.init(status: "queued", attempts: 0, lastError: nil)])
            let visit = try await server.client.get(TranscriptionHarness.visitPath(visitID), token: vet)
            #expect(visit.json["state"].string == "processing")
        }
    }
}
