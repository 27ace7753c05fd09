import Foundation

/// The recordings of one appointment: one ``PetRecordingSession`` per pet, in the appointment's order, each with
/// its own file, its own upload and its own visit (seeds 000/001). A screen shows one card per session.
///
/// ```swift
/// let recorder = try await AppointmentRecorder.load(client: client, appointmentId: id)
/// try await recorder.attachRecording(bellaFile, forPet: bella.id)
/// try await recorder.attachRecording(maxFile, forPet: max.id)
/// let states = await recorder.uploadAll()      // [petId: state]; pets without a file are left alone
/// ```
public actor AppointmentRecorder {
    /// The appointment as loaded.
    public nonisolated let appointment: Appointment
    /// One session per pet, in the appointment's order.
    public nonisolated let sessions: [PetRecordingSession]

    /// Creates one session per pet of `appointment`.
    public init(client: HelpPetClient, appointment: Appointment, options: PetRecordingSession.Options = .init()) {
        self.appointment = appointment
        self.sessions = appointment.pets.map {
            PetRecordingSession(client: client, appointmentId: appointment.id, pet: $0, options: options)
        }
    }

    /// Loads the appointment, then creates its sessions.
    public static func load(
        client: HelpPetClient, appointmentId: String, options: PetRecordingSession.Options = .init()
    ) async throws(HelpPetError) -> AppointmentRecorder {
        AppointmentRecorder(client: client, appointment: try await client.appointment(id: appointmentId), options: options)
    }

    /// The session of the pet `petId` (compared case-insensitively).
    /// - Throws: ``HelpPetError/petNotInAppointment(detail:)`` when the pet is not part of the appointment
    ///   (seed 001's client-side check; the server checks again).
    public nonisolated func session(forPet petId: String) throws(HelpPetError) -> PetRecordingSession {
        guard let session = sessions.first(where: { $0.petId.caseInsensitiveCompare(petId) == .orderedSame }) else {
            throw .petNotInAppointment(detail: "Pet \(petId) is not associated with appointment \(appointment.id)")
        }
        return session
    }

    /// Attaches the recording of the pet `petId`.
    public func attachRecording(_ fileURL: URL, forPet petId: String, durationSeconds: Double? = nil) async throws(HelpPetError) {
        try await session(forPet: petId).attachRecording(fileURL, durationSeconds: durationSeconds)
    }

    /// Uploads every pet's attached recording (sessions that are `ready` or `failed` and have a file), at most
    /// `maxConcurrentUploads` at a time, and returns each pet's resulting state by pet id. A conflict or failure of
    /// one pet never affects another.
    public func uploadAll(maxConcurrentUploads: Int = 2) async -> [String: PetRecordingSession.State] {
        var pending: [PetRecordingSession] = []
        for session in sessions where await session.recordingFile != nil {
            switch await session.state {
            case .ready, .failed: pending.append(session)
            default: break
            }
        }
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for session in pending {
                if running >= max(1, maxConcurrentUploads) {
                    await group.next()
                    running -= 1
                }
                group.addTask { _ = await session.upload() }
                running += 1
            }
        }
        return await states()
    }

    /// Every pet's current state, by pet id.
    public func states() async -> [String: PetRecordingSession.State] {
        var result: [String: PetRecordingSession.State] = [:]
        for session in sessions { result[session.petId] = await session.state }
        return result
    }
}
