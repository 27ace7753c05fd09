import Fluent
import Foundation
import SQLKit

/// Records a product's first start. Of several processes starting together exactly one gets `true`.
public enum BootstrapMarker {
    public static func claimFirstStart(product: String, now: Date, on db: any Database) async throws -> Bool {
        let rows = try await db.sql.raw("""
            INSERT INTO bootstrap_markers (product, created_at) VALUES (\(bind: product), \(bind: now))
            ON CONFLICT DO NOTHING RETURNING product
            """).all()
        return !rows.isEmpty
    }
}
