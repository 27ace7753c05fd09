import AppCore
import Foundation

extension IDKind {
    static let appointment = IDKind(invalidMessage: "Invalid appointment ID format")
    static let pet = IDKind(invalidMessage: "Invalid pet ID format")
    static let petOwner = IDKind(invalidMessage: "Invalid pet owner ID format")
    static let practice = IDKind(invalidMessage: "Invalid practice ID format")
    static let user = IDKind(invalidMessage: "Invalid user ID format")
    static let vetUser = IDKind(invalidMessage: "Invalid vet user ID format")
    static let medicalRecord = IDKind(invalidMessage: "Invalid medical record ID format")
    static let visit = IDKind(invalidMessage: "Invalid visit ID format")
    static let invite = IDKind(invalidMessage: "Invalid invitation ID format")
}
