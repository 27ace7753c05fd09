import AppCore
import Fluent
import Foundation

extension PracticeStore {
    /// `GET /practices`: the practices the caller may see (ADMIN all, staff their own, an owner the practices they are
    /// a client of, a pending user none), by name then id, with the total.
    func list(for caller: Caller, isActive: Bool?, page: Pagination) async throws
        -> (practices: [Practice], total: Int)
    {
        let builder = Practice.query(on: db)
        switch caller.role {
        case .admin: break
        case .vet, .vetStaff: builder.filter(\.$id == (caller.practiceID ?? UUID()))
        case .petOwner:
            builder.join(PetOwnerPractice.self, on: \Practice.$id == \PetOwnerPractice.$id.$practiceID)
                .filter(PetOwnerPractice.self, \.$id.$petOwnerID == (caller.petOwnerID ?? UUID()))
        case .pending: return ([], 0)
        }
        if let isActive { builder.filter(\.$isActive == isActive) }
        let total = try await builder.count()
        return (try await builder.sort(\.$name).sort(\.$id).range(page.range).all(), total)
    }

    /// The public directory: active practices (only those accepting new patients when asked), by name then id.
    func directory(acceptingOnly: Bool, page: Pagination) async throws
        -> (practices: [Practice], total: Int)
    {
        let builder = Practice.query(on: db).filter(\.$isActive == true)
        if acceptingOnly { builder.filter(\.$acceptsNewPatients == true) }
        let total = try await builder.count()
        return (try await builder.sort(\.$name).sort(\.$id).range(page.range).all(), total)
    }

    /// A practice a user may ask to join: an existing, active one (the directory lists no other); nil otherwise.
    func joinable(_ id: UUID) async throws -> Practice? {
        guard let practice = try await Practice.find(id, on: db), practice.isActive else { return nil }
        return practice
    }

    func insert(_ practice: Practice) async throws {
        try await practice.create(on: db)
    }

    /// Saves the changed fields of a practice read with `find`.
    func save(_ practice: Practice) async throws {
        try await practice.update(on: db)
    }

    /// The practice as a tracked model, for `save` to write only what changed.
    func forUpdate(_ id: UUID) async throws -> Practice? {
        try await Practice.find(id, on: db)
    }

    /// Creates a practice and makes its pending creator a member, in one write transaction; false (nothing written)
    /// when the user is no longer pending. The condition on the user makes two concurrent creates (or an ADMIN's
    /// approval meanwhile) leave one membership: the losing transaction rolls its practice back.
    func createAndAdmitCreator(
        _ practice: Practice, creator: UUID, role: UserRole, now: Date
    ) async throws -> Bool {
        do {
            try await db.writeTransaction { tx in
                try await practice.create(on: tx)
                guard try await UserStore(db: tx).admitPendingUser(creator, role: role, practiceID: practice.id!, now: now)
                else { throw CreatorNotPending() }
            }
            return true
        } catch is CreatorNotPending {
            return false
        }
    }

    private struct CreatorNotPending: Error {}
}
