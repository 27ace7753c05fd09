import ArgumentParser
import CLISupport
import Foundation
import HelpPetKit

/// Device information sent with `complete`.
let cliDeviceMetadata: [String: JSONValue] = [
    "app": "helppet-cli", "app_version": "1.0.0",
    "os": .string(ProcessInfo.processInfo.operatingSystemVersionString),
]

struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Upload the recording of ONE pet of an appointment (one pet = one recording = one visit).",
        discussion: """
            initiate → upload the file to storage (progress, retries) → complete. If the pet already has a recording
            in this appointment, nothing is uploaded, the file is left as it is, and the existing visit is shown;
            --replace replaces it (the old recording stays in the visit's history).
            """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "Appointment id.") var appointment: String
    @Option(name: .long, help: "Pet id (one pet of the appointment).") var pet: String
    @Argument(help: "Audio file (m4a, mp3, wav, aac, ogg, webm, flac).") var file: String
    @Option(name: .long, help: "Content type (default: from the file extension).") var contentType: String?
    @Option(name: .long, help: "File name stored with the recording (default: seed-style name).") var filename: String?
    @Option(name: .long, help: "Duration of the recording in seconds.") var duration: Double?
    @Flag(name: .long, help: "Replace the pet's existing recording for this appointment.") var replace = false

    func validate() throws {
        if let contentType, !AudioContentType.allowed.contains(contentType) {
            throw ValidationError("--content-type must be one of \(AudioContentType.allowed.joined(separator: ", "))")
        }
    }

    func run() async throws {
        let fileURL = try existingFile(file)
        let client = global.makeClient()
        let appointment = try await client.appointment(id: self.appointment)
        guard let petSummary = appointment.pet(withId: pet) else {
            throw HelpPetError.petNotInAppointment(
                detail: "Pet \(pet) is not associated with appointment \(appointment.id) (its pets: "
                    + appointment.pets.map { "\($0.name) \($0.id)" }.joined(separator: ", ") + ")")
        }
        let session = PetRecordingSession(
            client: client, appointmentId: appointment.id, pet: petSummary, recordingFile: fileURL,
            options: .init(
                contentType: contentType, filename: filename, durationSeconds: duration,
                deviceMetadata: cliDeviceMetadata, localFilePolicy: .keep))
        let result = try await upload(session, label: petSummary.name, replace: replace)
        if global.json { return try global.printJSON(result) }
        Terminal.out(
            "Recorded \(petSummary.name): visit \(result.uuid) (\(result.state.rawValue)), "
                + "\(result.fileSizeBytes.map { Format.bytes(Int64($0)) } ?? "?") stored.")
    }
}

/// Runs one session with a progress view; returns the completed visit or throws (conflict: exit 1 with guidance).
func upload(_ session: PetRecordingSession, label: String, replace: Bool) async throws -> VisitTranscript {
    let view = UploadProgressView(label: label)
    await view.follow(session)
    var state = await session.upload()
    if case .conflict = state, replace {
        state = await session.replaceExisting()
    }
    await view.finish()
    switch state {
    case .completed:
        guard let transcript = await session.transcript else { throw CLIFailure("\(label): no visit returned") }
        return transcript
    case let .conflict(existing):
        throw CLIFailure(
            "\(label) already has a recording in this appointment: visit \(existing). Nothing was uploaded and "
                + "the local file is untouched. Play it with `helppet play \(existing)`, or re-run with --replace "
                + "to replace it (the old recording stays in the visit's history).")
    case let .failed(error):
        throw error
    default:
        throw CLIFailure("\(label): unexpected state \(state)")
    }
}

func existingFile(_ path: String) throws -> URL {
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
        throw CLIFailure("\(path): no such file")
    }
    return url
}

struct RecordAllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record-all",
        abstract: "Upload one recording per pet of an appointment (each pet gets its own visit).",
        discussion: """
            Files are matched to pets with --map PET=FILE (PET is a pet id or name), and the remaining files to the
            remaining pets in the appointment's order. On a terminal you are asked to confirm (or to pick files when
            the counts differ); --yes skips the confirmation.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "Appointment id.") var appointment: String
    @Argument(help: "Audio files, one per pet in the appointment's order.") var files: [String] = []
    @Option(name: .customLong("map"), help: ArgumentHelp("PET=FILE (pet id or name); repeatable.", valueName: "pet=file"))
    var mappings: [String] = []
    @Flag(name: .long, help: "Replace existing recordings of these pets.") var replace = false
    @Flag(name: [.short, .long], help: "Do not ask for confirmation.") var yes = false

    func validate() throws {
        if files.isEmpty && mappings.isEmpty { throw ValidationError("Give one FILE per pet, or --map pet=file") }
        for mapping in mappings where !mapping.contains("=") {
            throw ValidationError("--map expects PET=FILE, got '\(mapping)'")
        }
    }

    func run() async throws {
        let client = global.makeClient()
        let appointment = try await client.appointment(id: self.appointment)
        let plan = try await assign(appointment)
        if plan.isEmpty { throw ValidationError("No pet has a file to upload") }
        if !global.json {
            var table = Table("PET", "NAME", "FILE")
            for (pet, file) in plan { table.add(pet.id, pet.name, file.path) }
            Terminal.note("Appointment \(appointment.id): \(appointment.title)\n" + table.render())
        }
        if Terminal.stdinIsTTY && !yes && !global.json {
            guard let answer = Terminal.prompt("Upload \(plan.count) recording\(plan.count == 1 ? "" : "s")? [Y/n] "),
                  answer.isEmpty || answer.lowercased().hasPrefix("y")
            else { throw CLIFailure("Cancelled; nothing was uploaded.") }
        }

        let recorder = AppointmentRecorder(
            client: client, appointment: appointment,
            options: .init(deviceMetadata: cliDeviceMetadata, localFilePolicy: .keep))
        var results: [PetResult] = []
        for (pet, file) in plan {
            let session = try recorder.session(forPet: pet.id)
            try await session.attachRecording(file)
            do {
                let visit = try await upload(session, label: pet.name, replace: replace)
                results.append(PetResult(pet: pet, file: file.path, status: "completed", visitId: visit.uuid))
            } catch {
                let state = await session.state
                var result = PetResult(pet: pet, file: file.path, status: "failed", error: describe(error))
                if case let .conflict(existing) = state {
                    result.status = "conflict"
                    result.existingVisitId = existing
                }
                results.append(result)
                if !global.json { Terminal.error(describe(error)) }
            }
        }
        if global.json {
            try global.printJSON(results)
        } else {
            var table = Table("PET", "NAME", "RESULT", "VISIT")
            for result in results {
                table.add(result.petId, result.petName, result.status, result.visitId ?? result.existingVisitId ?? "-")
            }
            Terminal.out(table.render())
        }
        if results.contains(where: { $0.status != "completed" }) { throw ExitCode(1) }
    }

    private func describe(_ error: any Error) -> String {
        if let error = error as? HelpPetError { return CLIMessages.describe(error) }
        if let error = error as? CLIFailure { return error.message }
        return String(describing: error)
    }

    /// Pet → file, in the appointment's order.
    private func assign(_ appointment: Appointment) async throws -> [(PetSummary, URL)] {
        var assigned: [String: URL] = [:]
        for mapping in mappings {
            let parts = mapping.split(separator: "=", maxSplits: 1).map(String.init)
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            let matches = appointment.pets.filter {
                $0.id.caseInsensitiveCompare(key) == .orderedSame || $0.name.caseInsensitiveCompare(key) == .orderedSame
            }
            guard matches.count == 1, let pet = matches.first else {
                throw ValidationError(
                    "--map \(mapping): '\(key)' is \(matches.isEmpty ? "not a pet" : "ambiguous") in this appointment "
                        + "(pets: \(appointment.pets.map(\.name).joined(separator: ", ")))")
            }
            guard assigned[pet.id] == nil else { throw ValidationError("--map: \(pet.name) is mapped twice") }
            assigned[pet.id] = try existingFile(parts.count > 1 ? parts[1] : "")
        }
        let remaining = appointment.pets.filter { assigned[$0.id] == nil }
        let positional = try files.map(existingFile)
        if positional.count == remaining.count {
            for (pet, file) in zip(remaining, positional) { assigned[pet.id] = file }
        } else if Terminal.stdinIsTTY && !global.json {
            var queue = positional
            for pet in remaining {
                let suggestion = queue.first?.path
                let answer = Terminal.prompt(
                    "File for \(pet.name) (\(pet.species))\(suggestion.map { " [\($0)]" } ?? "") (\"-\" to skip): ")
                    ?? ""
                if answer == "-" { continue }
                if answer.isEmpty, let next = queue.first {
                    assigned[pet.id] = next
                    queue.removeFirst()
                } else if !answer.isEmpty {
                    assigned[pet.id] = try existingFile(answer)
                }
            }
        } else if !positional.isEmpty || remaining.count < appointment.pets.count {
            if positional.isEmpty {
                // Only --map given: upload those pets, leave the others.
            } else {
                throw ValidationError(
                    "\(positional.count) file\(positional.count == 1 ? "" : "s") for \(remaining.count) pet"
                        + "\(remaining.count == 1 ? "" : "s") (\(remaining.map(\.name).joined(separator: ", "))): "
                        + "give one file per pet in this order, or use --map pet=file")
            }
        }
        return appointment.pets.compactMap { pet in assigned[pet.id].map { (pet, $0) } }
    }

    struct PetResult: Encodable {
        var petId: String
        var petName: String
        var file: String
        var status: String
        var visitId: String?
        var existingVisitId: String?
        var error: String?

        init(pet: PetSummary, file: String, status: String, visitId: String? = nil, error: String? = nil) {
            petId = pet.id
            petName = pet.name
            self.file = file
            self.status = status
            self.visitId = visitId
            self.error = error
        }

        enum CodingKeys: String, CodingKey {
            case file, status, error
            case petId = "pet_id"
            case petName = "pet_name"
            case visitId = "visit_id"
            case existingVisitId = "existing_visit_id"
        }
    }
}

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Play a visit's recording (or print its 15-minute playback URL).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Visit id.") var visit: String
    @Option(name: .long, help: "Player command (default on a terminal: mpv, ffplay or vlc if installed).") var player: String?

    func run() async throws {
        let playback = try await global.makeClient().audioPlaybackURL(visitId: visit)
        if global.json { return try global.printJSON(playback) }
        let command = player ?? (Terminal.stdoutIsTTY ? Self.findPlayer() : nil)
        guard let command else {
            Terminal.out(playback.presignedUrl)
            Terminal.note("\(playback.filename): URL valid for \(playback.expiresIn / 60) minutes.")
            return
        }
        Terminal.note("Playing \(playback.filename) with \(command)…")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = command.split(separator: " ").map(String.init)
        if arguments.first == "ffplay" { arguments += ["-nodisp", "-autoexit", "-loglevel", "error"] }
        process.arguments = arguments + [playback.presignedUrl]
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw CLIFailure("\(command) exited with status \(process.terminationStatus)") }
    }

    static func findPlayer() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for candidate in ["mpv", "ffplay", "vlc", "afplay"] {
            for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(candidate)") {
                return candidate
            }
        }
        return nil
    }
}

struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download", abstract: "Download a visit's recording to a file.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Visit id.") var visit: String
    @Option(name: [.short, .long], help: "Output file (default: the recording's file name, never overwritten).") var output: String?

    func run() async throws {
        let client = global.makeClient()
        let playback = try await client.audioPlaybackURL(visitId: visit)
        let destination: URL
        if let output {
            destination = URL(fileURLWithPath: output)
        } else {
            let name = URL(fileURLWithPath: playback.filename).lastPathComponent
            destination = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: destination.path) {
                throw CLIFailure("\(destination.path) exists; choose another name with -o FILE")
            }
        }
        try await client.downloadRecording(from: playback, to: destination)
        let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.int64Value ?? 0
        if global.json {
            return try global.printJSON(DownloadOutput(visitId: playback.visitId, file: destination.path, bytes: size))
        }
        Terminal.out("Saved \(Format.bytes(size)) to \(destination.path)")
    }

    struct DownloadOutput: Encodable {
        let visitId: String
        let file: String
        let bytes: Int64

        enum CodingKeys: String, CodingKey {
            case file, bytes
            case visitId = "visit_id"
        }
    }
}

struct WaitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait", abstract: "Wait until a visit is transcribed (processed or failed) and print the transcript.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Visit id.") var visit: String
    @Option(name: .long, help: "Give up after this many seconds (exit 1).") var timeout: Double = 300
    @Option(name: .long, help: "Seconds between polls.") var interval: Double = 2

    func validate() throws {
        guard timeout >= 0 else { throw ValidationError("--timeout must be at least 0") }
        guard interval > 0 else { throw ValidationError("--interval must be greater than 0") }
    }

    func run() async throws {
        let client = global.makeClient()
        let start = Date()
        var announced = false
        while true {
            let transcript = try await client.visitTranscript(id: visit)
            switch transcript.state {
            case .processed:
                if global.json { return try global.printJSON(transcript) }
                Terminal.out(transcript.fullText)
                if let summary = transcript.summary, !summary.isEmpty { Terminal.out("\nSummary: \(summary)") }
                return
            case .failed:
                if global.json { try global.printJSON(transcript) }
                let reason = transcript.metadata["transcription_error"]?.stringValue ?? "no reason given"
                throw CLIFailure("Transcription of visit \(transcript.uuid) failed: \(reason)")
            case .new, .processing:
                let elapsed = Date().timeIntervalSince(start)
                if elapsed >= timeout {
                    if global.json { try global.printJSON(transcript) }
                    var message = "Timed out after \(Int(timeout.rounded())) s: visit \(transcript.uuid) is still "
                        + "\(transcript.state.rawValue)"
                    if transcript.state == .new {
                        message += " (its recording has not been uploaded and completed yet)."
                    } else if let engine = await transcriptionStatus(client), engine != "ok" {
                        message += "; the server reports transcription: \(engine), so no transcript will appear "
                            + "until a transcription engine is available."
                    } else {
                        message += "; try again later with a longer --timeout."
                    }
                    throw CLIFailure(message)
                }
                if !announced && !global.json {
                    Terminal.note("Waiting for visit \(transcript.uuid) (\(transcript.state.rawValue)), up to \(Int(timeout)) s…")
                    announced = true
                }
                let pause = min(interval, max(0.05, timeout - elapsed))
                try await Task.sleep(nanoseconds: UInt64(pause * 1_000_000_000))
            }
        }
    }

    /// `checks.transcription` of `/health/ready` (`ok`, `unavailable`, `off`), if the server says.
    private func transcriptionStatus(_ client: HelpPetClient) async -> String? {
        let request = Request<JSONValue>(path: "/health/ready", requiresAuthentication: false, isRetryable: false)
        if let body = try? await client.send(request) { return body["checks"]?["transcription"]?.stringValue }
        return nil
    }
}
