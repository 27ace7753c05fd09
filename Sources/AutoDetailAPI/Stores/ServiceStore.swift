import AppCore
import Fluent
import Foundation
import PostgresNIO
import SQLKit

/// Every statement on `ad_services` (contract §3.1, §4.2, §4.7.3), on both engines. Reads return `ServiceRow`s
/// decoded once by SQLKit; each method is one statement.
struct ServiceStore: Sendable {
    let db: any Database

    private static let rowDecoding = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    /// The public catalogue: active services in catalogue order (§4.2.1). One statement.
    func activeCatalogue() async throws -> [ServiceRow] {
        if let rows = try await db.prepared(ActiveCatalogue(), decoding: ServiceRow.self, with: Self.rowDecoding) {
            return ServiceRow.catalogueOrder(rows)
        }
        return ServiceRow.catalogueOrder(try await db.sql.raw("""
            SELECT \(unsafeRaw: ServiceRow.columns) FROM ad_services WHERE active = \(bind: true)
            """).all(decoding: ServiceRow.self, with: Self.rowDecoding))
    }

    /// `activeCatalogue` prepared on PostgreSQL.
    private struct ActiveCatalogue: PreparedRead {
        static let sql = "SELECT \(ServiceRow.columns) FROM ad_services WHERE active"
        func makeBindings() -> PostgresBindings { PostgresBindings() }
    }

    /// The console's list: every service, or only the active/inactive ones, in catalogue order.
    func all(active: Bool?) async throws -> [ServiceRow] {
        var filter: SQLQueryString = ""
        if let active { filter = " WHERE active = \(bind: active)" }
        return ServiceRow.catalogueOrder(try await db.sql.raw(
            "SELECT \(unsafeRaw: ServiceRow.columns) FROM ad_services\(filter)"
        ).all(decoding: ServiceRow.self, with: Self.rowDecoding))
    }

    /// A service whether active or not (console).
    func find(_ id: UUID) async throws -> ServiceRow? {
        try await db.sql.raw("SELECT \(unsafeRaw: ServiceRow.columns) FROM ad_services WHERE id = \(bind: id)")
            .first(decoding: ServiceRow.self, with: Self.rowDecoding)
    }

    /// An active service (the client's view: an inactive service does not exist for clients).
    func findActive(_ id: UUID) async throws -> ServiceRow? {
        try await db.sql.raw("""
            SELECT \(unsafeRaw: ServiceRow.columns) FROM ad_services WHERE id = \(bind: id) AND active = \(bind: true)
            """).first(decoding: ServiceRow.self, with: Self.rowDecoding)
    }

    /// The active services matching an id and/or a name (matched by normalised name), in one statement: at most
    /// two rows, the caller decides what a mismatch means. With neither argument: no statement, no rows.
    func activeMatching(id: UUID?, name: String?) async throws -> (byID: ServiceRow?, byName: ServiceRow?) {
        guard id != nil || name != nil else { return (nil, nil) }
        let normalized = name.map(ServiceRow.normalizedName)
        var rows = try await db.prepared(
            ActiveMatching(id: id, normalizedName: normalized), decoding: ServiceRow.self, with: Self.rowDecoding)
        if rows == nil {
            var conditions: [SQLQueryString] = []
            if let id { conditions.append("id = \(bind: id)") }
            if let normalized { conditions.append("name_normalized = \(bind: normalized)") }
            rows = try await db.sql.raw("""
                SELECT \(unsafeRaw: ServiceRow.columns) FROM ad_services
                WHERE active = \(bind: true) AND (\(conditions.joined(separator: " OR ")))
                """).all(decoding: ServiceRow.self, with: Self.rowDecoding)
        }
        let found = rows ?? []
        return (
            id.flatMap { id in found.first { $0.id == id } },
            normalized.flatMap { n in found.first { $0.nameNormalized == n } }
        )
    }

    /// `activeMatching` prepared on PostgreSQL: a null `$1` or `$2` matches nothing (`= NULL` is never true).
    private struct ActiveMatching: PreparedRead {
        static let sql = """
            SELECT \(ServiceRow.columns) FROM ad_services WHERE active AND (id = $1 OR name_normalized = $2)
            """
        static let bindingDataTypes: [PostgresDataType] = [.uuid, .text]
        let id: UUID?
        let normalizedName: String?
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(orNull: id)
            bindings.append(orNull: normalizedName)
            return bindings
        }
    }

    /// Inserts a service; nil when an active service already has this name (the partial unique index).
    func insert(
        name: String, description: String, priceRub: Int, durationMinutes: Int, imageURL: String?, active: Bool,
        now: Date
    ) async throws -> ServiceRow? {
        try await db.sql.raw("""
            INSERT INTO ad_services (id, name, name_normalized, description, price_rub, duration_minutes, image_url,
                active, created_at, updated_at)
            VALUES (\(bind: UUID()), \(bind: name), \(bind: ServiceRow.normalizedName(name)), \(bind: description),
                \(bind: priceRub), \(bind: durationMinutes), \(bind: imageURL), \(bind: active), \(bind: now), \(bind: now))
            ON CONFLICT DO NOTHING RETURNING \(unsafeRaw: ServiceRow.columns)
            """).first(decoding: ServiceRow.self, with: Self.rowDecoding)
    }

    /// Writes every mutable field of `service` (a unique violation of the active-name index is thrown as is).
    func save(_ service: ServiceRow) async throws {
        try await db.sql.raw("""
            UPDATE ad_services SET name = \(bind: service.name), name_normalized = \(bind: service.nameNormalized),
                description = \(bind: service.description), price_rub = \(bind: service.priceRub),
                duration_minutes = \(bind: service.durationMinutes), image_url = \(bind: service.imageUrl),
                active = \(bind: service.active), updated_at = \(bind: service.updatedAt)
            WHERE id = \(bind: service.id)
            """).run()
    }
}
