import Foundation
import Vapor

extension Request {
    /// A path parameter that must be a canonical UUID. What a malformed one gets is the product's rule: HelpPet
    /// answers 400 with the id kind's message, AutoDetail Hub the resource's 404.
    public func pathID(_ name: String, malformed: APIError) throws -> UUID {
        guard let raw = parameters.get(name), let id = UUID(canonical: raw) else { throw malformed }
        return id
    }

    /// HelpPet's form: 400 with the message of the id's kind ("Invalid visit ID format").
    public func pathID(_ name: String, _ kind: IDKind) throws -> UUID {
        try pathID(name, malformed: .badRequest(kind.invalidMessage))
    }
}
