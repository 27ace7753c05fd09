import Foundation
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// Pieces several clinic pages share.
enum PageParts {
    /// A definition list of the facts that are present (nil and empty values are left out).
    static func facts(_ pairs: [(String, String?)]) -> Node<HTML.BodyContext> {
        let present = pairs.compactMap { label, value -> (String, String)? in
            guard let value, !value.isEmpty else { return nil }
            return (label, value)
        }
        return .tag("dl", [.attr("class", "facts")] + present.flatMap { label, value -> [Node<HTML.BodyContext>] in
            [.tag("dt", .safeText(label)), .tag("dd", .safeText(value))]
        })
    }

    /// A form that the page's script sends to the API as JSON (`console.js` `bindApiForms`), with a place for a
    /// message that names no field.
    static func apiForm(
        _ method: String, _ path: String, then: String? = nil, done: String? = nil, id: String? = nil,
        _ fields: [Node<HTML.BodyContext>], submit: String
    ) -> Node<HTML.BodyContext> {
        .tag("form", [
            .attr("data-api", "\(method) \(path)"), .attr("class", "stack api-form"), .attr("novalidate", "novalidate"),
            then.map { .attr("data-then", $0) } ?? .empty, done.map { .attr("data-done", $0) } ?? .empty,
            id.map { .attr("id", $0) } ?? .empty,
            ConsoleForms.formError(),
        ] + fields + [.button(.type(.submit), .class("primary"), .safeText(submit))])
    }

    static func uuidParameter(_ request: Request, _ name: String, notFound: String) throws -> UUID {
        try request.pathID(name, malformed: .notFound(notFound))
    }

    static func lower(_ id: UUID) -> String { id.uuidString.lowercased() }
}

import AppCore
