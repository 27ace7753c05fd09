// The data models of the seed (`seeds/004_6c1f7f61aabebd97.txt`, section "Data Models"), copied verbatim. The tests
// decode live responses into them with a bare `JSONDecoder()`, as the seed's app does (contract §9.1).

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
    let source: String // "ios"
    let status: String // "new", "confirmed", "done", etc.
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
