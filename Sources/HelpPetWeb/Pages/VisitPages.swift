import AppCore
import Foundation
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// The visit page (`{mount}/visits/{id}`): audio player (a playback URL asked from the API by `visit.js`), the
/// transcript with its timed segments (a click seeks the player), the draft summary and its status, re-transcribe,
/// and the visit's metadata. Staff of the visit's practice and ADMIN; everyone else gets the API's 404.
struct VisitPages: Sendable {
    let context: ClinicContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.visit(.key), use: page)
    }

    @Sendable func page(request: Request) async throws -> Response {
        let id = try PageParts.uuidParameter(request, ClinicPage.Key.visit, notFound: "Visit not found")
        let detail = try await ClinicVisit.detail(request: request, id: id)
        let title = "Visit of \(detail.petName)"
        return context.render(title, request, scripts: ["visit.js"], VisitView(context: context, detail: detail).render())
    }
}

struct VisitView {
    let context: ClinicContext
    let detail: ClinicVisitDetail

    private var clock: ConsoleDates { ConsoleDates(zone: detail.practice.timezone) }
    private var id: String { detail.id.uuidString.lowercased() }

    func render() -> Node<HTML.BodyContext> {
        .div(
            .class("stack visit-page"), .id("visit"), .attr("data-visit-id", id), .attr("data-state", detail.state),
            .attr("data-has-audio", detail.hasAudio ? "true" : "false"),
            .tag("link", .attr("rel", "stylesheet"), .attr("href", context.chrome.assets.url("recorder.css"))),
            .unwrap(detail.appointmentID) { appointment in
                .p(.a(.attr("href", context.url(.appointment(.value(appointment)))),
                      .safeText("← \(detail.appointmentTitle ?? "Appointment")")))
            },
            .div(
                .class("row"),
                .h1(.safeText("Visit of \(detail.petName)")),
                .span(.class("badge \(tone)"), .attr("data-role", "visit-state"), .safeText(stateLabel(detail.state)))
            ),
            .tag("dl", [.attr("class", "facts")] + facts([
                ("Pet", "\(detail.petName) (\(detail.petSpecies))"),
                ("Owner", detail.ownerName),
                ("Date", clock.dateTime(detail.visitDate)),
                ("Practice", detail.practice.name),
                ("Recorded by", detail.createdByName),
                ("Source", detail.source == "manual" ? "Written notes" : "Recording"),
            ])),
            audioSection(),
            .unwrap(detail.note, { note in
                .group(
                    ClinicalNoteSection(note: note, hasAudio: detail.hasAudio, approved: isApproved).render(),
                    noteActions(note))
            }, else: .empty),
            transcriptSection(),
            // A visit without a drafted note (written notes, or a recording from before notes) is approved as text.
            .if(detail.note == nil, summarySection()),
            metadataSection()
        )
    }

    private var isApproved: Bool { detail.summaryStatus == "approved" }

    /// Under the drafted note: its correction history, then either "Correct the note" and "Approve this note", or,
    /// once approved, the approval and its addenda. What is approved is the note as shown, nothing else.
    private func noteActions(_ note: StoredClinicalNote) -> Node<HTML.BodyContext> {
        .section(
            .class("card"), .attr("aria-labelledby", "note-review-title"),
            .h2(.id("note-review-title"), .text(isApproved ? "Approved note" : "Review and approve")),
            correctionHistory(),
            isApproved ? approvedNote() : .if(detail.state == "processed", .group(
                NoteCorrectionForm(note: note, visitID: id, then: context.url(.visit(.value(detail.id)))).render(),
                PageParts.apiForm("PUT", "/api/v1/visit-transcripts/\(id)", then: context.url(.visit(.value(detail.id))), id: "approve-note", [
                    .input(.type(.hidden), .name("summary"), .value(detail.summary ?? "")),
                    .p(.class("muted"), .text(
                        "Approving sends this note, as shown above, to the owner's pages and discharge instructions. "
                            + "Once approved it cannot change; corrections become addenda.")),
                ], submit: "Approve this note")))
        )
    }

    /// Who corrected what in the drafted note (`metadata.note_corrections`), oldest first.
    private func correctionHistory() -> Node<HTML.BodyContext> {
        guard case .array(let entries)? = detail.metadata["note_corrections"], !entries.isEmpty else { return .empty }
        return .tag("details", .class("note-history"),
            .tag("summary", .safeText("Corrected \(entries.count) time\(entries.count == 1 ? "" : "s")")),
            .ol(.forEach(entries) { entry in
                let object = entry.objectValue ?? [:]
                let at = object["corrected_at"]?.stringValue.flatMap { try? WireTime.parseInputDateTime($0, field: "at") }
                let fields = (object["changes"]?.arrayValue ?? []).compactMap { $0.objectValue?["field"]?.stringValue }
                return .li(.safeText((at.map { clock.dateTime($0) + ": " } ?? "") + fields.joined(separator: ", ")))
            }))
    }

    private var tone: String {
        switch detail.state {
        case "processed": "ok"
        case "processing", "new": "info"
        case "failed": "bad"
        default: ""
        }
    }

    private func stateLabel(_ state: String) -> String {
        switch state {
        case "new": "Waiting for upload"
        case "processing": "Transcribing"
        case "processed": "Transcribed"
        case "failed": "Failed"
        default: state
        }
    }

    private func facts(_ pairs: [(String, String?)]) -> [Node<HTML.BodyContext>] {
        pairs.flatMap { label, value -> [Node<HTML.BodyContext>] in
            guard let value, !value.isEmpty else { return [] }
            return [.tag("dt", .safeText(label)), .tag("dd", .safeText(value))]
        }
    }

    private func audioSection() -> Node<HTML.BodyContext> {
        .section(
            .class("card"), .attr("aria-labelledby", "audio-title"),
            .h2(.id("audio-title"), .text("Recording")),
            detail.hasAudio
                ? .tag("audio", .id("visit-player"), .attr("controls", "controls"), .attr("preload", "metadata"),
                       .attr("aria-label", "Recording of \(detail.petName)"))
                : .p(.class("muted"), .text(detail.source == "manual"
                    ? "Written notes: there is no audio." : "No recording has been completed yet.")),
            .p(.class("muted"), .id("audio-message"), .attr("aria-live", "polite")),
            .if(detail.source == "recording", .div(
                .class("row"),
                .button(.id("retranscribe"), .attr("data-path", "/api/v1/visit-transcripts/\(id)/transcribe"),
                        .flag("disabled", !detail.hasAudio), .text("Transcribe again"))
            ))
        )
    }

    private func transcriptSection() -> Node<HTML.BodyContext> {
        .section(
            .class("card"), .attr("aria-labelledby", "transcript-title"),
            .h2(.id("transcript-title"), .text("Transcript")),
            .div(
                .id("transcript"),
                detail.segments.isEmpty
                    ? (detail.fullText.isEmpty
                        ? .p(.class("muted"), .text(emptyTranscript))
                        : .p(.class("transcript-text"), .safeText(detail.fullText)))
                    : .ol(.class("segments"), .forEach(detail.segments) { segment in
                        .li(.button(
                            .class("segment"), .attr("data-start", String(format: "%.2f", segment.start)),
                            .attr("aria-label", "Play from \(Self.timestamp(segment.start))"),
                            .span(.class("stamp"), .safeText(Self.timestamp(segment.start))),
                            .span(.class("segment-text"), .safeText(segment.text.trimmingCharacters(in: .whitespaces)))
                        ))
                    })
            )
        )
    }

    private var emptyTranscript: String {
        if detail.metadata["transcription_note"] == .string("no_speech") { return "No speech was found in the recording." }
        switch detail.state {
        case "processed": return "The transcript is empty."
        case "failed": return "Transcription failed. Try “Transcribe again”."
        default: return "Not transcribed yet. This page updates itself when the transcript arrives."
        }
    }

    private func summarySection() -> Node<HTML.BodyContext> {
        let status = detail.summaryStatus
        return .section(
            .class("card"), .attr("aria-labelledby", "summary-title"),
            .div(.class("row"),
                 .h2(.id("summary-title"), .text("Summary")),
                 .unwrap(status) { status in
                     .span(.class("badge \(status == "approved" ? "ok" : "warn")"), .attr("data-role", "summary-status"),
                           .safeText(status == "draft" ? "Draft (not approved)" : status.capitalized))
                 }),
            .unwrap(detail.summary, { .p(.class("summary-text"), .safeText($0)) },
                    else: .p(.class("muted"), .text("No summary yet."))),
            status == "approved" ? approvedNote() : approvalForm()
        )
    }

    /// Approving is the API's `PUT` with `summary`: the vet may edit the draft first. It locks the note.
    private func approvalForm() -> Node<HTML.BodyContext> {
        guard detail.state == "processed" || detail.source == "manual" else { return .empty }
        return .tag("details", .class("approve"),
            .tag("summary", .text("Review and approve the note")),
            PageParts.apiForm("PUT", "/api/v1/visit-transcripts/\(id)", then: context.url(.visit(.value(detail.id))), [
                ConsoleForms.textArea("Note", name: "summary", value: detail.summary ?? "", rows: 6),
                .p(.class("muted"), .text("Once approved the note cannot change; corrections become addenda.")),
            ], submit: "Approve note"))
    }

    /// The approved note's approval time, its addenda (oldest first) and the form to append one.
    private func approvedNote() -> Node<HTML.BodyContext> {
        .div(
            .class("stack"),
            .unwrap(detail.approvedAt.flatMap { try? WireTime.parseInputDateTime($0, field: "approved") }) { at in
                .p(.class("muted"), .safeText("Approved \(clock.dateTime(at))."))
            },
            .p(.a(.class("button"), .attr("href", context.url(.discharge(visit: .value(detail.id)))),
                  .text("Discharge instructions (printable)"))),
            .h3("Addenda"),
            .if(detail.addenda.isEmpty, .p(.class("muted"), .text("None."))),
            .ol(.class("addenda"), .forEach(detail.addenda) { addendum in
                .li(.p(.safeText(addendum.text)),
                    .p(.class("muted"), .safeText("\(addendum.authorName), \(clock.dateTime(addendum.createdAt))")))
            }),
            PageParts.apiForm("POST", "/api/v1/visit-transcripts/\(id)/addenda", then: context.url(.visit(.value(detail.id))), [
                ConsoleForms.textArea("New addendum", name: "text", rows: 3),
            ], submit: "Add addendum")
        )
    }

    private func metadataSection() -> Node<HTML.BodyContext> {
        .section(
            .class("card"), .attr("aria-labelledby", "metadata-title"),
            .tag("details",
                 .tag("summary", .h2(.id("metadata-title"), .class("inline-heading"), .text("Metadata"))),
                 .tag("pre", .class("metadata"), .safeText(Self.pretty(detail.metadata))))
        )
    }

    static func timestamp(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        return String(format: "%d:%02d", whole / 60, whole % 60)
    }

    static func pretty(_ metadata: [String: JSONValue]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(metadata) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
