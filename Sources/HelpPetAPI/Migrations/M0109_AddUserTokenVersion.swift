import AppCore
import Fluent
import SQLKit

/// Contract §2.1: the user's token version, carried by every token as `ver`. Existing users start at 0; a token
/// minted before this migration has no `ver` and is refused, which only asks its user to log in again.
struct M0109_AddUserTokenVersion: AsyncMigration {
    var name: String { "M0109_AddUserTokenVersion" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("ALTER TABLE users ADD COLUMN token_version \(unsafeRaw: t.int) NOT NULL DEFAULT 0").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("ALTER TABLE users DROP COLUMN token_version").run()
    }
}
