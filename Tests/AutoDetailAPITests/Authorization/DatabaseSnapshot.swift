import AppCore
import Foundation
import SQLKit
import VaporTesting

/// Every row of every AutoDetail table, rendered as text: equal snapshots before and after a request mean the request
/// wrote nothing. Key-usage columns are left out: contract §2.3 counts a use for every authenticated request, a 404
/// included, and writes them in the background every 10 s, so they may change under a refused request legitimately.
struct DatabaseSnapshot: Equatable, CustomStringConvertible {
    static let tables = [
        "ad_services", "ad_studio_settings", "ad_api_keys", "ad_install_profiles", "ad_messages", "ad_appointments",
        "ad_photos", "ad_uploads", "ad_admin_users", "ad_admin_sessions", "ad_idempotency_records",
    ]
    static let usageColumns: Set<String> = ["request_count", "last_used_at", "last_seen_at", "last_activity_path"]

    var rows: [String: [String]] = [:]

    var description: String { rows.map { "\($0.key): \($0.value.count) rows" }.sorted().joined(separator: ", ") }

    /// The tables that differ from `other`.
    func changedTables(since other: DatabaseSnapshot) -> [String] {
        Self.tables.filter { rows[$0] != other.rows[$0] }
    }

    static func take(_ app: Application) async throws -> DatabaseSnapshot {
        var snapshot = DatabaseSnapshot()
        for table in tables {
            let all = try await app.db.sql.raw("SELECT * FROM \(ident: table)").all()
            snapshot.rows[table] = all.map(render).sorted()
        }
        return snapshot
    }

    /// The row's columns in name order, each value decoded as the first type that fits (the drivers refuse
    /// mismatching types, so the same value always renders the same way on one engine).
    static func render(_ row: any SQLRow) -> String {
        row.allColumns.filter { !usageColumns.contains($0) }.sorted().map { column in
            let value: String
            if (try? row.decodeNil(column: column)) == true {
                value = "null"
            } else if let uuid = try? row.decode(column: column, as: UUID.self) {
                value = uuid.uuidString
            } else if let date = try? row.decode(column: column, as: Date.self) {
                value = "\(date.timeIntervalSince1970)"
            } else if let text = try? row.decode(column: column, as: String.self) {
                value = text
            } else if let number = try? row.decode(column: column, as: Int64.self) {
                value = "\(number)"
            } else if let number = try? row.decode(column: column, as: Double.self) {
                value = "\(number)"
            } else if let flag = try? row.decode(column: column, as: Bool.self) {
                value = "\(flag)"
            } else if let bytes = try? row.decode(column: column, as: Data.self) {
                value = bytes.base64EncodedString()
            } else {
                value = "?"
            }
            return "\(column)=\(value)"
        }.joined(separator: "|")
    }
}
