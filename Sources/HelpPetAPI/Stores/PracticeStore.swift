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

extension PracticeStore {
    /// The practice row as the recording rules read it (its zone and consent setting); nil when it is gone.
    func practice(_ id: UUID) async throws -> Practice? {
        try await db.sql.raw("SELECT * FROM practices WHERE id = \(bind: id)").first()?.decode(fluentModel: Practice.self)
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
