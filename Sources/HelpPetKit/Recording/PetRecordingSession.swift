import Foundation

/// The recording of **one pet** in one appointment, from the local audio file to a completed visit: the type an
/// iPhone screen binds to, one card per pet. Sessions are never shared between pets (seeds 000/001: one pet = one
/// recording = one visit).
///
/// States: `ready → uploading(progress) → processing → completed(visitId)`, or `conflict(existingVisitId)` when the
/// pet already has a recording for the appointment, or `failed(error)`; `discarded` once the user gives the
/// recording up. Observe them with ``stateUpdates()``:
///
/// ```swift
/// let session = PetRecordingSession(client: client, appointmentId: appointment.id, pet: pet, recordingFile: fileURL)
/// Task { for await state in await session.stateUpdates() { card.show(state) } }
/// switch await session.upload() {
/// case .completed(let visitId): print("visit", visitId)
/// case .conflict(let existing): askReplaceOrDiscard(existing)   // then replaceExisting() or discard()
/// default: break
/// }
/// ```
///
/// What the session handles:
/// - initiate (per pet, with `appointment_id`), the multipart upload from the file with progress and retries,
///   and `complete` (retried: it is idempotent);
/// - an expired upload form (detected before sending, or answered `Policy expired` by storage): it initiates
///   again, which returns the **same visit** with a fresh form;
/// - an upload that landed although its answer was lost: a retry refused by the write-once store, or a re-initiate
///   answering 409 with this session's own visit, both lead to `complete`;
/// - a 409 for another visit: state ``State/conflict(existingVisitId:)``. The local file is **kept** until a
///   `complete` succeeds, or the user chooses ``replaceExisting()`` (`replace_existing: true`) or ``discard()``.
///   Nothing is dropped silently; a failed upload keeps the file too, and ``upload()`` tries again.
public actor PetRecordingSession {
    /// Where a pet's recording is.
    public enum State: Sendable, Hashable {
        /// Waiting for ``PetRecordingSession/upload()`` (a recording file must be attached).
        case ready
        /// The file is being sent to storage.
        case uploading(UploadProgress)
        /// The file is in storage; the visit is being completed.
        case processing(visitId: String)
        /// The visit holds this recording and transcription is queued. Terminal.
        case completed(visitId: String)
        /// The pet already has a recording for this appointment (another visit). The local file is kept; call
        /// ``PetRecordingSession/replaceExisting()`` or ``PetRecordingSession/discard()``.
        case conflict(existingVisitId: String)
        /// The last attempt failed; the local file is kept and ``PetRecordingSession/upload()`` may be called again.
        case failed(HelpPetError)
        /// The user gave this recording up. Terminal.
        case discarded

        /// True for `completed` and `discarded`.
        public var isTerminal: Bool {
            switch self {
            case .completed, .discarded: return true
            default: return false
            }
        }
    }

    /// Upload progress of a session, for a progress bar.
    public struct UploadProgress: Sendable, Hashable {
        /// Bytes of the recording sent in the current attempt.
        public var bytesSent: Int64
        /// Size of the recording.
        public var totalBytes: Int64
        /// Recent throughput, once measurable.
        public var bytesPerSecond: Double?
        /// Attempt of the current storage upload (1 unless retried); 0 while the upload is being prepared
        /// (initiate).
        public var attempt: Int

        public init(bytesSent: Int64, totalBytes: Int64, bytesPerSecond: Double? = nil, attempt: Int = 1) {
            self.bytesSent = bytesSent
            self.totalBytes = totalBytes
            self.bytesPerSecond = bytesPerSecond
            self.attempt = attempt
        }

        /// 0…1.
        public var fractionCompleted: Double {
            totalBytes > 0 ? min(1, Double(bytesSent) / Double(totalBytes)) : 0
        }
    }

    /// What happens to the local recording file.
    public enum LocalFilePolicy: Sendable, Hashable {
        /// Never delete it (the file belongs to the caller; the CLI uses this).
        case keep
        /// Delete it once `complete` has succeeded, or when the user discards the recording (apps that record into
        /// their own temporary files).
        case deleteWhenDone
    }

    /// Settings of a session.
    public struct Options: Sendable {
        /// `content_type` sent on initiate; nil: from the file extension (default `audio/m4a`).
        public var contentType: String?
        /// `filename` sent on initiate; nil: `appointment_{id}_pet_{name}_{yyyyMMdd_HHmmss}.{ext}` (seed 002 style).
        public var filename: String?
        public var estimatedDurationSeconds: Double?
        /// Sent on complete.
        public var durationSeconds: Double?
        /// Sent on complete (device model, OS and app versions…), keys kept as given.
        public var deviceMetadata: [String: JSONValue]?
        public var localFilePolicy: LocalFilePolicy
        /// An upload form this close to its expiry is renewed before uploading, in seconds.
        public var expiryMargin: TimeInterval
        /// How often one ``PetRecordingSession/upload()`` may initiate again after an expired form.
        public var maxReinitiations: Int
        /// The clock (tests move it).
        public var now: @Sendable () -> Date

        public init(
            contentType: String? = nil, filename: String? = nil, estimatedDurationSeconds: Double? = nil,
            durationSeconds: Double? = nil, deviceMetadata: [String: JSONValue]? = nil,
            localFilePolicy: LocalFilePolicy = .keep, expiryMargin: TimeInterval = 120, maxReinitiations: Int = 3,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.contentType = contentType
            self.filename = filename
            self.estimatedDurationSeconds = estimatedDurationSeconds
            self.durationSeconds = durationSeconds
            self.deviceMetadata = deviceMetadata
            self.localFilePolicy = localFilePolicy
            self.expiryMargin = expiryMargin
            self.maxReinitiations = maxReinitiations
            self.now = now
        }
    }

    /// The appointment this recording belongs to.
    public nonisolated let appointmentId: String
    /// The one pet this recording belongs to.
    public nonisolated let petId: String
    /// The pet's name, for file names and display.
    public nonisolated let petName: String?

    /// The current state (also delivered by ``stateUpdates()``).
    public private(set) var state: State = .ready
    /// The local recording, kept until the visit is completed or the user discards it.
    public private(set) var recordingFile: URL?
    /// This pet's visit, once initiated.
    public private(set) var visitId: String?
    /// The visit as answered by `complete`.
    public private(set) var transcript: VisitTranscript?
    /// Initiate calls made by this session (more than one after an expired form or a retry).
    public private(set) var initiateCount = 0
    /// Storage upload attempts of the last ``upload()`` (more than one after retries).
    public private(set) var lastUploadAttempts = 0

    private let client: HelpPetClient
    private var options: Options
    private var ticket: AudioUploadResponse?
    private var ticketIssuedAt: Date?
    private var filename: String?
    private var running = false
    private var currentRun: Task<State, Never>?
    private var subscribers: [UUID: AsyncStream<State>.Continuation] = [:]
    private var speedWindow: [(time: Date, bytes: Int64)] = []
    private var lastEmitted: (time: Date, fraction: Double)?

    /// A session for `pet` of the appointment `appointmentId`.
    public init(
        client: HelpPetClient, appointmentId: String, pet: PetSummary, recordingFile: URL? = nil,
        options: Options = Options()
    ) {
        self.init(
            client: client, appointmentId: appointmentId, petId: pet.id, petName: pet.name, recordingFile: recordingFile,
            options: options)
    }

    /// A session for the pet `petId` of the appointment `appointmentId`.
    public init(
        client: HelpPetClient, appointmentId: String, petId: String, petName: String? = nil, recordingFile: URL? = nil,
        options: Options = Options()
    ) {
        self.client = client
        self.appointmentId = appointmentId
        self.petId = petId
        self.petName = petName
        self.recordingFile = recordingFile
        self.options = options
    }

    // MARK: Observing

    /// A stream of the session's states, starting with the current one. Each call returns a new stream (several
    /// observers may watch one session); it ends when the session reaches a terminal state or the observer stops.
    public func stateUpdates() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: .bufferingNewest(64))
        continuation.yield(state)
        if state.isTerminal {
            continuation.finish()
            return stream
        }
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    private func set(_ newState: State) {
        state = newState
        for continuation in subscribers.values {
            continuation.yield(newState)
            if newState.isTerminal { continuation.finish() }
        }
        if newState.isTerminal { subscribers.removeAll() }
    }

    // MARK: Preparing

    /// Attaches the recorded file (after the recorder stopped). Allowed while `ready` or `failed`; while a conflict
    /// is open the kept recording must first be replaced or discarded.
    public func attachRecording(_ fileURL: URL, durationSeconds: Double? = nil) throws(HelpPetError) {
        switch state {
        case .ready, .failed: break
        case .conflict: throw .invalid(detail: "Replace or discard the kept recording first")
        default: throw .invalid(detail: "The recording can no longer be changed")
        }
        recordingFile = fileURL
        if let durationSeconds { options.durationSeconds = durationSeconds }
    }

    /// Continues an upload initiated earlier (for example before the app was relaunched) with its saved form and
    /// the time it was received; an expired form is renewed automatically.
    public func resume(with ticket: AudioUploadResponse, issuedAt: Date) throws(HelpPetError) {
        switch state {
        case .ready, .failed: break
        default: throw .invalid(detail: "Only a ready or failed session can be resumed")
        }
        self.ticket = ticket
        self.ticketIssuedAt = issuedAt
        self.visitId = ticket.visitId
    }

    // MARK: Acting

    /// Uploads the recording and completes the visit; from `ready`, or from `failed` to try again. Returns the state
    /// reached (`completed`, `conflict` or `failed`). Calling it in another state changes nothing.
    @discardableResult
    public func upload() async -> State {
        switch state {
        case .ready, .failed: return await start(replace: false)
        default: return state
        }
    }

    /// After a conflict: replaces the pet's existing recording with this one (`replace_existing: true`; the server
    /// keeps the old recording in the visit's history), then uploads and completes.
    @discardableResult
    public func replaceExisting() async -> State {
        guard case .conflict = state else { return state }
        return await start(replace: true)
    }

    /// Gives this recording up (after a conflict or a failure, or before uploading). With
    /// ``LocalFilePolicy/deleteWhenDone`` the local file is deleted. Not possible once completed.
    @discardableResult
    public func discard() -> State {
        switch state {
        case .ready, .failed, .conflict:
            removeLocalFileIfOwned()
            recordingFile = nil
            ticket = nil
            set(.discarded)
        default:
            break
        }
        return state
    }

    /// Cancels a running upload; the session becomes `failed(.cancelled)` and keeps its file.
    public func cancel() {
        currentRun?.cancel()
    }

    private func start(replace: Bool) async -> State {
        guard !running else { return state }
        running = true
        let task = Task { await self.run(replace: replace) }
        currentRun = task
        // Cancelling the caller cancels the upload (the session then reads `failed(.cancelled)` and keeps its file).
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        currentRun = nil
        running = false
        return result
    }

    // MARK: The flow

    private func run(replace: Bool) async -> State {
        guard let file = recordingFile else {
            set(.failed(.invalid(detail: "No recording file attached")))
            return state
        }
        lastUploadAttempts = 0
        let size: Int64
        do {
            size = try HelpPetClient.recordingSize(file)
        } catch {
            set(.failed(error))
            return state
        }
        speedWindow = []
        lastEmitted = nil
        set(.uploading(UploadProgress(bytesSent: 0, totalBytes: size, attempt: 0)))
        do throws(HelpPetError) {
            if replace {
                ticket = nil
            }
            var replacePending = replace
            var reinitiations = 0
            var storageRefusal: HelpPetError?
            var landed = false
            while !landed {
                if ticket == nil || ticketIsExpiring() {
                    if ticket != nil {
                        reinitiations += 1
                        guard reinitiations <= options.maxReinitiations else { throw .uploadURLExpired }
                    }
                    guard try await initiate(file: file, replace: replacePending) else {
                        landed = true  // the server found this visit's upload already in storage
                        break
                    }
                    replacePending = false
                }
                guard let ticket else { throw .invalid(detail: "No upload form") }
                do {
                    try await uploadFile(file, ticket: ticket, size: size)
                    landed = true
                } catch .uploadURLExpired {
                    reinitiations += 1
                    guard reinitiations <= options.maxReinitiations else { throw .uploadURLExpired }
                    self.ticket = nil
                } catch let .storage(403, "AccessDenied", message) {
                    // The store is write-once: this usually means an earlier upload of this visit landed (its answer
                    // was lost, or the app stopped before `complete`). `complete` checks storage and decides.
                    storageRefusal = .storage(status: 403, code: "AccessDenied", message: message)
                    landed = true
                }
            }
            guard let visitId else { throw .invalid(detail: "No visit") }
            set(.processing(visitId: visitId))
            let completed: VisitTranscript
            do {
                completed = try await client.completeAudioUpload(
                    visitId: visitId,
                    AudioUploadCompleteRequest(
                        fileSizeBytes: Int(size), durationSeconds: options.durationSeconds,
                        deviceMetadata: options.deviceMetadata))
            } catch .conflict(let detail) {
                // Nothing in storage after all: report why the upload was refused.
                throw storageRefusal ?? .conflict(detail: detail)
            }
            transcript = completed
            ticket = nil
            removeLocalFileIfOwned()
            set(.completed(visitId: visitId))
        } catch {
            if case let .duplicateRecording(existing) = error {
                set(.conflict(existingVisitId: existing))
            } else {
                set(.failed(error))
            }
        }
        return state
    }

    /// Initiates (again). Returns false when the server answers 409 with this session's own visit: its object had
    /// landed, so the server completed it and only `complete` remains.
    private func initiate(file: URL, replace: Bool) async throws(HelpPetError) -> Bool {
        let contentType = options.contentType ?? AudioContentType.forFile(file) ?? "audio/m4a"
        let name = options.filename ?? filename ?? defaultFilename(contentType: contentType)
        filename = name
        let request = AudioUploadRequest(
            petId: petId, filename: name, contentType: contentType,
            estimatedDurationSeconds: options.estimatedDurationSeconds, appointmentId: appointmentId,
            replaceExisting: replace ? true : nil)
        initiateCount += 1
        do {
            let response = try await client.initiateAudioUpload(request)
            ticket = response
            ticketIssuedAt = options.now()
            visitId = response.visitId
            return true
        } catch let .duplicateRecording(existing) {
            if let visitId, existing.caseInsensitiveCompare(visitId) == .orderedSame { return false }
            throw .duplicateRecording(existingVisitId: existing)
        }
    }

    private func ticketIsExpiring() -> Bool {
        guard let ticket, let issuedAt = ticketIssuedAt else { return true }
        let lifetime = TimeInterval(ticket.expiresIn)
        let margin = min(options.expiryMargin, lifetime / 2)
        return options.now() >= issuedAt.addingTimeInterval(lifetime - margin)
    }

    private func uploadFile(_ file: URL, ticket: AudioUploadResponse, size: Int64) async throws(HelpPetError) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: TransferProgress.self, bufferingPolicy: .bufferingNewest(1))
        let consumer = Task {
            for await progress in stream { self.report(progress) }
        }
        do {
            try await client.uploadRecording(fileAt: file, using: ticket) { progress in
                continuation.yield(progress)
            }
        } catch {
            continuation.finish()
            await consumer.value
            throw error
        }
        continuation.finish()
        await consumer.value
    }

    private func report(_ progress: TransferProgress) {
        guard case .uploading = state else { return }
        lastUploadAttempts = max(lastUploadAttempts, progress.attempt)
        let now = Date()
        if let last = speedWindow.last, progress.bytesTransferred < last.bytes { speedWindow = [] }
        speedWindow.append((now, progress.bytesTransferred))
        // Keep the last 3 seconds, plus the newest older sample as the window's start.
        let cutoff = now.addingTimeInterval(-3)
        if let index = speedWindow.firstIndex(where: { $0.time >= cutoff }), index > 1 {
            speedWindow.removeFirst(index - 1)
        }
        var speed: Double?
        if let first = speedWindow.first, let last = speedWindow.last, last.time.timeIntervalSince(first.time) >= 0.2 {
            speed = Double(last.bytes - first.bytes) / last.time.timeIntervalSince(first.time)
        }
        let total = progress.totalBytes ?? 0
        let value = UploadProgress(
            bytesSent: progress.bytesTransferred, totalBytes: total, bytesPerSecond: speed, attempt: progress.attempt)
        // At most ~20 updates a second, plus every whole change of 0.5 % and the last byte.
        if let lastEmitted, value.bytesSent < total,
           now.timeIntervalSince(lastEmitted.time) < 0.05, value.fractionCompleted - lastEmitted.fraction < 0.005
        {
            return
        }
        lastEmitted = (now, value.fractionCompleted)
        set(.uploading(value))
    }

    private func defaultFilename(contentType: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd_HHmmss"
        let name = (petName ?? String(petId.prefix(8))).lowercased()
            .map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        return "appointment_\(appointmentId.prefix(8))_pet_\(name)_\(formatter.string(from: options.now())).\(AudioContentType.fileExtension(for: contentType))"
    }

    private func removeLocalFileIfOwned() {
        guard options.localFilePolicy == .deleteWhenDone, let file = recordingFile else { return }
        try? FileManager.default.removeItem(at: file)
    }
}
