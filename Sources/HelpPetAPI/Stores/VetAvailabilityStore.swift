import AppCore
import Fluent
import Foundation

/// Every statement on `vet_availability`: a vet's working windows, stored as UTC instants.
struct VetAvailabilityStore: Sendable {
    let db: any Database

    /// The vet's active windows in the practice that overlap `range`, by start then id.
    func activeWindows(vet vetID: UUID, practice practiceID: UUID, overlapping range: Range<Date>) async throws
        -> [VetAvailability]
    {
        try await VetAvailability.query(on: db)
            .filter(\.$vetUserID == vetID)
            .filter(\.$practiceID == practiceID)
            .filter(\.$isActive == true)
            .filter(\.$startAt < range.upperBound)
            .filter(\.$endAt > range.lowerBound)
            .sort(\.$startAt).sort(\.$id)
            .all()
    }

    func find(_ id: UUID) async throws -> VetAvailability? {
        try await VetAvailability.find(id, on: db)
    }

    /// Whether another active window of the same vet overlaps `window` (half-open: touching windows do not overlap).
    func overlapsAnother(_ window: VetAvailability) async throws -> Bool {
        try await VetAvailability.query(on: db)
            .filter(\.$vetUserID == window.vetUserID)
            .filter(\.$id != window.id!)
            .filter(\.$isActive == true)
            .filter(\.$startAt < window.endAt)
            .filter(\.$endAt > window.startAt)
            .first() != nil
    }

    func insert(_ window: VetAvailability) async throws {
        try await window.create(on: db)
    }

    /// Saves the changed fields of a window read as a tracked model.
    func save(_ window: VetAvailability) async throws {
        try await window.update(on: db)
    }

    func delete(_ window: VetAvailability) async throws {
        try await window.delete(on: db)
    }
}
