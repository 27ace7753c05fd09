import AppCore
import Foundation
import PostgresNIO

/// `CallerScope` for prepared statements (PostgreSQL), whose SQL must be the same for every caller: the caller's
/// `Reach` is bound as two parameters, its kind (`everything`, `practice`, `owner`, `nothing`) and its subject (the
/// practice or owner id), and each condition tests the kind. The rules are `CallerScope`'s, row for row; the scope
/// tests of the API (tests/HelpPetAPITests/Access) run against both forms on PostgreSQL.
struct BoundReach: Sendable {
    let kind: String
    let subject: UUID?

    init(_ caller: Caller) {
        switch Reach(caller) {
        case .everything: (kind, subject) = ("everything", nil)
        case .practice(let practice): (kind, subject) = ("practice", practice)
        case .owner(let owner): (kind, subject) = ("owner", owner)
        case .nothing: (kind, subject) = ("nothing", nil)
        }
    }

    /// Appends the kind, then the subject: the statement's parameters `kind` and `kind + 1`.
    func bind(into bindings: inout PostgresBindings) {
        bindings.append(kind)
        if let subject { bindings.append(subject) } else { bindings.appendNull() }
    }

    /// `CallerScope.appointment`.
    static func appointment(_ alias: String, kind k: Int) -> String {
        """
        ($\(k) = 'everything' OR ($\(k) = 'practice' AND \(alias).practice_id = $\(k + 1))
            OR ($\(k) = 'owner' AND \(alias).pet_owner_id = $\(k + 1)))
        """
    }

    /// `CallerScope.pet`.
    static func pet(_ alias: String, kind k: Int) -> String {
        """
        ($\(k) = 'everything' OR ($\(k) = 'owner' AND \(alias).owner_id = $\(k + 1))
            OR ($\(k) = 'practice' AND EXISTS (SELECT 1 FROM pet_owner_practices scope_link
                WHERE scope_link.pet_owner_id = \(alias).owner_id AND scope_link.practice_id = $\(k + 1))))
        """
    }

    /// `CallerScope.visit` and `CallerScope.medicalRecord`: a row written in a practice about a pet.
    static func petScopedRecord(_ alias: String, kind k: Int) -> String {
        """
        ($\(k) = 'everything' OR ($\(k) = 'practice' AND \(alias).practice_id = $\(k + 1))
            OR ($\(k) = 'owner' AND EXISTS (SELECT 1 FROM pets scope_pet WHERE scope_pet.id = \(alias).pet_id
                AND scope_pet.owner_id = $\(k + 1))))
        """
    }

    /// `CallerScope.practiceRows`.
    static func practiceRows(_ alias: String, kind k: Int) -> String {
        "($\(k) IN ('everything', 'owner') OR ($\(k) = 'practice' AND \(alias).practice_id = $\(k + 1)))"
    }

    /// The types of the two parameters, for `bindingDataTypes`.
    static let dataTypes: [PostgresDataType] = [.text, .uuid]
}

/// A prepared read of the rows of one id as the caller may see them: `$1` the id, `$2` and `$3` the caller's reach.
protocol ScopedByID: PreparedRead {
    var id: UUID { get }
    var reach: BoundReach { get }
}

/// `ScopedByID`'s parameter types, built once: postgres-nio reads `bindingDataTypes` on every execution.
private let scopedByIDDataTypes: [PostgresDataType] = [.uuid] + BoundReach.dataTypes

extension ScopedByID {
    static var bindingDataTypes: [PostgresDataType] { scopedByIDDataTypes }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(id)
        reach.bind(into: &bindings)
        return bindings
    }
}

/// A prepared read of one page of a pet's rows as the caller may see them: `$1` the pet, `$2` and `$3` the caller's
/// reach, then the read's own filters, then the page's limit and offset.
protocol PageOfPet: PreparedRead {
    var petID: UUID { get }
    var reach: BoundReach { get }
    var limit: Int { get }
    var offset: Int { get }
    /// Binds the read's own filters, the parameters from `$4` on.
    func bindFilters(into bindings: inout PostgresBindings)
}

extension PageOfPet {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Self.bindingDataTypes.count)
        bindings.append(petID)
        reach.bind(into: &bindings)
        bindFilters(into: &bindings)
        bindings.append(limit)
        bindings.append(offset)
        return bindings
    }
}
