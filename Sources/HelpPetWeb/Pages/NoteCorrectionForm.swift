import Foundation
import HelpPetAPI
import Plot
import WebConsole

/// "Correct the note": every section, vital, medication and the follow-up of a drafted note as form fields, sent to
/// `PUT /api/v1/visit-transcripts/{id}/note` (visit.js shapes the fields into its JSON). A medication whose drug is
/// cleared is removed; the empty row at the end adds one. The API keeps each correction in the note's history.
struct NoteCorrectionForm {
    let note: StoredClinicalNote
    let visitID: String
    let then: String

    static let vitals: [(key: String, label: String, units: [String])] = [
        ("temperature", "Temperature", ["°F", "°C"]), ("weight", "Weight", ["kg", "lb"]),
        ("heart_rate", "Heart rate", ["bpm"]), ("respiratory_rate", "Respiratory rate", ["breaths/min"]),
    ]
    static let units = ["mg", "mg/kg", "mcg", "ml", "g", "units", "tablet", "capsule", "drop"]
    static let routes = ["oral", "subcutaneous", "intramuscular", "intravenous", "topical", "otic", "ophthalmic"]
    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    func render() -> Node<HTML.BodyContext> {
        .tag("details", .class("correct-note"),
            .tag("summary", .text("Correct the note")),
            .tag("form", [
                .attr("data-api", "PUT /api/v1/visit-transcripts/\(visitID)/note"), .attr("data-shape", "clinical-note"),
                .attr("data-then", then), .attr("class", "stack api-form"), .attr("novalidate", "novalidate"),
                .attr("id", "note-correction"),
                ConsoleForms.formError(),
                .p(.class("muted"), .text("Change what the recording got wrong. Each change is kept in the note's history.")),
            ] + sections() + [vitalsFieldset(), medicationsFieldset(), followUpFieldset(),
                .button(.type(.submit), .class("primary"), .text("Save corrections"))]))
    }

    private func sections() -> [Node<HTML.BodyContext>] {
        (note.sections ?? []).map { section in
            ConsoleForms.textArea(
                section.title, name: "note-section-\(section.key)",
                value: section.sentences.map(\.text).joined(separator: " "), rows: 3,
                extra: [.attr("data-section-key", section.key)])
        }
    }

    private func vitalsFieldset() -> Node<HTML.BodyContext> {
        .tag("fieldset", 
            .tag("legend", .text("Vitals")),
            .forEach(Self.vitals) { vital in
                let measurement = measurement(vital.key)
                return .div(
                    .class("row note-vital"), .attr("data-vital", vital.key),
                    ConsoleForms.field(
                        vital.label, name: "note-vital-\(vital.key)",
                        value: measurement.map { StoredClinicalNote.format($0.value) } ?? "", type: "number",
                        hint: "Leave empty if it was not measured.",
                        extra: [.attr("data-part", "value"), .attr("step", "any"), .attr("min", "0")]),
                    ConsoleForms.select(
                        "\(vital.label) unit", name: "note-vital-\(vital.key)-unit",
                        options: vital.units.map { ($0, $0) }, selected: measurement?.unit,
                        extra: [.attr("data-part", "unit")]))
            })
    }

    private func measurement(_ key: String) -> StoredClinicalNote.Measurement? {
        switch key {
        case "temperature": note.vitals?.temperature
        case "weight": note.vitals?.weight
        case "heart_rate": note.vitals?.heartRate
        default: note.vitals?.respiratoryRate
        }
    }

    private func medicationsFieldset() -> Node<HTML.BodyContext> {
        let drafted = note.medications ?? []
        return .tag("fieldset", 
            .tag("legend", .text("Medications")),
            .p(.class("muted"), .text("Clear a drug's name to remove it; fill in the last row to add one.")),
            .forEach(Array(drafted.enumerated()) + [(drafted.count, nil)]) { index, medication in
                medicationRow(index, medication)
            })
    }

    private func medicationRow(_ index: Int, _ med: StoredClinicalNote.Medication?) -> Node<HTML.BodyContext> {
        let number = index + 1
        let prefix = "note-med-\(index)"
        func text(_ label: String, _ part: String, _ value: String?, type: String = "text") -> Node<HTML.BodyContext> {
            ConsoleForms.field(
                "\(label) (\(med == nil ? "new medication" : "medication \(number)"))", name: "\(prefix)-\(part)",
                value: value ?? "", type: type,
                extra: [.attr("data-part", part)] + (type == "number" ? [.attr("step", "any"), .attr("min", "0")] : []))
        }
        func choice(_ label: String, _ part: String, _ options: [String], _ selected: String?) -> Node<HTML.BodyContext> {
            ConsoleForms.select(
                "\(label) (\(med == nil ? "new medication" : "medication \(number)"))", name: "\(prefix)-\(part)",
                options: [("", "—")] + options.map { ($0, $0) }, selected: selected ?? "",
                extra: [.attr("data-part", part)])
        }
        return .div(
            .class("note-medication"), .attr("data-medication", String(index)),
            text("Drug", "name", med?.name),
            text("Brand", "brand", med?.brand),
            text("Dose", "dose", med?.dose.map(StoredClinicalNote.format), type: "number"),
            text("Dose up to", "dose_max", med?.doseMax.map(StoredClinicalNote.format), type: "number"),
            choice("Unit", "unit", Self.units, med?.unit),
            choice("Route", "route", Self.routes, med?.route),
            text("How often", "frequency", med?.frequency),
            text("How long", "duration", med?.duration))
    }

    private func followUpFieldset() -> Node<HTML.BodyContext> {
        let followUp = note.followUp
        return .tag("fieldset", 
            .tag("legend", .text("Follow-up")),
            .div(.attr("data-follow-up", "true"),
                 .p(.class("muted"), .text("Leave the days, weekday and date empty for no follow-up.")),
                 ConsoleForms.field(
                     "Come back in (days)", name: "note-follow-up-days",
                     value: followUp?.intervalDays.map(String.init) ?? "", type: "number",
                     extra: [.attr("data-part", "interval_days"), .attr("min", "1"), .attr("max", "730")]),
                 ConsoleForms.select(
                     "Or on the next", name: "note-follow-up-weekday",
                     options: [("", "—")] + Self.weekdays.map { ($0, $0.prefix(1).uppercased() + $0.dropFirst()) },
                     selected: followUp?.weekday ?? "", extra: [.attr("data-part", "weekday")]),
                 ConsoleForms.field(
                     "Or on the date", name: "note-follow-up-date", value: followUp?.date ?? "", type: "date",
                     extra: [.attr("data-part", "date")]),
                 ConsoleForms.field(
                     "For", name: "note-follow-up-reason", value: followUp?.reason ?? "",
                     hint: "For example: recheck, suture removal, dental.", extra: [.attr("data-part", "reason")]),
                 ConsoleForms.textArea(
                     "Wording", name: "note-follow-up-text", value: followUp?.text ?? "", rows: 2,
                     extra: [.attr("data-part", "text")])))
    }
}
