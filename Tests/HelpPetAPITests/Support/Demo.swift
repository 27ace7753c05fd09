import AppCore
import Foundation
import HelpPetAPI
import Vapor

/// The demo data of contract §8, as the tests refer to it. The ids are written out here (not taken from the
/// server's seed code) so the tests also check that the seed uses the contract's ids.
enum Demo {
    static let zone = TimeZone(identifier: "America/Los_Angeles")!

    static let practiceID = UUID(uuidString: "d0000000-0000-4000-8000-000000000001")!

    struct Login: Sendable {
        let id: UUID
        let username: String
        let password: String
    }

    static let admin = Login(id: UUID(uuidString: "d1000000-0000-4000-8000-000000000001")!, username: "admin", password: "admin123")
    static let vet1 = Login(id: UUID(uuidString: "d1000000-0000-4000-8000-000000000002")!, username: "vet1", password: "password123")
    static let vet2 = Login(id: UUID(uuidString: "d1000000-0000-4000-8000-000000000003")!, username: "vet2", password: "password123")
    static let owner1 = Login(id: UUID(uuidString: "d1000000-0000-4000-8000-000000000004")!, username: "owner1", password: "password123")

    /// Pet owners 1…4 (John Smith, Emily Davis, Carlos Rivera, Priya Patel); owner 1 is `owner1`'s record.
    static func owner(_ n: Int) -> UUID { UUID(uuidString: "d2000000-0000-4000-8000-00000000000\(n)")! }
    /// Pets 1…7 (Bella, Max, Mittens, Fluffy, Rocky, Luna, Charlie).
    static func pet(_ n: Int) -> UUID { UUID(uuidString: "d3000000-0000-4000-8000-00000000000\(n)")! }
    /// Medical records 1…4 (record 1 is version 1 of Bella's lineage, record 2 its current version 2).
    static func record(_ n: Int) -> UUID { UUID(uuidString: "d4000000-0000-4000-8000-00000000000\(n)")! }
    /// The manual visit transcript of Bella.
    static let visitID = UUID(uuidString: "d5000000-0000-4000-8000-000000000001")!

    /// Demo appointment `n` (1…5) of the day the application was seeded (UUIDv5 of that day, contract §8).
    static func appointmentID(_ n: Int, _ app: Application) -> UUID {
        HelpPetDemoData.appointmentID(n, day: app.seedDay)
    }

    /// Pets of demo appointment `n`, in order.
    static func appointmentPets(_ n: Int) -> [UUID] {
        switch n {
        case 1: return [pet(1), pet(2), pet(3)]
        case 2: return [pet(4)]
        case 3: return [pet(5)]
        case 4: return [pet(6)]
        default: return [pet(7)]
        }
    }
}
