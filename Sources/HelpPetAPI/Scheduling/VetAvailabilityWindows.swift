import AppCore
import Fluent
import Foundation

/// A vet's availability windows as the staff manage them: who may see which vet and window, and no two active
/// windows of one vet overlapping. A member manages the vets of their own practice, ADMIN every vet.
struct VetAvailabilityWindows: Sendable {
    let db: any Database

    static let notFound = APIError.notFound("Vet availability not found")
    static let overlap = APIError.conflict("The vet already has an availability window overlapping this time")

    /// The vet of a schedule and their practice, as the caller may see them: the vet is a member (VET or VET_STAFF)
    /// of a practice, and a member caller sees only the vets of their own practice (another practice's vet is
    /// answered like a missing one). Pet owners have no access.
    func vet(_ id: UUID, for caller: Caller) async throws -> (User, Practice) {
        try caller.requireStaff()
        guard let vet = try await UserStore(db: db).find(id), vet.role.isMember, let practiceID = vet.practiceID,
            !caller.isMember || practiceID == caller.practiceID,
            let practice = try await PracticeStore(db: db).practice(practiceID)
        else { throw APIError.vetNotFound }
        return (vet, practice)
    }

    /// The vet's active windows in the practice that overlap `range`.
    func activeWindows(vet vetID: UUID, practice practiceID: UUID, overlapping range: Range<Date>) async throws
        -> [VetAvailability]
    {
        try await VetAvailabilityStore(db: db).activeWindows(vet: vetID, practice: practiceID, overlapping: range)
    }

    /// Stores a new window unless it overlaps another active one of the vet (409).
    func create(_ window: VetAvailability) async throws {
        try await db.writeTransaction { tx in
            try await Self.refuseOverlap(window, on: tx)
            try await VetAvailabilityStore(db: tx).insert(window)
        }
    }

    /// Applies `change` to a window the caller may change, in one write transaction; the result is checked for
    /// overlaps and saved only when something changed. Returns the window as it is afterwards.
    func update(
        _ id: UUID, for caller: Caller, now: Date, change: @escaping @Sendable (VetAvailability) throws -> Void
    ) async throws -> VetAvailability {
        try await db.writeTransaction { tx -> VetAvailability in
            let window = try await Self.visibleWindow(id, for: caller, on: tx)
            try change(window)
            if window.hasChanges {
                try await Self.refuseOverlap(window, on: tx)
                window.updatedAt = now
                try await VetAvailabilityStore(db: tx).save(window)
            }
            return window
        }
    }

    func delete(_ id: UUID, for caller: Caller) async throws {
        let window = try await Self.visibleWindow(id, for: caller, on: db)
        try await VetAvailabilityStore(db: db).delete(window)
    }

    /// A window the caller may change: any for ADMIN, those of the caller's practice for members.
    private static func visibleWindow(_ id: UUID, for caller: Caller, on db: any Database) async throws
        -> VetAvailability
    {
        guard let window = try await VetAvailabilityStore(db: db).find(id),
            !caller.isMember || window.practiceID == caller.practiceID
        else { throw notFound }
        return window
    }

    /// 409 when another active window of the same vet overlaps `window`. Runs inside the write transaction; on
    /// PostgreSQL the vet's user row is locked first, so two concurrent writes for one vet are checked one after the
    /// other (SQLite has a single writer already).
    private static func refuseOverlap(_ window: VetAvailability, on db: any Database) async throws {
        guard window.isActive else { return }
        try await UserStore(db: db).lock(window.vetUserID)
        if try await VetAvailabilityStore(db: db).overlapsAnother(window) { throw overlap }
    }
}
