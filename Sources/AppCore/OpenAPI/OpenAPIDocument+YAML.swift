import Foundation
import ObjectStorage
import Yams

/// An OpenAPI document as the repository keeps it (hand-edited YAML, reviewed like code) and as clients fetch it
/// (JSON). Converted once when the server starts; the JSON keeps the YAML's key order, so the served document reads
/// like the file.
public struct YAMLOpenAPIDocument: Sendable {
    /// The document as JSON text (UTF-8).
    public let json: Data

    public init(yaml: String) throws {
        guard let root = try Yams.compose(yaml: yaml, Self.resolver) else {
            throw YAMLOpenAPIDocumentError("the OpenAPI document is empty")
        }
        var text = ""
        try Self.writeJSON(root, into: &text, at: "$")
        json = Data(text.utf8)
    }

    /// YAML 1.1's implicit types minus timestamps, merge keys and `=`, none of which JSON has: an example such as
    /// 2025-01-15T10:00:00Z must reach the client as the text it is, not as a re-formatted date.
    static let resolver = Resolver.default.removing(.timestamp).removing(.merge).removing(.value)

    public init(contentsOf url: URL) throws {
        try self.init(yaml: String(contentsOf: url, encoding: .utf8))
    }

    static func writeJSON(_ node: Node, into out: inout String, at path: String) throws {
        switch node {
        case .scalar(let scalar):
            try writeScalar(node, scalar.string, into: &out, at: path)
        case .sequence(let sequence):
            out += "["
            for (index, element) in sequence.enumerated() {
                if index > 0 { out += "," }
                try writeJSON(element, into: &out, at: "\(path)[\(index)]")
            }
            out += "]"
        case .mapping(let mapping):
            out += "{"
            for (index, pair) in mapping.enumerated() {
                guard case .scalar(let key) = pair.key else {
                    throw YAMLOpenAPIDocumentError("\(path): a mapping key must be a scalar")
                }
                if index > 0 { out += "," }
                out += JSONText.string(key.string)
                out += ":"
                try writeJSON(pair.value, into: &out, at: "\(path).\(key.string)")
            }
            out += "}"
        case .alias:
            // Yams expands aliases while composing; should one remain, reuse within the document is `$ref`'s job.
            throw YAMLOpenAPIDocumentError("\(path): YAML aliases are not used in OpenAPI documents; use $ref")
        }
    }

    private static func writeScalar(_ node: Node, _ text: String, into out: inout String, at path: String) throws {
        switch resolver.resolveTag(of: node) {
        case .null:
            out += "null"
        case .bool:
            guard let value = node.bool else { throw YAMLOpenAPIDocumentError("\(path): unreadable boolean \(text)") }
            out += value ? "true" : "false"
        case .int:
            guard let value = node.int else { throw YAMLOpenAPIDocumentError("\(path): unreadable integer \(text)") }
            out += String(value)
        case .float:
            guard let value = node.float, value.isFinite else {
                throw YAMLOpenAPIDocumentError("\(path): \(text) is not a JSON number")
            }
            out += "\(value)"
        default:
            out += JSONText.string(text)
        }
    }
}

public struct YAMLOpenAPIDocumentError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
