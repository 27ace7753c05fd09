import AppCore
@testable import AutoDetailAPI
import Foundation
import Testing
import VaporTesting

/// Diffs the registered routes against `Sources/AutoDetailAPI/Resources/openapi.yaml` in both directions
/// (ARCHITECTURE.md "Shared surface": OpenAPI). The document is edited by hand;
/// the server serves it as JSON.
@Suite("AutoDetail OpenAPI route coverage")
struct OpenAPIRouteCoverageTests {
    struct Operation: Hashable, Comparable, CustomStringConvertible {
        let method: String
        let path: String

        var description: String { "\(method) \(path)" }
        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.path, lhs.method) < (rhs.path, rhs.method) }
    }

    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("../../Sources/AutoDetailAPI/Resources/openapi.yaml")
        .standardizedFileURL

    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    @Test("every registered route is documented and every documented operation is registered")
    func routesMatchDocument() async throws {
        let documented = try Self.documentedOperations(Self.loadDocument())
        let registered = try await Self.withApp { app in Self.registeredOperations(app) }
        let undocumented = registered.subtracting(documented).sorted()
        let unregistered = documented.subtracting(registered).sorted()
        #expect(
            undocumented.isEmpty,
            "Registered but missing from openapi.yaml (add it to Resources/openapi.yaml):\n\(undocumented)")
        #expect(unregistered.isEmpty, "Documented in openapi.yaml but not registered:\n\(unregistered)")
        #expect(registered.count > 50)
    }

    @Test("GET /openapi/autodetail.json serves the committed document as JSON")
    func servedDocumentIsTheFile() async throws {
        let file = try YAMLOpenAPIDocument(contentsOf: Self.documentURL).json
        try await Self.withApp { app in
            try await app.testing().test(.GET, "openapi/autodetail.json") { res in
                #expect(res.status == .ok)
                #expect(res.headers.first(name: .contentType) == "application/json; charset=utf-8")
                #expect(Data(buffer: res.body) == file)
            }
        }
    }

    @Test("the document is OpenAPI 3.1 with unique operation ids, both security schemes and resolvable references")
    func documentShape() throws {
        let document = try Self.loadDocument()
        #expect(document["openapi"] as? String == "3.1.0")
        let components = document["components"] as? [String: Any] ?? [:]
        let schemes = components["securitySchemes"] as? [String: Any] ?? [:]
        #expect((schemes["apiKey"] as? [String: Any])?["name"] as? String == "X-API-Key")
        #expect((schemes["adminToken"] as? [String: Any])?["scheme"] as? String == "bearer")
        var ids: [String] = []
        for (_, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for method in Self.methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                ids.append(operation["operationId"] as? String ?? "")
                #expect(operation["responses"] != nil)
            }
        }
        #expect(!ids.contains("") && Set(ids).count == ids.count)
        var references = Set<String>()
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, inner) in object {
                    if key == "$ref", let text = inner as? String { references.insert(text) } else { collect(inner) }
                }
            } else if let list = value as? [Any] {
                list.forEach(collect)
            }
        }
        collect(document)
        for reference in references {
            var current: Any? = document
            for part in reference.dropFirst(2).split(separator: "/") { current = (current as? [String: Any])?[String(part)] }
            #expect(current != nil, "unresolved \(reference)")
        }
    }

    static func loadDocument() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: YAMLOpenAPIDocument(contentsOf: documentURL).json) as? [String: Any] ?? [:]
    }

    /// The operations, plus the methods a path lists in `x-methods-not-allowed`: registered routes whose only
    /// answer is 405 (the object store, §7.4), documented on the path rather than as operations.
    static func documentedOperations(_ document: [String: Any]) throws -> Set<Operation> {
        var operations = Set<Operation>()
        for (path, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for method in methods where item[method] != nil {
                operations.insert(Operation(method: method.uppercased(), path: path))
            }
            for method in item["x-methods-not-allowed"] as? [String] ?? [] {
                operations.insert(Operation(method: method.uppercased(), path: path))
            }
        }
        return operations
    }

    /// AutoDetail's routes in OpenAPI notation (`:appointmentId` → `{appointmentId}`, the store's catch-all key →
    /// `{key}`), plus the shared `/health`, `/health/ready` and `/storage/…`; the other product's paths and
    /// `/metrics` are not part of this document.
    static func registeredOperations(_ app: Application) -> Set<Operation> {
        var operations = Set<Operation>()
        for route in app.routes.all {
            let components = route.path.map { component -> String in
                switch component {
                case .constant(let value): value
                case .parameter(let name): "{\(name)}"
                case .anything: "*"
                case .catchall: "{key}"
                }
            }
            if components.first == "api", components.dropFirst().first == "v1" { continue }
            if components == ["metrics"] || components == ["openapi.json"] { continue }
            // The web consoles' HTML pages (and the landing page at `/`) are not part of the API.
            if components.isEmpty || ["clinic", "studio", "console"].contains(components[0]) { continue }
            operations.insert(Operation(method: route.method.rawValue, path: "/" + components.joined(separator: "/")))
        }
        return operations
    }

    /// Plumbing plus AutoDetail Hub, as the server assembles it (no database access needed).
    @discardableResult
    static func withApp<T>(_ body: (Application) async throws -> T) async throws -> T {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("ad-openapi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let app = try await Application.make(.testing)
        do {
            let config = try AppConfig.load(
                environmentName: "testing",
                env: EnvironmentReader(["DATA_DIR": dataDir.path, "BCRYPT_COST": "4", "APPS": "autodetail"]))
            try await CoreBootstrap.configure(app, config: config)
            try AutoDetailModule.configure(app)
            let result = try await body(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}
