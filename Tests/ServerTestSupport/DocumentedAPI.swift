import AppCore
import Foundation
import Vapor

/// One product's API document and what the route diff must know about it.
public struct DocumentedAPI: Sendable, CustomStringConvertible {
    /// One HTTP method on one path template, written the OpenAPI way (`/api/v1/pets/{pet_id}`): the same value the
    /// golden book files its exchanges under.
    public typealias Operation = GoldenBook.Operation

    public static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    public let name: String
    /// `APPS` for the assembled server: the product alone.
    public let apps: String
    public let documentPath: String
    public let servedPath: String
    /// securitySchemes entries and the fields each must have.
    public let securitySchemes: [String: [String: String]]
    /// A floor, so a wiring mistake that registers nothing cannot pass as "nothing undocumented".
    public let minimumOperations: Int
    /// How a catch-all path component (`**`, the object store's key) is written in this document.
    public let catchallName: String
    /// Whether this document describes a registered route, given its path components (`{name}` for parameters).
    public let describes: @Sendable ([String]) -> Bool

    public var description: String { name }

    public static let helpPet = DocumentedAPI(
        name: "HelpPet", apps: "helppet", documentPath: "Sources/HelpPetAPI/Resources/openapi.yaml",
        servedPath: "openapi.json", securitySchemes: ["bearerAuth": ["type": "http", "scheme": "bearer"]],
        minimumOperations: 60, catchallName: "**",
        describes: { components in
            // The S3 protocol of the embedded object store and any other product's documents are not HelpPet's.
            guard let first = components.first else { return true }
            if first == "storage" || first == "openapi" { return false }
            return !(first == "api" && components.dropFirst().first != "v1")
        })

    public static let autoDetail = DocumentedAPI(
        name: "AutoDetail Hub", apps: "autodetail", documentPath: "Sources/AutoDetailAPI/Resources/openapi.yaml",
        servedPath: "openapi/autodetail.json",
        securitySchemes: ["apiKey": ["name": "X-API-Key"], "adminToken": ["scheme": "bearer"]],
        minimumOperations: 50, catchallName: "{key}",
        describes: { components in
            // The upload path of the object store is part of AutoDetail's contract; HelpPet's API and /metrics are not.
            if components.first == "api", components.dropFirst().first == "v1" { return false }
            return components != ["metrics"] && components != ["openapi.json"]
        })

    public static let all = [helpPet, autoDetail]

    public var documentURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../\(documentPath)").standardizedFileURL
    }

    public func loadDocument() throws -> [String: Any] {
        let data = try YAMLOpenAPIDocument(contentsOf: documentURL).json
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw DocumentError("\(documentPath) is not an object")
        }
        return object
    }

    /// The operations, plus the methods a path lists in `x-methods-not-allowed`: registered routes whose only
    /// answer is 405 (the object store), documented on the path rather than as operations.
    public func documentedOperations(_ document: [String: Any]) throws -> Set<Operation> {
        guard let paths = document["paths"] as? [String: [String: Any]] else {
            throw DocumentError("\(documentPath) has no paths object")
        }
        var operations = Set<Operation>()
        for (path, item) in paths {
            for method in Self.methods where item[method] != nil {
                operations.insert(Operation(method: method.uppercased(), path: path))
            }
            for method in item["x-methods-not-allowed"] as? [String] ?? [] {
                operations.insert(Operation(method: method.uppercased(), path: path))
            }
        }
        return operations
    }

    /// The registered routes this document describes, in OpenAPI notation (`:pet_id` → `{pet_id}`). The web
    /// consoles' HTML pages and the landing page at `/` are never part of an API document.
    public func registeredOperations(_ app: Application) -> Set<Operation> {
        var operations = Set<Operation>()
        for route in app.routes.all {
            let components = route.path.map { component -> String in
                switch component {
                case .constant(let value): value
                case .parameter(let name): "{\(name)}"
                case .anything: "*"
                case .catchall: catchallName
                }
            }
            if components.isEmpty || ["clinic", "studio", "console"].contains(components[0]) { continue }
            guard describes(components) else { continue }
            operations.insert(Operation(method: route.method.rawValue, path: "/" + components.joined(separator: "/")))
        }
        return operations
    }

    public struct DocumentError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
