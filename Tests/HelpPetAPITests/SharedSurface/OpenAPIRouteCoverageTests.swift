import AppCore
import Foundation
import ServerAssembly
import Testing
import ServerTestSupport
import VaporTesting

/// Each product's hand-edited OpenAPI document (`Sources/<Product>API/Resources/openapi.yaml`) against the routes the
/// real server assembly registers, in both directions, and the document as the server serves it (docs/architecture.md,
/// "Resources/openapi.yaml"). One suite, run once per product.
@Suite("OpenAPI route coverage")
struct OpenAPIRouteCoverageTests {
    @Test("every registered route is documented and every documented operation is registered", arguments: DocumentedAPI.all)
    func routesMatchDocument(_ api: DocumentedAPI) async throws {
        let documented = try api.documentedOperations(api.loadDocument())
        let registered = try await api.withApp { app in api.registeredOperations(app) }

        let undocumented = registered.subtracting(documented).sorted()
        let unregistered = documented.subtracting(registered).sorted()
        #expect(undocumented.isEmpty, "Registered but missing from \(api.documentPath):\n\(Self.list(undocumented))")
        #expect(unregistered.isEmpty, "Documented in \(api.documentPath) but not registered:\n\(Self.list(unregistered))")
        #expect(registered.count >= api.minimumOperations, "the assembly registered only \(registered.count) routes")
    }

    @Test("the server serves the committed document as JSON", arguments: DocumentedAPI.all)
    func servedDocumentIsTheFile(_ api: DocumentedAPI) async throws {
        let file = try YAMLOpenAPIDocument(contentsOf: api.documentURL).json
        try await api.withApp { app in
            try await app.testing().test(.GET, api.servedPath) { res in
                #expect(res.status == .ok)
                #expect(res.headers.first(name: .contentType) == "application/json; charset=utf-8")
                #expect(Data(buffer: res.body) == file, "GET /\(api.servedPath) differs from \(api.documentPath)")
            }
        }
    }

    @Test(
        "the document is OpenAPI 3.1 with unique operation ids, its security schemes and resolvable references",
        arguments: DocumentedAPI.all)
    func documentShape(_ api: DocumentedAPI) throws {
        let document = try api.loadDocument()
        #expect(document["openapi"] as? String == "3.1.0")
        let components = document["components"] as? [String: Any] ?? [:]
        let schemes = components["securitySchemes"] as? [String: Any] ?? [:]
        for (name, expected) in api.securitySchemes {
            let scheme = schemes[name] as? [String: Any] ?? [:]
            for (field, value) in expected {
                #expect(scheme[field] as? String == value, "securitySchemes.\(name).\(field)")
            }
        }

        var ids: [String] = []
        for (path, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for method in DocumentedAPI.methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                ids.append(operation["operationId"] as? String ?? "")
                #expect(operation["responses"] != nil, "\(method.uppercased()) \(path) lists no responses")
            }
        }
        #expect(!ids.contains(""), "every operation needs an operationId")
        #expect(Set(ids).count == ids.count, "operationIds must be unique")

        for reference in Self.references(in: document) {
            var current: Any? = document
            for part in reference.dropFirst(2).split(separator: "/") {
                current = (current as? [String: Any])?[String(part)]
            }
            #expect(current != nil, "unresolved \(reference)")
        }
    }

    static func references(in value: Any) -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: Set<String>()) { found, entry in
                if entry.key == "$ref", let text = entry.value as? String {
                    found.insert(text)
                } else {
                    found.formUnion(references(in: entry.value))
                }
            }
        }
        if let list = value as? [Any] {
            return list.reduce(into: Set<String>()) { $0.formUnion(references(in: $1)) }
        }
        return []
    }

    static func list(_ operations: [DocumentedAPI.Operation]) -> String {
        operations.map { "  \($0)" }.joined(separator: "\n")
    }
}

extension DocumentedAPI {
    /// The product alone, assembled the way `server serve` assembles it (no database access needed), shut down
    /// afterwards.
    @discardableResult
    func withApp<T>(_ body: (Application) async throws -> T) async throws -> T {
        let dataDir = FileManager.default.temporaryDirectory
            .appendingPathComponent("openapi-coverage-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let app = try await Application.make(.testing)
        do {
            let config = try AppConfig.load(
                environmentName: "testing",
                env: EnvironmentReader(["DATA_DIR": dataDir.path, "BCRYPT_COST": "4", "APPS": apps]))
            try await ServerAssembly.configure(app, .init(config: config, runsWorkers: false))
            let result = try await body(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}
