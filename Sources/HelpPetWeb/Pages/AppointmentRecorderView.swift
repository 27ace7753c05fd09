import Foundation
import HelpPetAPI
import Plot
import WebConsole

/// One recorder per pet of the appointment. The server renders each pet's current state; `recorder.js` takes over
/// (record, pause, stop, level meter, upload with progress, the state following processing → transcribed, playback)
/// and `recorder-vault.js` keeps every recording in IndexedDB until `complete` succeeded.
struct AppointmentRecorderView {
    let context: ClinicContext
    let detail: ClinicAppointmentDetail
    /// The practice's vets, to name who confirmed the owner's agreement.
    let vets: [ScheduleVet]

    func render() -> Node<HTML.BodyContext> {
        let cancelled = detail.status == "cancelled"
        return .section(
            .class("card recorders"), .id("recorders"), .attr("aria-labelledby", "recorders-title"),
            .attr("data-appointment-id", detail.id.uuidString.lowercased()),
            .attr("data-appointment-title", detail.title),
            .attr("data-practice-zone", detail.practice.timezone.identifier),
            .attr("data-consent-required", detail.consentRequired ? "true" : "false"),
            .attr("data-consent-given", detail.consent == nil ? "false" : "true"),
            .attr("data-visit-link", context.url(.visit(.placeholder))),
            .h2(.id("recorders-title"), .text("Recordings")),
            .if(cancelled, .p(.class("muted"), .text("This appointment is cancelled: nothing can be recorded for it."))),
            .p(.class("muted recorder-support"), .attr("hidden", "hidden"),
               .text("This browser cannot record audio here (it needs MediaRecorder and microphone access).")),
            .unwrap(detail.consent) { consent in
                .p(.class("muted consent-note"), .safeText(consentNote(consent)))
            },
            .div(.class("recorder-grid"), .forEach(detail.pets) { pet in card(pet, disabled: cancelled) }),
            // One polite live region for the whole page: a screen reader hears "Recording Bella", "Bella's recording
            // was uploaded" once per change, not every progress percent the cards show.
            .p(.id("recorder-status"), .class("visually-hidden"), .attr("role", "status"), .attr("aria-live", "polite")),
            consentDialog()
        )
    }

    /// "The owner's agreement to recording was confirmed by Dr. Sarah Johnson on 25 Nov 2026, 09:14."
    private func consentNote(_ consent: ClinicRecordingConsent) -> String {
        var text = "The owner's agreement to recording was confirmed"
        if let by = consent.confirmedBy, let vet = vets.first(where: { $0.id.uuidString.lowercased() == by }) {
            text += " by \(vet.name)"
        }
        if let at = consent.confirmedAt, let date = ISO8601DateFormatter().date(from: at) {
            text += " on \(ConsoleDates(zone: detail.practice.timezone).dateTime(date))"
        }
        return text + "."
    }

    private func card(_ pet: ClinicAppointmentPet, disabled: Bool) -> Node<HTML.BodyContext> {
        let petID = pet.id.uuidString.lowercased()
        let visitID = pet.visitID?.uuidString.lowercased() ?? ""
        let headingID = "recorder-\(petID)"
        return .tag("article",
            .class("recorder"), .attr("data-pet-id", petID), .attr("data-pet-name", pet.name),
            .attr("data-visit-id", visitID), .attr("data-state", pet.recordingState),
            .attr("data-has-recording", pet.hasRecording ? "true" : "false"),
            .attr("aria-labelledby", headingID),
            .div(
                .class("row"),
                .h3(.id(headingID), .safeText(pet.name)),
                .span(.class("muted"), .safeText([pet.species, pet.breed ?? ""].filter { !$0.isEmpty }.joined(separator: ", "))),
                .div(.class("spacer")),
                .span(.class("badge \(Labels.recordingTone(pet.recordingState))"), .attr("data-role", "state"),
                      .safeText(Labels.recording(pet.recordingState)))
            ),
            // An unsent recording found in this browser (tab closed, crash, offline) is offered here.
            .div(.class("recorder-offer"), .attr("data-role", "offer"), .attr("hidden", "hidden"), .attr("role", "alert")),
            .div(
                .class("row recorder-controls"),
                .button(.class("primary"), .attr("data-action", "record"), .flag("disabled", disabled),
                        .safeText(pet.hasRecording ? "Record again" : "Record")),
                .button(.attr("data-action", "pause"), .attr("hidden", "hidden"), .text("Pause")),
                .button(.attr("data-action", "resume"), .attr("hidden", "hidden"), .text("Resume")),
                .button(.class("danger"), .attr("data-action", "stop"), .attr("hidden", "hidden"), .text("Stop")),
                .span(
                    .class("recorder-live"), .attr("data-role", "live"), .attr("hidden", "hidden"),
                    .span(.class("timer"), .attr("data-role", "timer"), .attr("role", "timer"),
                          .attr("aria-label", "Recording time of \(pet.name)"), .text("0:00")),
                    .tag("meter", .attr("data-role", "level"), .attr("min", "0"), .attr("max", "1"), .attr("value", "0"),
                         .attr("aria-label", "Input level for \(pet.name)")))
            ),
            .div(.class("progress"), .attr("data-role", "progress"), .attr("hidden", "hidden"),
                 .attr("role", "progressbar"), .attr("aria-label", "Upload of \(pet.name)'s recording"),
                 .attr("aria-valuemin", "0"), .attr("aria-valuemax", "100"), .attr("aria-valuenow", "0"),
                 .span()),
            .p(.class("muted recorder-message"), .attr("data-role", "message"), .attr("aria-live", "polite"),
               .unwrap(pet.transcriptionNote) { note in
                   .safeText(note == "no_speech" ? "No speech was found in the recording." : note)
               }),
            .tag("audio", .attr("data-role", "player"), .attr("controls", "controls"), .attr("preload", "none"),
                 .attr("hidden", "hidden"), .attr("aria-label", "Recording of \(pet.name)")),
            .p(.class("recorder-links"),
               .a(.attr("data-role", "visit-link"), .attr("href", pet.visitID.map { context.url(.visit(.value($0))) } ?? "#"),
                  pet.visitID == nil || pet.recordingState == "uploading" && !pet.hasRecording ? .attr("hidden", "hidden") : .empty,
                  .text("Open visit and transcript")),
               .if(pet.previousRecordings > 0, .span(.class("muted"), .safeText(
                   " · \(pet.previousRecordings) earlier recording\(pet.previousRecordings == 1 ? "" : "s") kept"))))
        )
    }

    /// Asked before the appointment's first recording: the owner's agreement, recorded by the server
    /// with who confirmed and when. Where the practice makes it optional, the vet may record without it.
    private func consentDialog() -> Node<HTML.BodyContext> {
        .tag("dialog",
            .id("consent-dialog"), .attr("aria-labelledby", "consent-title"),
            .tag("form", [
                .attr("method", "dialog"), .attr("class", "stack"),
                .h2(.id("consent-title"), .text("Recording consent")),
                .p(.safeText("Before the first recording of this appointment: did \(detail.ownerName) agree to the visit being recorded?")),
                .tag("label", .attr("class", "row"),
                     .void("input", .attr("type", "checkbox"), .attr("name", "owner_agreed"), .attr("id", "consent-agreed")),
                     .text("The owner agreed to being recorded")),
                .p(.class("muted"), .text(detail.consentRequired
                    ? "This practice records only with the owner's agreement."
                    : "Optional in this practice: you may record without confirming.")),
                .div(.class("row"),
                     .button(.attr("value", "confirm"), .class("primary"), .attr("data-role", "consent-confirm"),
                             .text("Confirm and record")),
                     .if(!detail.consentRequired,
                         .button(.attr("value", "skip"), .attr("data-role", "consent-skip"), .text("Record without confirming"))),
                     .button(.attr("value", "cancel"), .text("Cancel"))),
            ])
        )
    }
}
