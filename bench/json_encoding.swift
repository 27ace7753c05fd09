// How long Foundation's JSONEncoder takes for one hot-read-sized response (a 1 KB appointment with three pets),
// configured as the server's encoder (JSONCoding: slashes unescaped, dates through a custom strategy), a new encoder
// per call as JSONResponse makes it. Prints microseconds per encode.
//
//   swiftc -O bench/json_encoding.swift -o /tmp/json_encoding && /tmp/json_encoding [iterations]
import Foundation

struct Pet: Encodable {
    let id, name, species: String
    let breed: String?
    let weight: Double?
    let createdAt: Date
    let ownerId: String
    enum CodingKeys: String, CodingKey { case id, name, species, breed, weight, createdAt = "created_at", ownerId = "owner_id" }
}

struct Appointment: Encodable {
    let id, practiceId, petOwnerId, title: String
    let description: String?
    let status: String
    let appointmentDate: Date
    let durationMinutes: Int
    let pets: [Pet]
    let notes: String?
    let createdAt, updatedAt: Date
    enum CodingKeys: String, CodingKey {
        case id, practiceId = "practice_id", petOwnerId = "pet_owner_id", title, description, status
        case appointmentDate = "appointment_date", durationMinutes = "duration_minutes", pets, notes
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

func serverEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { _, encoder in
        var container = encoder.singleValueContainer()
        try container.encode("2026-11-27T10:00:00Z")
    }
    return encoder
}

let now = Date()
let pets = (0..<3).map {
    Pet(id: UUID().uuidString, name: "Bella \($0)", species: "dog", breed: "Labrador", weight: 22.5, createdAt: now,
        ownerId: UUID().uuidString)
}
let appointment = Appointment(
    id: UUID().uuidString, practiceId: UUID().uuidString, petOwnerId: UUID().uuidString, title: "Checkup",
    description: "Annual checkup for all the pets", status: "scheduled", appointmentDate: now, durationMinutes: 30,
    pets: pets, notes: nil, createdAt: now, updatedAt: now)

let iterations = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 50_000 : 50_000
var bytes = 0
let start = Date()
for _ in 0..<iterations { bytes &+= try! serverEncoder().encode(appointment).count }
let seconds = Date().timeIntervalSince(start)
print(String(format: "%d encodes of %d bytes: %.1f µs each", iterations, bytes / iterations, seconds / Double(iterations) * 1e6))
