import Plot

/// Plot escapes `<`, `>` and `&` in text but nothing in attribute values (a `"` in a pet's name would end the
/// attribute), and it leaves entity-like sequences as they are. Every value that comes from a user or the database
/// therefore goes through these helpers, never through Plot's own `.text`/`.value`/`.href` (docs/web-console.md).
public enum HTMLEscaping {
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}

public extension Node {
    /// An attribute whose value is escaped (safe for any string).
    static func attr(_ name: String, _ value: String) -> Node {
        .attribute(named: name, value: HTMLEscaping.escape(value), ignoreIfValueIsEmpty: false)
    }

    /// Text content, fully escaped.
    static func safeText(_ text: String) -> Node { .raw(HTMLEscaping.escape(text)) }

    /// Any element by name, for the ones Plot's DSL lacks in a context (`<select>` options, `<dialog>`, SVG…).
    static func tag(_ name: String, _ nodes: Node...) -> Node { .element(named: name, nodes: nodes) }
    static func tag(_ name: String, _ nodes: [Node]) -> Node { .element(named: name, nodes: nodes) }

    /// A boolean attribute (`disabled`, `required`…), present or absent.
    static func flag(_ name: String, _ on: Bool = true) -> Node { on ? .attribute(named: name) : .empty }
}

public extension Attribute {
    /// An escaped attribute value, for the elements Plot builds from attributes only (`input`, `meta`, `link`…).
    static func attr(_ name: String, _ value: String) -> Attribute {
        Attribute(name: name, value: HTMLEscaping.escape(value), ignoreIfValueIsEmpty: false)
    }
}

public extension Node {
    /// A void element (`<input>`, `<img>`, `<source>`): attributes only, no closing tag.
    static func void(_ name: String, _ attributes: [Attribute<Any>]) -> Node {
        .element(Element<Context>.selfClosed(named: name, attributes: attributes))
    }

    static func void(_ name: String, _ attributes: Attribute<Any>...) -> Node { void(name, attributes) }

    /// An attribute made with `Attribute.attr`/`.flag` (already escaped), as a node of any element.
    static func attribute(from attribute: Attribute<Any>) -> Node {
        .attribute(named: attribute.name, value: attribute.value, ignoreIfValueIsEmpty: attribute.ignoreIfValueIsEmpty)
    }
}

public extension Attribute {
    /// A boolean attribute (`required`, `checked`…); `nil` renders nothing.
    static func flag(_ name: String) -> Attribute { Attribute(name: name, value: nil, ignoreIfValueIsEmpty: false) }
}
