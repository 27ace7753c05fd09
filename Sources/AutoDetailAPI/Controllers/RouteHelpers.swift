import AppCore
import Foundation
import Vapor

extension RoutesBuilder {
    /// A route with a JSON body of at most 64 KiB (contract §1.2 rule 10; `autodetailBody()` re-checks the size,
    /// because Vapor does not apply the limit to a body that arrived in one piece).
    @discardableResult
    func jsonRoute(
        _ method: HTTPMethod, _ path: PathComponent..., use handler: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        on(method, path, body: .collect(maxSize: "64kb"), use: handler)
    }
}
