import Vapor

/// Which response shapes a request gets. The shipped iPhone app decodes two keys with types that conflict with
/// seed 003, so requests that identify as that app get its shapes (LegacyResponseMapping); everyone else gets the
/// contract's. Nothing else depends on the profile.
enum ClientProfile: Equatable, Sendable {
    case standard
    case iosLegacy

    static let headerName = "X-HelpPet-Client"
    static let userAgentProduct = "HelpPetAI"

    /// `X-HelpPet-Client: ios-legacy`, or a `User-Agent` whose first product token is `HelpPetAI` (with or without
    /// `/version`: iOS sends `HelpPetAI/<build> CFNetwork/… Darwin/…`, other Foundation builds
    /// `HelpPetAI (unknown version) …`).
    init(headers: HTTPHeaders) {
        if let client = headers.first(name: Self.headerName),
            client.trimmingCharacters(in: .whitespaces).lowercased() == "ios-legacy"
        {
            self = .iosLegacy
            return
        }
        if let agent = headers.first(name: .userAgent), Self.firstProductName(of: agent) == Self.userAgentProduct {
            self = .iosLegacy
            return
        }
        self = .standard
    }

    /// The name of the first product token: the text before the first space, `/` or `(`.
    static func firstProductName(of userAgent: String) -> Substring {
        let trimmed = userAgent.drop(while: { $0 == " " || $0 == "\t" })
        return trimmed.prefix(while: { $0 != " " && $0 != "\t" && $0 != "/" && $0 != "(" })
    }
}
