import AppCore
import Fluent
import Foundation
import SQLKit

/// The SQL of the practices aggregate that the read path needs.
struct PracticeStore: Sendable {
    let db: any Database

    private struct ZoneRow: Decodable { let timezone: String }

    /// The practice's zone; nil when there is no practice.
    func zone(of id: UUID) async throws -> PracticeZone? {
        try await db.sql.raw("SELECT timezone FROM practices WHERE id = \(bind: id)")
            .first(decoding: ZoneRow.self).map { PracticeZone(identifier: $0.timezone) }
    }
}

/// A practice's zone as stored (the name answers carry) and resolved (validated on write, so it always resolves).
struct PracticeZone: Sendable {
    let identifier: String
    let zone: TimeZone

    init(identifier: String) {
        self.identifier = identifier
        zone = TimeZone.stored(identifier)
    }
}
