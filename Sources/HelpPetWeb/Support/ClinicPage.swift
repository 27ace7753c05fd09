import Foundation
import WebConsole

/// Every page of the clinic console, the one place its paths are written (`ConsolePage`): pages register their
/// routes with `routes.get(ClinicPage.pet(.key), …)` and link with `context.url(.pet(.value(id)))`.
enum ClinicPage: ConsolePage {
    case board
    /// The day board's cards alone, which the board's script polls.
    case boardFragment
    case week
    case account
    case myPets
    case owners
    case newOwner
    case owner(PageParameter<UUID>)
    case newPet
    case pet(PageParameter<UUID>)
    case editPet(PageParameter<UUID>)
    case newRecord(pet: PageParameter<UUID>)
    case compareRecords(pet: PageParameter<UUID>)
    case amendRecord(PageParameter<UUID>)
    case appointment(PageParameter<UUID>)
    case visit(PageParameter<UUID>)
    case discharge(visit: PageParameter<UUID>)
    case adminUsers
    case adminUser(PageParameter<UUID>)
    case adminPractices
    case practiceInvites(practice: PageParameter<UUID>)

    /// Every page in its route form, for the test that the console registers exactly these pages.
    static let routes: [ClinicPage] = [
        .board, .boardFragment, .week, .account, .myPets, .owners, .newOwner, .owner(.key), .newPet, .pet(.key),
        .editPet(.key), .newRecord(pet: .key), .compareRecords(pet: .key), .amendRecord(.key), .appointment(.key),
        .visit(.key), .discharge(visit: .key), .adminUsers, .adminUser(.key), .adminPractices,
        .practiceInvites(practice: .key),
    ]

    /// The names pages read their parameters by.
    enum Key {
        static let appointment = "appointment_id"
        static let owner = "owner_id"
        static let pet = "pet_id"
        static let practice = "practice_id"
        static let record = "record_id"
        static let user = "user_id"
        static let visit = "visit_id"
    }

    var segments: [ConsolePathSegment] {
        switch self {
        case .board: []
        case .boardFragment: ["board"]
        case .week: ["week"]
        case .account: ["account"]
        case .myPets: ["my-pets"]
        case .owners: ["owners"]
        case .newOwner: ["owners", "new"]
        case .owner(let id): ["owners", .id(Key.owner, id)]
        case .newPet: ["pets", "new"]
        case .pet(let id): ["pets", .id(Key.pet, id)]
        case .editPet(let id): ["pets", .id(Key.pet, id), "edit"]
        case .newRecord(let pet): ["pets", .id(Key.pet, pet), "records", "new"]
        case .compareRecords(let pet): ["pets", .id(Key.pet, pet), "records", "compare"]
        case .amendRecord(let id): ["records", .id(Key.record, id), "amend"]
        case .appointment(let id): ["appointments", .id(Key.appointment, id)]
        case .visit(let id): ["visits", .id(Key.visit, id)]
        case .discharge(let visit): ["visits", .id(Key.visit, visit), "discharge"]
        case .adminUsers: ["admin"]
        case .adminUser(let id): ["admin", "users", .id(Key.user, id)]
        case .adminPractices: ["admin", "practices"]
        case .practiceInvites(let practice): ["admin", "practices", .id(Key.practice, practice), "invites"]
        }
    }
}
