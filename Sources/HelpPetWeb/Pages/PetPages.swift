import AppCore
import Foundation
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// A pet: details, owner, weight chart, medical record history with versions, past visits; the forms to create and
/// edit a pet and to write or amend a record (sent to the API, whose messages appear next to the fields).
struct PetPages: Sendable {
    let context: ClinicContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.newPet, use: newPet)
        routes.get(ClinicPage.pet(.key), use: show)
        routes.get(ClinicPage.editPet(.key), use: edit)
        routes.get(ClinicPage.newRecord(pet: .key), use: newRecord)
        routes.get(ClinicPage.compareRecords(pet: .key), use: compare)
        routes.get(ClinicPage.amendRecord(.key), use: amend)
    }

    @Sendable func show(request: Request) async throws -> Response {
        let user = try request.clinicUser
        let id = try PageParts.uuidParameter(request, ClinicPage.Key.pet, notFound: "Pet not found")
        let pet = try await ClinicPets.pet(request: request, id: id)
        let records = try await ClinicPets.recordHistory(request: request, petID: id)
        let visits = try await ClinicPets.visits(request: request, petID: id)
        let clock = ConsoleDates(zone: try await ClinicPets.practiceZone(request: request))
        return context.render(pet.name, request, .div(
            .class("stack"),
            .div(.class("row"),
                 .h1(.safeText(pet.name)),
                 .span(.class("muted"), .safeText([pet.species, pet.breed].compactMap { $0 }.joined(separator: " · "))),
                 .if(!pet.isActive, .span(.class("badge bad"), .text("Inactive"))),
                 .div(.class("spacer")),
                 .if(user.isStaff, .a(.class("button"), .attr("href", context.url(.editPet(.value(pet.id)))), .text("Edit pet"))),
                 .if(user.isStaff, .a(.class("button primary"), .attr("href", context.url(.newRecord(pet: .value(pet.id)))),
                                      .text("New medical record")))),
            .div(
                .class("grid"),
                .section(.class("card stack"), .h2("Details"), PageParts.facts([
                    ("Owner", pet.ownerName), ("Owner email", pet.ownerEmail), ("Owner phone", pet.ownerPhone),
                    ("Born", pet.dateOfBirth), ("Gender", pet.gender), ("Colour", pet.color),
                    ("Weight", pet.weight.map { String(format: "%.1f kg", $0) }), ("Microchip", pet.microchipNumber),
                    ("Allergies", pet.allergies), ("Registered", pet.registrationDate),
                ]), .if(user.isStaff, .a(.attr("href", context.url(.owner(.value(pet.ownerID)))),
                                         .text("Owner's page")))),
                .section(.class("card stack"), .h2("Weight over time"),
                         WeightChart(records: records, profile: pet.weight.map { ($0, pet.updatedAt) }, clock: clock).render())
            ),
            .h2("Medical records"),
            RecordHistoryView(context: context, petID: id, records: records, clock: clock, canEdit: user.isStaff).render(),
            .h2(user.isOwner ? "Visit notes" : "Visits"),
            user.isOwner ? try await approvedNotes(visits, clock: clock, request: request)
                : visitList(visits, clock: clock)
        ))
    }

    /// What a pet owner reads of the visits: approved notes with their addenda, never a draft.
    private func approvedNotes(
        _ visits: [ConsoleVisitSummary], clock: ConsoleDates, request: Request
    ) async throws -> Node<HTML.BodyContext> {
        let approved = visits.filter { $0.summaryStatus == "approved" && $0.summary != nil }
        if approved.isEmpty { return .p(.class("muted"), .text("Visit notes appear here once your vet has approved them.")) }
        var cards: [Node<HTML.BodyContext>] = []
        for visit in approved {
            let addenda = try await ClinicVisit.addenda(request: request, visitID: visit.id)
            cards.append(.tag("article", .class("card stack approved-note"),
                .h3(.safeText(clock.dateTime(visit.visitDate))),
                .p(.safeText(visit.summary ?? "")),
                .forEach(addenda) { addendum in
                    .p(.class("addendum"), .strong("Addendum: "), .safeText(addendum.text),
                       .span(.class("muted"), .safeText(" (\(addendum.authorName), \(clock.dateTime(addendum.createdAt)))")))
                },
                .p(.a(.attr("href", context.url(.discharge(visit: .value(visit.id)))),
                      .text("Discharge instructions")))))
        }
        return .div(.class("stack"), .group(cards))
    }

    private func visitList(_ visits: [ConsoleVisitSummary], clock: ConsoleDates) -> Node<HTML.BodyContext> {
        if visits.isEmpty { return .p(.class("muted"), .text("No visits yet.")) }
        return .div(.class("table-wrap"), .table(
            .thead(.tr(.th("Date"), .th("Source"), .th("State"), .th("Transcript"))),
            .tbody(.forEach(visits) { visit in
                .tr(
                    .td(.a(.attr("href", context.url(.visit(.value(visit.id)))),
                           .safeText(clock.dateTime(visit.visitDate)))),
                    .td(.safeText(visit.source == "recording" ? (visit.hasAudio ? "Recording" : "Recording (no audio)") : "Manual")),
                    .td(.span(.class("badge"), .safeText(visit.state))),
                    .td(.safeText(visit.excerpt.isEmpty ? "—" : visit.excerpt))
                )
            })
        ))
    }

    @Sendable func newPet(request: Request) async throws -> Response {
        try requireStaff(request)
        guard let ownerText = request.query[String.self, at: "owner"], let ownerID = UUID(uuidString: ownerText) else {
            throw APIError.badRequest("Choose the pet's owner first (open the owner's page and use \"Add a pet\").")
        }
        let owner = try await ClinicOwners.owner(request: request, id: ownerID)
        return context.render("New pet", request, .div(
            .class("card stack narrow"),
            .h1(.safeText("New pet of \(owner.name)")),
            PageParts.apiForm("POST", "/api/v1/pets", then: context.url(.pet(.placeholder)),
                [.void("input", .attr("type", "hidden"), .attr("name", "owner_id"), .attr("value", PageParts.lower(ownerID)))]
                    + petFields(nil), submit: "Create pet")
        ))
    }

    @Sendable func edit(request: Request) async throws -> Response {
        try requireStaff(request)
        let id = try PageParts.uuidParameter(request, ClinicPage.Key.pet, notFound: "Pet not found")
        let pet = try await ClinicPets.pet(request: request, id: id)
        return context.render("Edit \(pet.name)", request, .div(
            .class("card stack narrow"),
            .h1(.safeText("Edit \(pet.name)")),
            PageParts.apiForm("PUT", "/api/v1/pets/\(PageParts.lower(id))", then: context.url(.pet(.value(id))),
                              petFields(pet) + [ConsoleForms.select(
                                  "Active", name: "is_active", options: [("true", "Active"), ("false", "Inactive")],
                                  selected: pet.isActive ? "true" : "false", extra: [.attr("data-type", "boolean")])],
                              submit: "Save pet")
        ))
    }

    private func petFields(_ pet: ConsolePet?) -> [Node<HTML.BodyContext>] {
        let clearable: [Attribute<Any>] = pet == nil ? [] : [.attr("data-null-when-empty", "")]
        return [
            ConsoleForms.field("Name", name: "name", value: pet?.name ?? "", required: true),
            ConsoleForms.field("Species", name: "species", value: pet?.species ?? "", required: true,
                               hint: "For example dog, cat, rabbit"),
            ConsoleForms.field("Breed", name: "breed", value: pet?.breed ?? "", extra: clearable),
            ConsoleForms.field("Colour", name: "color", value: pet?.color ?? "", extra: clearable),
            ConsoleForms.field("Gender", name: "gender", value: pet?.gender ?? "", extra: clearable),
            ConsoleForms.field("Date of birth", name: "date_of_birth", value: pet?.dateOfBirth ?? "", type: "date",
                               extra: clearable),
            ConsoleForms.field("Weight (kg)", name: "weight", value: pet?.weight.map { String($0) } ?? "", type: "number",
                               extra: [.attr("step", "any"), .attr("data-type", "number")] + clearable),
            ConsoleForms.field("Microchip number", name: "microchip_number", value: pet?.microchipNumber ?? "",
                               extra: clearable),
            ConsoleForms.textArea("Allergies", name: "allergies", value: pet?.allergies ?? "", rows: 2, extra: clearable),
        ]
    }

    @Sendable func newRecord(request: Request) async throws -> Response {
        try requireStaff(request)
        let id = try PageParts.uuidParameter(request, ClinicPage.Key.pet, notFound: "Pet not found")
        let pet = try await ClinicPets.pet(request: request, id: id)
        return context.render("New record for \(pet.name)", request, .div(
            .class("card stack narrow"),
            .h1(.safeText("New medical record for \(pet.name)")),
            PageParts.apiForm("POST", "/api/v1/medical-records", then: context.url(.pet(.value(id))),
                [.void("input", .attr("type", "hidden"), .attr("name", "pet_id"), .attr("value", PageParts.lower(id)))]
                    + recordFields(nil), submit: "Save record")
        ))
    }

    @Sendable func amend(request: Request) async throws -> Response {
        try requireStaff(request)
        let recordID = try PageParts.uuidParameter(request, ClinicPage.Key.record, notFound: "Medical record not found")
        guard let petText = request.query[String.self, at: "pet"] ?? nil, let petID = UUID(uuidString: petText) else {
            return try await amendWithoutPet(request: request, recordID: recordID)
        }
        return try await amendPage(request: request, recordID: recordID, petID: petID)
    }

    /// The record's pet is found through the records the caller may see.
    private func amendWithoutPet(request: Request, recordID: UUID) async throws -> Response {
        guard let petID = try await ClinicPets.petOfRecord(request: request, recordID: recordID) else {
            throw APIError.notFound("Medical record not found")
        }
        return try await amendPage(request: request, recordID: recordID, petID: petID)
    }

    private func amendPage(request: Request, recordID: UUID, petID: UUID) async throws -> Response {
        let records = try await ClinicPets.recordHistory(request: request, petID: petID)
        guard let record = records.first(where: { $0.id == recordID }) else {
            throw APIError.notFound("Medical record not found")
        }
        return context.render("Amend \(record.title)", request, .div(
            .class("card stack narrow"),
            .h1(.safeText("Amend “\(record.title)” (version \(record.version))")),
            .p(.class("muted"), .text("Amending writes a new version; the current one is kept in the history.")),
            PageParts.apiForm("PUT", "/api/v1/medical-records/\(PageParts.lower(recordID))",
                              then: context.url(.pet(.value(petID))), recordFields(record),
                              submit: "Save new version")
        ))
    }

    private func recordFields(_ record: ConsoleRecord?) -> [Node<HTML.BodyContext>] {
        let clearable: [Attribute<Any>] = record == nil ? [] : [.attr("data-null-when-empty", "")]
        let types = ["checkup", "vaccination", "surgery", "emergency", "dental", "diagnostic", "treatment", "follow_up",
                     "lab_result", "visit_summary", "grooming", "other"]
        return [
            ConsoleForms.select("Type", name: "record_type", options: types.map { ($0, Labels.type($0)) },
                                selected: record?.recordType ?? "checkup"),
            ConsoleForms.field("Title", name: "title", value: record?.title ?? "", required: true),
            ConsoleForms.textArea("Description", name: "description", value: record?.description ?? "",
                                  extra: clearable),
            ConsoleForms.textArea("Diagnosis", name: "diagnosis", value: record?.diagnosis ?? "", rows: 2,
                                  extra: clearable),
            ConsoleForms.textArea("Treatment plan", name: "treatment_plan", value: record?.treatmentPlan ?? "", rows: 2,
                                  extra: clearable),
            ConsoleForms.textArea("Medications (one per line)", name: "medications",
                                  value: record?.medications.joined(separator: "\n") ?? "", rows: 3,
                                  extra: [.attr("data-type", "lines")]),
            ConsoleForms.textArea("Notes", name: "notes", value: record?.notes ?? "", extra: clearable),
            ConsoleForms.field("Follow-up date", name: "follow_up_date", value: record?.followUpDate ?? "", type: "date",
                               extra: clearable),
            ConsoleForms.field("Weight (kg)", name: "weight", value: record?.weight.map { String($0) } ?? "",
                               type: "number", extra: [.attr("step", "any"), .attr("data-type", "number")] + clearable),
        ]
    }

    @Sendable func compare(request: Request) async throws -> Response {
        try requireStaff(request)
        let petID = try PageParts.uuidParameter(request, ClinicPage.Key.pet, notFound: "Pet not found")
        let records = try await ClinicPets.recordHistory(request: request, petID: petID)
        func version(_ key: String) throws -> ConsoleRecord {
            guard let text = request.query[String.self, at: key], let id = UUID(uuidString: text),
                let record = records.first(where: { $0.id == id })
            else { throw APIError.notFound("Medical record not found") }
            return record
        }
        let a = try version("a"), b = try version("b")
        guard a.originalID == b.originalID else {
            throw APIError.badRequest("Only two versions of the same record can be compared.")
        }
        let (older, newer) = a.version <= b.version ? (a, b) : (b, a)
        return context.render("Compare versions", request, .div(
            .class("stack"),
            .h1(.safeText("\(newer.title): version \(older.version) and version \(newer.version)")),
            RecordHistoryView.comparison(older, newer),
            .a(.attr("href", context.url(.pet(.value(petID)))), .text("Back to the pet"))
        ))
    }

    private func requireStaff(_ request: Request) throws {
        guard try request.clinicUser.isStaff else {
            throw APIError.forbidden("Veterinary staff or administrator access required")
        }
    }
}
