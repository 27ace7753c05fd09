import AppCore
import Foundation
@testable import HelpPetAPI
import Testing
import VaporTesting

/// Diffs the registered routes against `Sources/HelpPetAPI/Resources/openapi.yaml` in both directions
/// (ARCHITECTURE.md, "Shared surface": OpenAPI). The document is edited by hand;
/// the server serves it as JSON.
@Suite("OpenAPI route coverage")
struct OpenAPIRouteCoverageTests {
    /// One HTTP method on one path template, written the OpenAPI way (`/api/v1/pets/{pet_id}`).
    struct Operation: Hashable, Comparable, CustomStringConvertible {
        let method: String
        let path: String

        var description: String { "\(method) \(path)" }

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.path, lhs.method) < (rhs.path, rhs.method)
        }
    }

    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("../../Sources/HelpPetAPI/Resources/openapi.yaml")
        .standardizedFileURL

    static let documentedMethods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    @Test("every registered route is documented and every documented operation is registered")
    func routesMatchDocument() async throws {
        let documented = try Self.documentedOperations(Self.loadDocument())
        let registered = try await Self.withApp { app in Self.registeredOperations(app) }

        let undocumented = registered.subtracting(documented).sorted()
        let unregistered = documented.subtracting(registered).sorted()
        #expect(
            undocumented.isEmpty,
            "Registered but missing from openapi.yaml (add it to Resources/openapi.yaml):\n\(Self.list(undocumented))"
        )
        #expect(unregistered.isEmpty, "Documented in openapi.yaml but not registered:\n\(Self.list(unregistered))")
    }

    @Test("GET /openapi.json serves the committed document as JSON")
    func servedDocumentIsTheFile() async throws {
        let file = try YAMLOpenAPIDocument(contentsOf: Self.documentURL).json
        try await Self.withApp { app in
            try await app.testing().test(.GET, "openapi.json") { res in
                #expect(res.status == .ok)
                #expect(res.headers.contentType?.type == "application")
                #expect(res.headers.contentType?.subType == "json")
                let served = Data(buffer: res.body)
                #expect(served == file, "the served /openapi.json differs from Sources/HelpPetAPI/Resources/openapi.yaml")
                let object = try JSONSerialization.jsonObject(with: served) as? [String: Any]
                #expect(object?["openapi"] as? String == "3.1.0")
            }
        }
    }

    @Test("the document is OpenAPI 3.1 with unique operation ids and the bearer scheme")
    func documentShape() throws {
        let document = try Self.loadDocument()
        #expect(document["openapi"] as? String == "3.1.0")
        let schemes = (document["components"] as? [String: Any])?["securitySchemes"] as? [String: Any]
        let bearer = schemes?["bearerAuth"] as? [String: Any]
        #expect(bearer?["type"] as? String == "http")
        #expect(bearer?["scheme"] as? String == "bearer")

        var operationIDs: [String] = []
        for (_, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for method in Self.documentedMethods {
                guard let operation = item[method] as? [String: Any] else { continue }
                operationIDs.append(operation["operationId"] as? String ?? "")
            }
        }
        #expect(!operationIDs.contains(""), "every operation needs an operationId")
        #expect(Set(operationIDs).count == operationIDs.count, "operationIds must be unique")
    }

    // MARK: - Helpers

    static func loadDocument() throws -> [String: Any] {
        let data = try YAMLOpenAPIDocument(contentsOf: documentURL).json
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw DocumentError("openapi.yaml is not an object")
        }
        return object
    }

    static func documentedOperations(_ document: [String: Any]) throws -> Set<Operation> {
        guard let paths = document["paths"] as? [String: [String: Any]] else {
            throw DocumentError("openapi.yaml has no paths object")
        }
        var operations = Set<Operation>()
        for (path, item) in paths {
            for method in documentedMethods where item[method] != nil {
                operations.insert(Operation(method: method.uppercased(), path: path))
            }
        }
        return operations
    }

    /// The application's routes in OpenAPI notation (`:pet_id` → `{pet_id}`), leaving out what this document
    /// does not describe: the embedded object store (`/storage/**`, S3 protocol) and the other product's
    /// routes (`/api/**` outside `/api/v1`, `/openapi/autodetail.json`) should they be registered too.
    static func registeredOperations(_ app: Application) -> Set<Operation> {
        var operations = Set<Operation>()
        for route in app.routes.all {
            let components = route.path.map { component -> String in
                switch component {
                case .constant(let value): value
                case .parameter(let name): "{\(name)}"
                case .anything: "*"
                case .catchall: "**"
                }
            }
            let path = "/" + components.joined(separator: "/")
            if components.first == "storage" { continue }
            // The web consoles' HTML pages (and the landing page at `/`) are not part of the API.
            if components.isEmpty || ["clinic", "studio", "console"].contains(components[0]) { continue }
            if components.first == "api", components.dropFirst().first != "v1" { continue }
            if components.first == "openapi" { continue }
            operations.insert(Operation(method: route.method.rawValue, path: path))
        }
        return operations
    }

    /// A minimally configured application (plumbing plus HelpPet, as the server assembles it), shut down afterwards.
    @discardableResult
    static func withApp<T>(_ body: (Application) async throws -> T) async throws -> T {
        let dataDir = FileManager.default.temporaryDirectory
            .appendingPathComponent("openapi-coverage-\(UUID().uuidString)", isDirectory: true)
        let app = try await Application.make(.testing)
        defer { try? FileManager.default.removeItem(at: dataDir) }
        do {
            let config = try AppConfig.load(
                environmentName: "testing", env: EnvironmentReader(["DATA_DIR": dataDir.path, "BCRYPT_COST": "4"]))
            try await CoreBootstrap.configure(app, config: config)
            try HelpPetModule.configure(app)
            let result = try await body(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    static func list(_ operations: [Operation]) -> String {
        operations.map { "  \($0)" }.joined(separator: "\n")
    }

    struct DocumentError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
