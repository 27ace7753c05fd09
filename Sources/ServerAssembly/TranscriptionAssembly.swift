import AppCore
import Fluent
import Foundation
import HelpPetAPI
import Transcription
import Vapor

#if canImport(Glibc)
    import Glibc
#endif

/// Plugs the transcription worker (library `Transcription`) into HelpPet's visits.
package enum TranscriptionAssembly {
    /// The worker of a process that runs background work, or nil when `TRANSCRIPTION_ENGINE=off`.
    package static func makeWorker(_ app: Application) -> TranscriptionWorker? {
        let config = app.core.config
        let settings = config.transcription
        guard let recognizer = makeRecognizer(settings) else { return nil }
        let temporary = privateTemporaryFolder(config.dataDirectory.appendingPathComponent("tmp/transcription"))
        return TranscriptionWorker(
            settings: .init(
                concurrency: settings.concurrency, pollInterval: settings.pollInterval,
                leaseSeconds: settings.leaseSeconds, temporaryDirectory: temporary, chunkSeconds: settings.chunkSeconds),
            recognizer: recognizer, preparation: AudioPreparation(maxSeconds: settings.maxAudioSeconds),
            store: TranscriptionJobStore(
                owner: ProcessIdentity.current, leaseSeconds: settings.leaseSeconds, retryDelays: settings.retryDelays),
            target: HelpPetTranscriptionTarget(app: app), clock: app.core.clock, logger: app.logger)
    }

    /// The configured engine, or nil when `TRANSCRIPTION_ENGINE=off`.
    package static func makeRecognizer(_ settings: TranscriptionSettings) -> (any SpeechRecognizer)? {
        let recognizer: any SpeechRecognizer
        switch settings.engine {
        case .off: return nil
        case .whisper:
            // Whisper, with pocketsphinx as the fallback while the Python environment is not installed (§5.1).
            recognizer = FallbackRecognizer(
                primary: WhisperRecognizer(
                    python: settings.python, modelDirectory: settings.whisperModelDirectory,
                    timeout: TimeInterval(settings.engineTimeoutSeconds)),
                fallback: PocketsphinxRecognizer(timeout: TimeInterval(settings.engineTimeoutSeconds)))
        case .pocketsphinx:
            recognizer = PocketsphinxRecognizer(timeout: TimeInterval(settings.engineTimeoutSeconds))
        }
        return recognizer
    }
}

/// This process's folder for job files (`DATA_DIR/tmp/transcription/pid-…`, 0700). Several processes may share a
/// `DATA_DIR`, so only the folders of processes that no longer run (a crash) are removed.
private func privateTemporaryFolder(_ parent: URL) -> URL {
    try? FileManager.default.createDirectory(
        at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] {
        let pid = name.split(separator: "-").dropFirst().first.flatMap { Int32($0) }
        if let pid, kill(pid, 0) == 0 || errno == EPERM { continue }
        try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
    }
    return parent.appendingPathComponent(
        "pid-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
}

/// Uses `primary` when it can run, else `fallback`.
struct FallbackRecognizer: SpeechRecognizer {
    let primary: any SpeechRecognizer
    let fallback: any SpeechRecognizer
    var name: String { primary.name }

    func isAvailable() async -> Bool {
        if await primary.isAvailable() { return true }
        return await fallback.isAvailable()
    }

    func transcribe(wav: URL, hints: DecoderHints, workDirectory: URL) async throws -> Transcript {
        if await primary.isAvailable() {
            return try await primary.transcribe(wav: wav, hints: hints, workDirectory: workDirectory)
        }
        return try await fallback.transcribe(wav: wav, hints: hints, workDirectory: workDirectory)
    }
}

/// HelpPet's visits as the worker's target.
struct HelpPetTranscriptionTarget: TranscriptionJobTarget {
    let app: Application

    func input(for job: ClaimedJob) async throws -> TranscriptionJobInput? {
        guard let visit = try await VisitTranscriptionJobs.visit(
            visitID: job.visitID, storageKey: job.storageKey, on: app.db)
        else { return nil }
        return TranscriptionJobInput(
            contentType: visit.contentType, petName: visit.petName, practiceTerms: visit.practiceTerms,
            noteTemplate: NoteTemplate(visit.noteTemplate), petWeightKg: visit.petWeightKg)
    }

    func download(_ job: ClaimedJob, to destination: URL) async throws -> Bool {
        try await VisitTranscriptionJobs.download(storageKey: job.storageKey, to: destination, app: app)
    }

    func reportProgress(_ job: ClaimedJob, fraction: Double) async {
        do {
            try await VisitTranscriptionJobs.recordProgress(
                fraction, jobID: job.id, owner: job.owner, visitID: job.visitID, storageKey: job.storageKey,
                on: app.db)
        } catch {
            app.logger.debug("transcription progress not recorded: \(String(reflecting: type(of: error)))")
        }
    }

    func applySuccess(_ job: ClaimedJob, outcome: TranscriptionOutcome) async throws -> TranscriptionApplyResult {
        let t = outcome.transcript
        let segments: [JSONValue] = t.segments.map {
            .object(["start": .number($0.start), "end": .number($0.end), "text": .string($0.text)])
        }
        var result = VisitTranscriptionJobs.Result(
            fullText: t.text, segments: segments, engine: t.engine, model: t.model, language: t.language,
            audioDurationSeconds: (t.durationSeconds * 1000).rounded() / 1000, realTimeFactor: outcome.realTimeFactor,
            completedAt: outcome.completedAt, draftSummary: nil)
        if let note = outcome.clinicalNote {
            result.clinicalNote = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(note))
        }
        result.vocabularyCorrections = outcome.corrections.map {
            .object(["heard": .string($0.heard), "written": .string($0.written)])
        }
        return Self.map(try await VisitTranscriptionJobs.applySuccess(
            jobID: job.id, owner: job.owner, visitID: job.visitID, storageKey: job.storageKey, result: result,
            on: app.db, metrics: app.core.metrics))
    }

    func applyFailure(_ job: ClaimedJob, message: String, at: Date) async throws -> TranscriptionApplyResult {
        Self.map(try await VisitTranscriptionJobs.applyFailure(
            jobID: job.id, owner: job.owner, visitID: job.visitID, storageKey: job.storageKey, message: message,
            at: at, on: app.db))
    }

    func discard(_ job: ClaimedJob) async throws {
        try await TranscriptionJobStore.discardClaimed(jobID: job.id, owner: job.owner, now: app.core.clock.now(), on: app.db)
    }

    static func map(_ applied: VisitTranscriptionJobs.Applied) -> TranscriptionApplyResult {
        switch applied {
        case .applied: .applied
        case .discarded: .discarded
        case .leaseLost: .leaseLost
        }
    }
}
