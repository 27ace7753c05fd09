import Foundation

/// How far a caller's sight reaches: the one place that decides who may see which practice's rows (contract §2.5).
/// The API's lookups, its list queries and the clinic console all scope their statements with this value
/// (`CallerScope` turns it into SQL), so a rule changed here changes everywhere at once.
///
/// What each reach sees:
/// - `everything` (ADMIN): every practice, owner, pet, appointment, visit and record.
/// - `practice` (VET, VET_STAFF): their current practice; the owners who are its clients and those owners' pets; the
///   appointments, visits and medical records written in it. Reloaded on every request, so a member who moves away
///   stops seeing the old practice at once.
/// - `owner` (PET_OWNER): their own record, their pets, their appointments, the visits and records of their pets, and
///   the practices they are a client of.
/// - `nothing` (PENDING, a member without a practice, an owner without a record): no row at all.
///
/// A row outside the reach is answered exactly like a missing one (404), so nobody learns what exists elsewhere.
enum Reach: Equatable, Sendable {
    case everything
    case practice(UUID)
    case owner(UUID)
    case nothing

    init(role: UserRole, practiceID: UUID?, petOwnerID: UUID?) {
        switch role {
        case .admin: self = .everything
        case .vet, .vetStaff: self = practiceID.map(Reach.practice) ?? .nothing
        case .petOwner: self = petOwnerID.map(Reach.owner) ?? .nothing
        case .pending: self = .nothing
        }
    }

    init(_ caller: Caller) {
        self.init(role: caller.role, practiceID: caller.practiceID, petOwnerID: caller.petOwnerID)
    }
}
