import Foundation

// Verbatim copies of the iOS guide's (the seed's) models, decoded with a default `JSONDecoder` against live
// responses: what an app written from the seed would do. AutoDetailKit's own models must decode the same bodies.
enum Seed {
    struct Service: Codable {
        let id: String
        let name: String
        let description: String
        let priceRub: Int
        let durationMinutes: Int
        let imageUrl: String?
        let createdAt: String
    }

    struct Appointment: Codable {
        let id: String
        let source: String  // "ios"
        let status: String  // "new", "confirmed", "done", etc.
        let startIso: String
        let endIso: String?
        let clientName: String
        let phone: String?
        let telegram: String?
        let carMake: String?
        let carPlate: String?
        let serviceName: String
        let notes: String?
        let workPhotos: [Photo]
        let defectPhotos: [Photo]
        let createdAt: String
        let updatedAt: String
    }

    struct Photo: Codable {
        let id: String
        let url: String
        let createdAt: String
    }
}
