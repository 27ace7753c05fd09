import AppCore
import Foundation
import Vapor

/// Serves `/openapi.json`, the OpenAPI 3.1 description of this API. The source is `Resources/openapi.yaml`, edited by
/// hand next to the code; it is converted to JSON once, on first use (at start, when the route is registered).
enum OpenAPIDocument {
    static let data: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            fatalError("Resources/openapi.yaml is missing from the HelpPetAPI bundle")
        }
        do {
            return try YAMLOpenAPIDocument(contentsOf: url).json
        } catch {
            // A broken document is a build mistake that OpenAPIRouteCoverageTests catches; never serve half of one.
            fatalError("Resources/openapi.yaml cannot be read: \(error)")
        }
    }()

    @Sendable static func serve(req: Request) async throws -> Response {
        Response(status: .ok, headers: ["Content-Type": "application/json; charset=utf-8"], body: .init(data: data))
    }
}
