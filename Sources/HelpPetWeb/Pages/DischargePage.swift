import AppCore
import Foundation
import HelpPetAPI
import Plot
import Vapor

/// The printable discharge instructions of a visit (`{mount}/visits/{id}/discharge`): the same words as the
/// API's `GET /visit-transcripts/{id}/discharge-instructions`, for whoever may read the visit: its practice's staff,
/// ADMIN and the pet's owner (signed in to the console with their own account). 409 until the note is approved.
struct DischargePage: Sendable {
    let context: ClinicContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.discharge(visit: .key), use: page)
    }

    @Sendable func page(request: Request) async throws -> Response {
        let id = try PageParts.uuidParameter(request, ClinicPage.Key.visit, notFound: "Visit not found")
        let instructions = try await ClinicVisit.discharge(request: request, id: id)
        let title = "Discharge instructions for \(instructions.petName)"
        return context.render(title, request, scripts: ["discharge.js"], Self.render(instructions))
    }

    static func render(_ instructions: DischargeInstructions) -> Node<HTML.BodyContext> {
        .tag("article",
            .class("stack discharge"), .id("discharge"),
            .div(.class("row no-print"), .button(.id("print"), .text("Print"))),
            .h1(.safeText("Discharge instructions for \(instructions.petName)")),
            .p(.class("muted"), .safeText("\(instructions.practiceName), visit of \(instructions.visitDay)")),
            .if(!instructions.found.isEmpty, .group(
                .h2("What we found"),
                .forEach(instructions.found) { .p(.safeText($0)) })),
            .if(!instructions.medications.isEmpty, .group(
                .h2("Medications"),
                .ul(.class("discharge-medications"), .forEach(instructions.medications) { med in
                    .li(.strong(.safeText(med.name)), .text(": "), .safeText(med.instructions))
                }))),
            .unwrap(instructions.comeBack) { comeBack in
                .group(.h2("When to come back"), .p(.class("come-back"), .safeText(comeBack.prefix(1).uppercased() + comeBack.dropFirst())))
            },
            .h2("What to watch for"),
            .ul(.forEach(instructions.watchFor) { .li(.safeText($0)) }),
            .if(!instructions.addenda.isEmpty, .group(
                .h2("Later notes from your vet"),
                .ul(.forEach(instructions.addenda) { .li(.safeText($0)) })))
        )
    }
}
