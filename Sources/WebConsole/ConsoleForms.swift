import AppCore
import Plot

/// Small form pieces every console page uses. Generic over the Plot context, so they fit in a `<form>` as well as
/// in a `<div>`.
public enum ConsoleForms {
    public static func csrfField<Context>(_ session: ConsoleSessionContext) -> Node<Context> {
        .void("input", .attr("type", "hidden"), .attr("name", ConsoleCredentials.csrfFormField),
              .attr("value", session.csrfToken))
    }

    /// A labelled field with the place where the API's validation message for it appears (`data-error-for`).
    public static func field<Context>(
        _ label: String, name: String, value: String = "", type: String = "text", required: Bool = false,
        hint: String? = nil, extra: [Attribute<Any>] = []
    ) -> Node<Context> {
        let id = "field-" + name
        return .tag("div",
            .attr("class", "field"),
            .tag("label", .attr("for", id), .safeText(label)),
            .void("input", [.attr("id", id), .attr("name", name), .attr("type", type), .attr("value", value),
                            .attr("aria-describedby", id + "-error")] + (required ? [.flag("required")] : []) + extra),
            hint.map { .tag("small", .attr("class", "hint"), .safeText($0)) } ?? .empty,
            errorSlot(name)
        )
    }

    public static func textArea<Context>(
        _ label: String, name: String, value: String = "", rows: Int = 3, extra: [Attribute<Any>] = []
    ) -> Node<Context> {
        let id = "field-" + name
        return .tag("div",
            .attr("class", "field"),
            .tag("label", .attr("for", id), .safeText(label)),
            .tag("textarea", [.attr("id", id), .attr("name", name), .attr("rows", String(rows)),
                              .attr("aria-describedby", id + "-error")] + extra.map(Node.attribute(from:))
                 + [.safeText(value)]),
            errorSlot(name)
        )
    }

    public static func select<Context>(
        _ label: String, name: String, options: [(value: String, label: String)], selected: String?,
        extra: [Attribute<Any>] = []
    ) -> Node<Context> {
        let id = "field-" + name
        return .tag("div",
            .attr("class", "field"),
            .tag("label", .attr("for", id), .safeText(label)),
            .tag("select", [.attr("id", id), .attr("name", name), .attr("aria-describedby", id + "-error")]
                + extra.map(Node.attribute(from:))
                + options.map { option in
                    .tag("option", .attr("value", option.value), .flag("selected", option.value == selected),
                         .safeText(option.label))
                }),
            errorSlot(name)
        )
    }

    /// Where a message about the field appears; `console.js` fills it from the API's answer.
    public static func errorSlot<Context>(_ name: String) -> Node<Context> {
        .tag("p", .attr("class", "field-error"), .attr("id", "field-\(name)-error"), .attr("data-error-for", name),
             .attr("aria-live", "polite"))
    }

    /// The place for a message that names no field.
    public static func formError<Context>() -> Node<Context> {
        .tag("p", .attr("class", "form-error"), .attr("role", "alert"))
    }
}
