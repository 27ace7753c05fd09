import Foundation
import Testing

@testable import HelpPetKit

/// The real `server` binary driven only through HelpPetKit, as the iPhone app would.
@Suite("End to end: HelpPetKit against the server binary", .timeLimit(.minutes(20)))
struct EndToEndTests {
    private func multiPetAppointment(_ client: HelpPetClient) async throws -> Appointment {
        try #require(try await client.today().appointmentsToday.first { $0.pets.count == 3 })
    }

    @Test("login → today → start → one session per pet uploads its own file → 3 visits → playback bytes → complete")
    func threePetAppointment() async throws {
        try await withServer { server in
            let client = try await server.loggedInClient()
            #expect(try await client.me().username == "vet1")
            let appointment = try await multiPetAppointment(client)
            let started = try await client.startAppointment(id: appointment.id)
            #expect(started.status == .inProgress)

            let recorder = AppointmentRecorder(
                client: client, appointment: started,
                options: .init(deviceMetadata: ["device_model": "Linux test"], localFilePolicy: .keep))
            #expect(recorder.sessions.count == 3)
            var files: [String: URL] = [:]
            for (index, pet) in started.pets.enumerated() {
                let file = try Recordings.make(bytes: 300_000 + index * 250_000, name: "\(pet.name).m4a")
                files[pet.id] = file
                try await recorder.attachRecording(file, forPet: pet.id)
            }
            defer { files.values.forEach(Recordings.remove) }

            let bella = try recorder.session(forPet: Demo.bella)
            // Subscribed before the uploads start, so the stream's first element is the state before them.
            let bellaUpdates = await bella.stateUpdates()
            let observed = Task { () -> [PetRecordingSession.State] in
                var states: [PetRecordingSession.State] = []
                for await state in bellaUpdates { states.append(state) }
                return states
            }
            let states = await recorder.uploadAll()
            var visitIds: [String: String] = [:]
            for pet in started.pets {
                guard case let .completed(visitId) = states[pet.id] else {
                    Issue.record("\(pet.name): \(String(describing: states[pet.id]))")
                    continue
                }
                visitIds[pet.id] = visitId
            }
            #expect(Set(visitIds.values).count == 3, "one visit per pet")

            // Bella's card went ready → uploading (with progress) → processing → completed.
            let bellaStates = await observed.value
            #expect(bellaStates.first == .ready)
            #expect(bellaStates.last == .completed(visitId: visitIds[Demo.bella] ?? ""))
            #expect(bellaStates.contains { if case .processing = $0 { return true } else { return false } })
            let uploaded = bellaStates.compactMap { state -> PetRecordingSession.UploadProgress? in
                if case let .uploading(progress) = state { return progress } else { return nil }
            }
            #expect(uploaded.contains { $0.bytesSent == 300_000 && $0.totalBytes == 300_000 })
            #expect(zip(uploaded, uploaded.dropFirst()).allSatisfy { $0.bytesSent <= $1.bytesSent })

            let visits = try await client.visitTranscripts(appointmentId: started.id)
            #expect(visits.count == 3)
            for pet in started.pets {
                let visit = try #require(visits.first { $0.petId == pet.id }, "visit of \(pet.name)")
                #expect(visit.uuid == visitIds[pet.id])
                #expect(visit.appointmentId == started.id)
                #expect(visit.state == .processing)
                #expect(visit.metadata["appointment_id"]?.stringValue == started.id)
                #expect(visit.metadata["device_metadata"]?["device_model"] == "Linux test")
                let size = try FileManager.default.attributesOfItem(atPath: files[pet.id]!.path)[.size] as? NSNumber
                #expect(visit.fileSizeBytes == size?.intValue)
                #expect(try await client.visitTranscripts(appointmentId: started.id, petId: pet.id).map(\.uuid) == [visit.uuid])

                let download = server.dataDirectory.appendingPathComponent("download-\(pet.name).m4a")
                let playback = try await client.downloadRecording(visitId: visit.uuid, to: download)
                #expect(playback.visitId == visit.uuid)
                #expect(try Recordings.sameContents(download, files[pet.id]!), "playback bytes of \(pet.name)")
            }

            let after = try await client.appointment(id: started.id)
            for pet in after.pets { #expect(pet.recording?.visitId == visitIds[pet.id]) }
            let completed = try await client.completeAppointment(id: started.id)
            #expect(completed.status == .completed)
            // Recording never changed the appointment, and completing it never touched the visits.
            #expect(try await client.visitTranscripts(appointmentId: started.id).count == 3)
            await expectHelpPetError({ try await client.startAppointment(id: started.id) }) {
                $0 == .conflict(detail: "Cannot change appointment status from completed to in_progress")
            }
        }
    }

    @Test("duplicate → duplicateRecording with the existing id; the local file is kept until replace or discard")
    func duplicateRecording() async throws {
        try await withServer { server in
            let client = try await server.loggedInClient()
            let appointment = try await multiPetAppointment(client)
            let owned = PetRecordingSession.Options(localFilePolicy: .deleteWhenDone)

            let first = try Recordings.make(bytes: 100_000)
            let firstSession = PetRecordingSession(
                client: client, appointmentId: appointment.id, pet: appointment.pets[0], recordingFile: first, options: owned)
            guard case let .completed(existing) = await firstSession.upload() else {
                Issue.record("first upload: \(await firstSession.state)")
                return
            }
            #expect(!FileManager.default.fileExists(atPath: first.path), "deleted once complete succeeded")

            await expectHelpPetError({
                try await client.initiateAudioUpload(
                    AudioUploadRequest(petId: Demo.bella, filename: "again.m4a", appointmentId: appointment.id))
            }) { $0 == .duplicateRecording(existingVisitId: existing) }

            // A second recording of Bella: conflict, file kept, nothing else happens until the user chooses.
            let second = try Recordings.make(bytes: 150_000)
            let secondCopy = server.dataDirectory.appendingPathComponent("second-copy.m4a")
            try FileManager.default.copyItem(at: second, to: secondCopy)
            let secondSession = PetRecordingSession(
                client: client, appointmentId: appointment.id, pet: appointment.pets[0], recordingFile: second, options: owned)
            #expect(await secondSession.upload() == .conflict(existingVisitId: existing))
            #expect(FileManager.default.fileExists(atPath: second.path))
            #expect(await secondSession.upload() == .conflict(existingVisitId: existing), "upload() leaves a conflict alone")
            await #expect(throws: HelpPetError.self) { try await secondSession.attachRecording(first) }
            #expect(await secondSession.recordingFile == second)

            // Replace: same visit, new recording, old one kept in the visit's history.
            #expect(await secondSession.replaceExisting() == .completed(visitId: existing))
            #expect(!FileManager.default.fileExists(atPath: second.path))
            let replaced = try await client.visitTranscript(id: existing)
            #expect(replaced.fileSizeBytes == 150_000)
            #expect(replaced.metadata["previous_recordings"]?.arrayValue?.count == 1)
            #expect(replaced.storageKey?.hasSuffix("-2.m4a") == true)
            let download = server.dataDirectory.appendingPathComponent("replaced.m4a")
            try await client.downloadRecording(visitId: existing, to: download)
            #expect(try Recordings.sameContents(download, secondCopy))

            // Discard: the owned file is deleted; a caller's file (policy .keep) is left alone.
            let third = try Recordings.make(bytes: 10_000)
            let thirdSession = PetRecordingSession(
                client: client, appointmentId: appointment.id, pet: appointment.pets[0], recordingFile: third, options: owned)
            #expect(await thirdSession.upload() == .conflict(existingVisitId: existing))
            #expect(await thirdSession.discard() == .discarded)
            #expect(!FileManager.default.fileExists(atPath: third.path))
            let fourth = try Recordings.make(bytes: 10_000)
            defer { Recordings.remove(fourth) }
            let fourthSession = PetRecordingSession(
                client: client, appointmentId: appointment.id, petId: Demo.bella, recordingFile: fourth)
            #expect(await fourthSession.upload() == .conflict(existingVisitId: existing))
            #expect(await fourthSession.discard() == .discarded)
            #expect(FileManager.default.fileExists(atPath: fourth.path))
            #expect(try await client.visitTranscript(id: existing).fileSizeBytes == 150_000, "the recording is unchanged")
            [first, second, third].forEach(Recordings.remove)
        }
    }

    @Test("a pet that is not in the appointment → petNotInAppointment, nothing created, file kept")
    func petNotInAppointment() async throws {
        try await withServer { server in
            let client = try await server.loggedInClient()
            let appointment = try await multiPetAppointment(client)
            await expectHelpPetError({
                try await client.initiateAudioUpload(
                    AudioUploadRequest(petId: Demo.rocky, filename: "rocky.m4a", appointmentId: appointment.id))
            }) { $0 == .petNotInAppointment(detail: "Pet \(Demo.rocky) is not associated with appointment \(appointment.id)") }

            let file = try Recordings.make(bytes: 20_000)
            defer { Recordings.remove(file) }
            let session = PetRecordingSession(
                client: client, appointmentId: appointment.id, petId: Demo.rocky, recordingFile: file,
                options: .init(localFilePolicy: .deleteWhenDone))
            guard case .failed(.petNotInAppointment) = await session.upload() else {
                Issue.record("session: \(await session.state)")
                return
            }
            #expect(FileManager.default.fileExists(atPath: file.path))

            let recorder = AppointmentRecorder(client: client, appointment: appointment)
            #expect(throws: HelpPetError.self) { try recorder.session(forPet: Demo.rocky) }
            await expectHelpPetError({
                try await client.legacyUploadAudio(fileAt: file, appointmentId: appointment.id, petId: Demo.rocky)
            }) { if case .petNotInAppointment = $0 { return true } else { return false } }
            #expect(try await client.visitTranscripts(appointmentId: appointment.id, includePending: true).isEmpty)
        }
    }

    @Test("an expired token → unauthorized (and the delegate hears about it)")
    func expiredToken() async throws {
        try await withServer { server in
            let delegate = RecordingDelegate()
            let client = server.client(delegate: delegate)
            await expectHelpPetError({ try await client.today() }) { $0 == .unauthorized(detail: "Not logged in") }

            // A token made with the server's secret works while valid…
            let valid = Forgery.token(subject: Demo.vet1, issuedAt: Date().addingTimeInterval(-60), expires: Date().addingTimeInterval(3600))
            try await client.setToken(StoredToken(accessToken: valid))
            #expect(try await client.me().id == Demo.vet1)

            // …and the same token, expired, is refused.
            let expired = Forgery.token(
                subject: Demo.vet1, issuedAt: Date().addingTimeInterval(-9 * 3600), expires: Date().addingTimeInterval(-3600))
            try await client.setToken(StoredToken(accessToken: expired))
            await expectHelpPetError({ try await client.today(vetId: Demo.vet1) }) {
                $0 == .unauthorized(detail: "Could not validate credentials")
            }
            await expectHelpPetError({ try await client.me() }) { if case .unauthorized = $0 { return true } else { return false } }
            #expect(delegate.unauthorized.count == 2)
            #expect(delegate.retries.isEmpty, "a 401 is never retried")

            let file = try Recordings.make(bytes: 1_000)
            defer { Recordings.remove(file) }
            let session = PetRecordingSession(
                client: client, appointmentId: UUID().uuidString.lowercased(), petId: Demo.bella, recordingFile: file)
            guard case .failed(.unauthorized) = await session.upload() else {
                Issue.record("session: \(await session.state)")
                return
            }
            #expect(FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test("server stopped mid-upload → the upload is retried and completed after the restart")
    func serverStoppedMidUpload() async throws {
        try await withServer { server in
            let frozen = AsyncStream.makeStream(of: Void.self)
            let once = Once()
            let delegate = RecordingDelegate { _, kind, attempt in
                // Freeze the server just before the first storage attempt: the connection is accepted by the kernel
                // and the body starts flowing into the socket, but nothing answers.
                if kind == .storageUpload, attempt == 1, once.first() {
                    server.freeze()
                    frozen.continuation.yield()
                }
            }
            let client = try await server.loggedInClient(
                retryPolicy: RetryPolicy(maxAttempts: 40, baseDelay: 0.2, maxDelay: 1), delegate: delegate)
            let appointment = try await multiPetAppointment(client)
            let file = try Recordings.make(bytes: 24 << 20)
            defer { Recordings.remove(file) }
            let session = PetRecordingSession(
                client: client, appointmentId: appointment.id, pet: appointment.pets[1], recordingFile: file)
            let updates = await session.stateUpdates()
            let progress = Task { () -> Int64 in
                var firstAttemptBytes: Int64 = 0
                for await state in updates {
                    if case let .uploading(p) = state, p.attempt == 1 { firstAttemptBytes = max(firstAttemptBytes, p.bytesSent) }
                }
                return firstAttemptBytes
            }
            async let outcome = session.upload()

            for await _ in frozen.stream { break }
            try await Task.sleep(nanoseconds: 700_000_000)
            await server.kill()
            try await Task.sleep(nanoseconds: 300_000_000)
            try await server.restart()

            guard case let .completed(visitId) = await outcome else {
                Issue.record("after restart: \(await session.state)")
                progress.cancel()
                return
            }
            let firstAttemptBytes = await progress.value
            #expect(firstAttemptBytes > 0, "the first attempt was cut off mid-body")
            #expect(firstAttemptBytes < 24 << 20)
            #expect(await session.lastUploadAttempts >= 2)
            #expect(delegate.retries.contains { $0.0 == .storageUpload })
            let visit = try await client.visitTranscript(id: visitId)
            #expect(visit.state == .processing)
            #expect(visit.fileSizeBytes == 24 << 20)
            let download = server.dataDirectory.appendingPathComponent("after-restart.m4a")
            try await client.downloadRecording(visitId: visitId, to: download)
            #expect(try Recordings.sameContents(download, file))
        }
    }

    @Test("a cancelled upload keeps its file and can be started again")
    func cancelledUpload() async throws {
        try await withServer { server in
            let frozen = AsyncStream.makeStream(of: Void.self)
            let once = Once()
            let delegate = RecordingDelegate { _, kind, _ in
                if kind == .storageUpload, once.first() {
                    server.freeze()
                    frozen.continuation.yield()
                }
            }
            let client = try await server.loggedInClient(delegate: delegate)
            let appointment = try await multiPetAppointment(client)
            let file = try Recordings.make(bytes: 16 << 20)
            defer { Recordings.remove(file) }
            let session = PetRecordingSession(
                client: client, appointmentId: appointment.id, pet: appointment.pets[2], recordingFile: file,
                options: .init(localFilePolicy: .deleteWhenDone))
            async let outcome = session.upload()
            for await _ in frozen.stream { break }
            try await Task.sleep(nanoseconds: 300_000_000)
            await session.cancel()
            #expect(await outcome == .failed(.cancelled))
            #expect(FileManager.default.fileExists(atPath: file.path))
            server.thaw()
            guard case let .completed(visitId) = await session.upload() else {
                Issue.record("retry after cancel: \(await session.state)")
                return
            }
            #expect(try await client.visitTranscript(id: visitId).fileSizeBytes == 16 << 20)
            #expect(!FileManager.default.fileExists(atPath: file.path), "deleted once complete succeeded")
        }
    }

    @Test("an expired upload form is replaced by initiating again (same visit); a landed upload is completed")
    func expiredUploadURL() async throws {
        try await withServer { server in
            let client = try await server.loggedInClient()
            let appointment = try await multiPetAppointment(client)
            let files = try (0..<3).map { try Recordings.make(bytes: 50_000 + $0) }
            defer { files.forEach(Recordings.remove) }

            // 1. Storage refuses the form (`Policy expired`): the session initiates again and gets the same visit.
            let ticket = try await client.initiateAudioUpload(
                AudioUploadRequest(petId: Demo.bella, filename: "bella.m4a", appointmentId: appointment.id))
            let expired = try Forgery.expired(ticket)
            await expectHelpPetError({ try await client.uploadRecording(fileAt: files[0], using: expired) }) {
                $0 == .uploadURLExpired
            }
            let bella = PetRecordingSession(client: client, appointmentId: appointment.id, petId: Demo.bella, recordingFile: files[0])
            try await bella.resume(with: expired, issuedAt: Date())
            #expect(await bella.upload() == .completed(visitId: ticket.visitId))
            #expect(await bella.initiateCount == 1)
            #expect(await bella.transcript?.storageKey == ticket.s3Key)

            // 2. A form past its lifetime by the session's clock is renewed before anything is sent.
            let clock = TestClock()
            let maxTicket = try await client.initiateAudioUpload(
                AudioUploadRequest(petId: Demo.max, filename: "max.m4a", appointmentId: appointment.id))
            let max = PetRecordingSession(
                client: client, appointmentId: appointment.id, petId: Demo.max, recordingFile: files[1],
                options: .init(now: { clock.now() }))
            try await max.resume(with: maxTicket, issuedAt: clock.now())
            clock.advance(3_590)
            #expect(await max.upload() == .completed(visitId: maxTicket.visitId))
            #expect(await max.initiateCount == 1)

            // 3. The upload landed but `complete` never came (app stopped): resuming finds the object and completes.
            let mittensTicket = try await client.initiateAudioUpload(
                AudioUploadRequest(petId: Demo.mittens, filename: "mittens.m4a", appointmentId: appointment.id))
            #expect(try await client.uploadRecording(fileAt: files[2], using: mittensTicket) == .uploaded)
            let mittens = PetRecordingSession(
                client: client, appointmentId: appointment.id, petId: Demo.mittens, recordingFile: files[2])
            try await mittens.resume(with: mittensTicket, issuedAt: Date())
            #expect(await mittens.upload() == .completed(visitId: mittensTicket.visitId))
            #expect(try await client.visitTranscript(id: mittensTicket.visitId).fileSizeBytes == 50_002)
            #expect(try await client.visitTranscripts(appointmentId: appointment.id).count == 3)
        }
    }

    @Test("legacy multipart upload streams from the file; a second one is a duplicateRecording")
    func legacyUpload() async throws {
        try await withServer { server in
            let client = try await server.loggedInClient()
            let appointment = try #require(try await client.today().appointmentsToday.first { $0.pets.count == 1 })
            let pet = appointment.pets[0]
            let file = try Recordings.make(bytes: 2 << 20, name: "fluffy.mp3")
            defer { Recordings.remove(file) }
            let response = try await client.legacyUploadAudio(fileAt: file, appointmentId: appointment.id, petId: pet.id)
            #expect(response.petId == pet.id)
            #expect(response.fileKey.hasSuffix(".mp3"))
            let visitId = try #require(response.visitId)
            await expectHelpPetError({
                try await client.legacyUploadAudio(fileAt: file, appointmentId: appointment.id, petId: pet.id)
            }) { $0 == .duplicateRecording(existingVisitId: visitId) }
            let download = server.dataDirectory.appendingPathComponent("legacy.mp3")
            try await client.downloadRecording(visitId: visitId, to: download)
            #expect(try Recordings.sameContents(download, file))
        }
    }
}

/// True exactly once.
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    func first() -> Bool {
        lock.withLock {
            defer { done = true }
            return !done
        }
    }
}
