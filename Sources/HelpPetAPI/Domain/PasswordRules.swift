import AppCore

/// What a HelpPet password must be (contract §4.2): 8 to 72 bytes of UTF-8, the most bcrypt reads.
enum PasswordRules {
    static let bytes = 8...72

    static func check(_ password: String, field: String) throws {
        guard bytes.contains(password.utf8.count) else {
            throw APIError.badRequest("\(field) must be between \(bytes.lowerBound) and \(bytes.upperBound) bytes")
        }
    }
}
