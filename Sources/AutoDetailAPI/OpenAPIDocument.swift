import AppCore
import Foundation
import Vapor

/// Serves `/openapi/autodetail.json`, the OpenAPI 3.1 description of AutoDetail Hub. The source is
/// `Resources/openapi.yaml`, edited by hand next to the code; it is converted to JSON once, on first use.
enum AutoDetailOpenAPIDocument {
    static let data: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            fatalError("Resources/openapi.yaml is missing from the AutoDetailAPI bundle")
        }
        do {
            return try YAMLOpenAPIDocument(contentsOf: url).json
        } catch {
            // A broken document is a build mistake that OpenAPIRouteCoverageTests catches; never serve half of one.
            fatalError("Resources/openapi.yaml cannot be read: \(error)")
        }
    }()

    @Sendable static func serve(req: Request) async throws -> Response {
        Response(
            status: .ok, headers: ["Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"],
            body: .init(data: data))
    }
}
