import AppCore
import Foundation
import Vapor

/// Serves `/openapi.json`, the OpenAPI 3.1 description of this API, kept as a resource next to the code.
enum OpenAPIDocument {
    static let data: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { return Data("{}".utf8) }
        return data
    }()

    @Sendable static func serve(req: Request) async throws -> Response {
        Response(status: .ok, headers: ["Content-Type": "application/json; charset=utf-8"], body: .init(data: data))
    }
}
