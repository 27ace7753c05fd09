import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// A signed-in user who is not yet a member of a practice (signed up, waiting for an administrator).
struct PendingPage {
    let context: ClinicContext

    func render(_ request: Request) -> Response {
        context.render("Waiting for approval", request, .div(
            .class("card stack"),
            .h1("Waiting for approval"),
            .p(.text("Your account is waiting for an administrator to admit you to a practice. "),
               .text("Once they have, this page shows your practice's day board."))
        ))
    }
}
