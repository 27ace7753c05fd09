import AppCore
import Foundation
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// Owners and their pets: search by name, phone, email or pet name; create and edit owners.
struct OwnerPages: Sendable {
    let context: ClinicContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.owners, use: search)
        routes.get(ClinicPage.newOwner, use: newOwner)
        routes.get(ClinicPage.owner(.key), use: show)
    }

    @Sendable func search(request: Request) async throws -> Response {
        try requireStaff(request)
        let text = request.query[String.self, at: "q"] ?? ""
        let owners = try await ClinicOwners.search(request: request, text: text)
        return context.render("Owners & pets", request, .div(
            .class("stack"),
            .div(.class("row"), .h1("Owners & pets"), .div(.class("spacer")),
                 .a(.class("button primary"), .attr("href", context.url(.newOwner)), .text("New owner"))),
            .form(
                .attr("method", "get"), .attr("action", context.url(.owners)), .attr("role", "search"), .class("row"),
                .tag("label", .attr("for", "owner-search"), .text("Search")),
                .void("input", .attr("id", "owner-search"), .attr("type", "search"), .attr("name", "q"),
                      .attr("value", text), .attr("placeholder", "Name, phone, email or pet"), .attr("maxlength", "100")),
                .button(.type(.submit), .text("Search"))
            ),
            .if(owners.isEmpty, .p(.class("muted"), .text("No owner matches."))),
            .div(.class("table-wrap"), .table(
                .thead(.tr(.th("Owner"), .th("Email"), .th("Phone"), .th("Pets"))),
                .tbody(.forEach(owners) { owner in
                    .tr(
                        .td(.a(.attr("href", context.url(.owner(.value(owner.id)))), .safeText(owner.name))),
                        .td(.safeText(owner.email)), .td(.safeText(owner.phone ?? "")),
                        .td(.forEach(owner.pets) { pet in
                            .group(.a(.attr("href", context.url(.pet(.value(pet.id)))),
                                      .class(pet.isActive ? "pet-link" : "pet-link muted"), .safeText(pet.name)),
                                   .text(" "))
                        })
                    )
                })
            ))
        ))
    }

    @Sendable func newOwner(request: Request) async throws -> Response {
        let user = try requireStaff(request)
        let practices = user.isAdmin ? try await ClinicAdmin.practices(request: request) : []
        return context.render("New owner", request, .div(
            .class("card stack narrow"),
            .h1("New owner"),
            PageParts.apiForm("POST", "/api/v1/pet-owners", then: context.url(.owner(.placeholder)), ownerFields(nil)
                + (user.isAdmin ? [ConsoleForms.select(
                    "Practice", name: "practice_id", options: practices.map { (PageParts.lower($0.id), $0.name) },
                    selected: nil)] : []),
                submit: "Create owner")
        ))
    }

    @Sendable func show(request: Request) async throws -> Response {
        try requireStaff(request)
        let id = try PageParts.uuidParameter(request, ClinicPage.Key.owner, notFound: "Pet owner not found")
        let owner = try await ClinicOwners.owner(request: request, id: id)
        return context.render(owner.name, request, .div(
            .class("stack"),
            .h1(.safeText(owner.name)),
            .div(
                .class("grid"),
                .section(.class("card stack"), .h2("Pets"),
                    .if(owner.pets.isEmpty, .p(.class("muted"), .text("No pets yet."))),
                    .ul(.forEach(owner.pets) { pet in
                        .li(.a(.attr("href", context.url(.pet(.value(pet.id)))), .safeText(pet.name)),
                            .span(.class("muted"), .safeText(" \(pet.species)\(pet.isActive ? "" : " · inactive")")))
                    }),
                    .a(.class("button"), .attr("href", context.url(.newPet, query: ["owner": PageParts.lower(owner.id)])),
                       .text("Add a pet"))),
                .section(.class("card stack"), .h2("Contact details"),
                    PageParts.apiForm("PUT", "/api/v1/pet-owners/\(PageParts.lower(owner.id))", done: "Owner saved",
                                      ownerFields(owner), submit: "Save owner"))
            )
        ))
    }

    private func ownerFields(_ owner: ConsoleOwner?) -> [Node<HTML.BodyContext>] {
        [
            ConsoleForms.field("First name", name: "first_name", value: owner?.firstName ?? "", required: true),
            ConsoleForms.field("Last name", name: "last_name", value: owner?.lastName ?? "", required: true),
            ConsoleForms.field("Email", name: "email", value: owner?.email ?? "", type: "email", required: true),
            ConsoleForms.field("Phone", name: "phone", value: owner?.phone ?? "", type: "tel",
                               extra: owner == nil ? [] : [.attr("data-null-when-empty", "")]),
            ConsoleForms.textArea("Address", name: "address", value: owner?.address ?? "", rows: 2,
                                  extra: owner == nil ? [] : [.attr("data-null-when-empty", "")]),
        ]
    }

    @discardableResult
    private func requireStaff(_ request: Request) throws -> ConsoleUser {
        let user = try request.clinicUser
        guard user.isStaff else { throw APIError.forbidden("Veterinary staff or administrator access required") }
        return user
    }
}
