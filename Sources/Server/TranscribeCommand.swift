import AppCore
import HelpPetAPI
import Foundation
import ServerAssembly
import Transcription
import Vapor

/// `server transcribe FILE [--content-type audio/m4a] [--pet-name Bella]`: one recording through exactly the worker's
/// pipeline (ffmpeg, the configured engine, the clinic vocabulary, the draft summary and note), without a database or a
/// visit; prints one JSON object. For `bench/transcription.sh` and for checking an engine by hand.
struct TranscribeCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "file", help: "an audio file") var file: String
        @Option(name: "content-type", help: "its content type (default audio/wav)") var contentType: String?
        @Option(name: "pet-name", help: "the pet's name, for the decoder's prompt") var petName: String?
        @Option(name: "template", help: "the note template: soap (default), dental, surgery, recheck") var template: String?
        @Option(name: "pet-weight-kg", help: "the pet's weight, to check doses in the note") var petWeightKg: Double?
    }

    var help: String { "Transcribes one audio file with the configured engine and prints the result as JSON." }

    struct Output: Encodable {
        var text: String
        /// The engine's text before the clinic-vocabulary corrector.
        var heardText: String
        var segments: [TranscriptSegment]
        var corrections: [[String: String]]
        var engine: String
        var model: String
        var durationSeconds: Double
        var realTimeFactor: Double
        /// The API's draft `summary`, written from the note as the worker's result is.
        var draftSummary: String?
        var clinicalNote: ClinicalNote?
    }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        let settings = app.core.config.transcription
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: signature.file, isDirectory: &isFolder), !isFolder.boolValue else {
            throw ConfigurationError("\(signature.file): no such file")
        }
        let templateKey = signature.template ?? "soap"
        guard let template = NoteTemplates.builtIn[templateKey] else {
            throw ConfigurationError("--template must be one of \(NoteTemplates.keys.joined(separator: ", "))")
        }
        guard let recognizer = TranscriptionAssembly.makeRecognizer(settings) else {
            throw ConfigurationError("TRANSCRIPTION_ENGINE is off")
        }
        guard await recognizer.isAvailable() else { throw ConfigurationError("the \(recognizer.name) engine is not installed") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("transcribe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        // The pipeline removes its input once converted: give it a copy.
        let source = folder.appendingPathComponent("input")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: signature.file), to: source)
        let transcriber = RecordingTranscriber(
            recognizer: recognizer, preparation: AudioPreparation(maxSeconds: settings.maxAudioSeconds),
            clock: app.core.clock)
        let outcome = try await transcriber.transcribe(
            source, contentType: signature.contentType ?? "audio/wav", petName: signature.petName, workDirectory: folder,
            chunkSeconds: Double(settings.chunkSeconds), noteTemplate: NoteTemplate(template),
            petWeightKg: signature.petWeightKg)
        let t = outcome.transcript
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = try encoder.encode(Output(
            text: t.text, heardText: outcome.heardText, segments: t.segments,
            corrections: outcome.corrections.map { ["heard": $0.heard, "written": $0.written] },
            engine: t.engine, model: t.model, durationSeconds: t.durationSeconds,
            realTimeFactor: outcome.realTimeFactor,
            draftSummary: try outcome.clinicalNote.map { try JSONEncoder().encode($0) }.flatMap(NoteSummaryText.render),
            clinicalNote: outcome.clinicalNote))
        print(String(decoding: data, as: UTF8.self))
    }
}
