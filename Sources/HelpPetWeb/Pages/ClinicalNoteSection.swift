import Foundation
import HelpPetAPI
import Plot

/// The visit page's clinical note: the template's sections, every sentence a button that plays the
/// stretch of the recording it was written from, then the vitals, medications and follow-up read alongside, and
/// the flags a person should look at before approving.
struct ClinicalNoteSection {
    let note: StoredClinicalNote
    let hasAudio: Bool
    let approved: Bool

    func render() -> Node<HTML.BodyContext> {
        .section(
            .class("card clinical-note"), .id("clinical-note"), .attr("aria-labelledby", "note-title"),
            .div(.class("row"),
                 .h2(.id("note-title"), .text("Clinical note")),
                 .span(.class("badge \(approved ? "ok" : "warn")"), .attr("data-role", "summary-status"),
                       .text(approved ? "Approved" : "Draft")),
                 .unwrap(note.template) { template in
                     .span(.class("muted"), .safeText("Template \(template)"
                         + (note.templateVersion.map { " v\($0)" } ?? "")))
                 }),
            flags(),
            .forEach(note.sections ?? []) { section in
                .div(.class("note-section"), .attr("data-section", section.key),
                     .h3(.safeText(section.title)),
                     section.sentences.isEmpty
                        ? .p(.class("muted"), .text("Nothing said for this section."))
                        : .ul(.class("note-sentences"), .forEach(section.sentences) { sentence($0) }))
            },
            findings()
        )
    }

    private func sentence(_ sentence: StoredClinicalNote.Sentence) -> Node<HTML.ListContext> {
        guard hasAudio, let first = sentence.sources?.first else { return .li(.safeText(sentence.text)) }
        return .li(.button(
            .class("note-source"), .attr("data-start", String(format: "%.2f", first.start)),
            .attr("title", "Play from \(VisitView.timestamp(first.start))"),
            .span(.class("stamp"), .safeText(VisitView.timestamp(first.start))),
            .span(.safeText(sentence.text))))
    }

    private func flags() -> Node<HTML.BodyContext> {
        let flags = note.flags ?? []
        guard !flags.isEmpty else { return .empty }
        return .div(.class("note-flags"), .attr("role", "note"),
            .h3("Check before approving"),
            .ul(.forEach(flags) { flag in
                .li(.attr("data-flag", flag.kind), .span(.class("badge warn"), .safeText(Self.flagLabel(flag.kind))),
                    .text(" "), .safeText(flag.message))
            }))
    }

    private func findings() -> Node<HTML.BodyContext> {
        let vitals = vitalsList()
        let medications = note.medications ?? []
        return .div(
            .class("note-findings stack"),
            .if(!vitals.isEmpty, .group(.h3("Vitals"), .tag("dl", [.attr("class", "facts")] + vitals))),
            .if(!medications.isEmpty, .group(
                .h3("Medications"),
                // Scrolls sideways inside its own box on a phone, so a drug name is never split mid-word.
                .div(.class("table-wrap"), .table(.class("medications"),
                    .thead(.tr(.th("Drug"), .th("Dose"), .th("Route"), .th("How often"), .th("How long"))),
                    .tbody(.forEach(medications) { med in
                        .tr(.attr("data-drug", med.name),
                            .td(.safeText(med.displayName)),
                            .td(.safeText(StoredClinicalNote.amount(med.dose, med.doseMax, med.unit) ?? "—")),
                            .td(.safeText(med.route ?? "—")), .td(.safeText(med.frequency ?? "—")),
                            .td(.safeText(med.duration ?? "—")))
                    }))))),
            .unwrap(note.followUp) { followUp in
                .group(.h3("Follow-up"), .p(.class("follow-up"), .safeText(Self.followUpText(followUp))))
            }
        )
    }

    private func vitalsList() -> [Node<HTML.BodyContext>] {
        let vitals = note.vitals
        let rows: [(String, StoredClinicalNote.Measurement?)] = [
            ("Temperature", vitals?.temperature), ("Weight", vitals?.weight),
            ("Heart rate", vitals?.heartRate), ("Respiratory rate", vitals?.respiratoryRate),
        ]
        return rows.flatMap { label, measurement -> [Node<HTML.BodyContext>] in
            guard let measurement,
                let amount = StoredClinicalNote.amount(measurement.value, measurement.valueMax, measurement.unit)
            else { return [] }
            return [.tag("dt", .safeText(label)), .tag("dd", .safeText(amount))]
        }
    }

    static func followUpText(_ followUp: StoredClinicalNote.FollowUp) -> String {
        var parts: [String] = []
        if let days = followUp.intervalDays { parts.append("in \(days) day\(days == 1 ? "" : "s")") }
        if let date = followUp.date { parts.append("on \(date)") }
        if let reason = followUp.reason { parts.append("for \(reason)") }
        if parts.isEmpty, let text = followUp.text { return text }
        return "Come back " + parts.joined(separator: " ")
    }

    static func flagLabel(_ kind: String) -> String {
        switch kind {
        case "dose_without_unit": "No unit"
        case "dose_out_of_range": "Unusual dose"
        case "uncertain_number": "Unsure number"
        case "frequency_not_heard": "No frequency"
        case "weight_unclear": "Unsure weight"
        case "temperature_unclear": "Unsure temperature"
        case "sentence_disagrees": "Note disagrees"
        default: kind.replacingOccurrences(of: "_", with: " ")
        }
    }
}
