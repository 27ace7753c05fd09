import AppCore
import Fluent
import Foundation
import Logging
import NIOConcurrencyHelpers
import Vapor

/// The transcription worker (contract §5.1): `concurrency` loops that claim jobs, prepare the audio in a private
/// temporary folder, run the engine outside any transaction while renewing the lease, and apply the result or
/// the failure. Runs inside `server serve` (unless `--no-worker`) and in `server worker`. On shutdown the running
/// jobs are stopped and released (back to `queued`, the attempt not counted), so another worker takes them at once.
public final class TranscriptionWorker: LifecycleHandler, Sendable {
    public struct Settings: Sendable {
        public var concurrency: Int
        public var pollInterval: Double
        public var leaseSeconds: Int
        public var temporaryDirectory: URL
        /// Recordings longer than 1.25 of this are transcribed in chunks, with progress after each.
        public var chunkSeconds: Double = 600
        public init(
            concurrency: Int, pollInterval: Double, leaseSeconds: Int, temporaryDirectory: URL, chunkSeconds: Int = 600
        ) {
            self.chunkSeconds = Double(chunkSeconds)
            self.concurrency = concurrency
            self.pollInterval = pollInterval
            self.leaseSeconds = leaseSeconds
            self.temporaryDirectory = temporaryDirectory
        }
    }

    let settings: Settings
    let recognizer: any SpeechRecognizer
    let preparation: AudioPreparation
    let store: TranscriptionJobStore
    let target: any TranscriptionJobTarget
    let lexicon: MedicationLexicon
    let vocabulary: ClinicVocabulary
    let clock: any AppClock
    let logger: Logger
    private let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])

    public init(
        settings: Settings, recognizer: any SpeechRecognizer, preparation: AudioPreparation,
        store: TranscriptionJobStore, target: any TranscriptionJobTarget, lexicon: MedicationLexicon = .bundled,
        vocabulary: ClinicVocabulary = .bundled,
        clock: any AppClock, logger: Logger
    ) {
        self.settings = settings
        self.recognizer = recognizer
        self.preparation = preparation
        self.store = store
        self.target = target
        self.lexicon = lexicon
        self.vocabulary = vocabulary
        self.clock = clock
        self.logger = logger
    }

    /// The engine and ffmpeg are installed (`/health/ready`: `ok`, else `unavailable` and jobs wait).
    public func engineAvailable() async -> Bool {
        guard preparation.isAvailable else { return false }
        return await recognizer.isAvailable()
    }

    public func didBootAsync(_ application: Application) async throws {
        // Folders of earlier runs of this process's kind are removed by their owner; ours is per process.
        let db = application.db
        for index in 0..<settings.concurrency {
            let task = Task { [self] in await self.loop(index: index, db: db) }
            tasks.withLockedValue { $0.append(task) }
        }
    }

    public func shutdownAsync(_ application: Application) async {
        let running = tasks.withLockedValue { current -> [Task<Void, Never>] in
            defer { current = [] }
            return current
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    func loop(index: Int, db: any Database) async {
        var announcedUnavailable = false
        while !Task.isCancelled {
            var worked = false
            if await engineAvailable() {
                announcedUnavailable = false
                do {
                    if let job = try await store.claim(now: clock.now(), on: db) {
                        worked = true
                        await process(job, db: db)
                    }
                } catch {
                    logger.warning("transcription queue unavailable: \(String(reflecting: type(of: error)))")
                }
            } else if !announcedUnavailable {
                announcedUnavailable = true
                logger.warning("transcription engine '\(recognizer.name)' is not installed; jobs wait in the queue")
            }
            if !worked { try? await Task.sleep(for: .milliseconds(Int(settings.pollInterval * 1000))) }
        }
    }

    /// One claimed job, start to end. Never throws: every outcome is written to the job row.
    func process(_ job: ClaimedJob, db: any Database) async {
        var jobLogger = logger
        jobLogger[metadataKey: "transcription_job"] = .string(job.id.uuidString.lowercased())
        jobLogger[metadataKey: "visit_id"] = .string(job.visitID.uuidString.lowercased())
        let log = jobLogger
        let work = Task { [self] () async throws -> TranscriptionOutcome? in try await self.transcribe(job) }
        // The lease is renewed every fifth of its length while the engine runs; a lost lease stops the work.
        let renewal = Task { [self] in
            let interval = max(1, settings.leaseSeconds / 5)
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                if Task.isCancelled { return }
                if let held = try? await store.renew(job, now: clock.now(), on: db), !held {
                    log.warning("transcription lease lost; stopping this attempt")
                    work.cancel()
                    return
                }
            }
        }
        defer { renewal.cancel() }
        let result = await withTaskCancellationHandler {
            await work.result
        } onCancel: {
            work.cancel()
        }
        if Task.isCancelled {
            // Shutdown: give the job back without counting the attempt.
            try? await store.release(job, now: clock.now(), on: db)
            log.info("transcription job released at shutdown")
            return
        }
        do {
            switch result {
            case .success(nil):
                try await target.discard(job)
                log.info("stale transcription job discarded")
            case .success(let outcome?):
                let applied = try await target.applySuccess(job, outcome: outcome)
                log.info("transcription finished", metadata: [
                    "result": .string("\(applied)"), "engine": .string(outcome.transcript.engine),
                    "real_time_factor": .string(String(format: "%.3f", outcome.realTimeFactor)),
                ])
            case .failure(let error):
                if error is CancellationError {
                    // Lease lost: another worker owns the job now.
                    return
                }
                let failure = error as? TranscriptionFailure
                let message = failure?.message ?? "Transcription failed: \(String(describing: type(of: error)))"
                // A final failure (a recording over the duration cap) is not retried: it would fail the same way.
                if job.attempts >= TranscriptionJobStore.maxAttempts || failure?.isFinal == true {
                    let applied = try await target.applyFailure(job, message: message, at: clock.now())
                    log.warning("transcription failed after the last attempt", metadata: [
                        "result": .string("\(applied)"), "error": .string(message),
                    ])
                } else {
                    try await store.retryLater(job, error: message, now: clock.now(), on: db)
                    log.warning("transcription attempt \(job.attempts) failed; retrying later", metadata: [
                        "error": .string(message)
                    ])
                }
            }
        } catch {
            // The lease runs out and another worker takes the job again.
            log.warning("transcription result could not be recorded: \(String(reflecting: type(of: error)))")
        }
    }

    /// Download, then RecordingTranscriber, in a private 0700 folder removed afterwards. Nil when stale.
    func transcribe(_ job: ClaimedJob) async throws -> TranscriptionOutcome? {
        guard let input = try await target.input(for: job) else { return nil }
        let folder = try JobFolder(parent: settings.temporaryDirectory)
        defer { folder.remove() }
        let source = folder.url.appendingPathComponent("input")
        guard try await target.download(job, to: source) else {
            throw TranscriptionFailure("The recording is missing from storage")
        }
        try Task.checkCancellation()
        let transcriber = RecordingTranscriber(
            recognizer: recognizer, preparation: preparation, lexicon: lexicon,
            vocabulary: vocabulary.adding(practiceTerms: input.practiceTerms), clock: clock)
        // A job taken again after its worker died starts over at 0, never showing the dead attempt's progress.
        await target.reportProgress(job, fraction: 0)
        let target = self.target
        return try await transcriber.transcribe(
            source, contentType: input.contentType, petName: input.petName, workDirectory: folder.url,
            chunkSeconds: settings.chunkSeconds, noteTemplate: input.noteTemplate, petWeightKg: input.petWeightKg
        ) { fraction in await target.reportProgress(job, fraction: fraction) }
    }
}
