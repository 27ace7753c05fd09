import AppCore
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// A pet owner's console: their own pets, read-only (each links to the pet's page, which shows an owner no form).
struct MyPetsPage: Sendable {
    let context: ClinicContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.myPets, use: page)
    }

    @Sendable func page(request: Request) async throws -> Response {
        let user = try request.clinicUser
        guard user.isOwner else { return request.redirect(to: context.url(.board)) }
        let pets = try await ClinicPets.ownPets(request: request)
        return context.render("My pets", request, .div(
            .class("stack"),
            .h1("My pets"),
            .if(pets.isEmpty, .p(.class("muted"), .text("No pets are registered for you yet."))),
            .div(.class("grid"), .forEach(pets) { pet in
                .a(.class("card"), .attr("href", context.url(.pet(.value(pet.id)))),
                   .h2(.safeText(pet.name)), .p(.class("muted"), .safeText(pet.species)))
            })
        ))
    }
}
