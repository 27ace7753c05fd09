import AsyncKit
import FluentKit
import Foundation
import NIOCore
import PostgresNIO
import SQLiteNIO

/// Classifies database errors for the error middleware and for race handling.
public enum DatabaseFailure {
    /// True when the database could not serve the request at all (down, pool timeout, SQLite busy past its timeout).
    /// Such errors answer 503 with `Retry-After: 1` on every route.
    public static func isUnavailable(_ error: any Error) -> Bool {
        if error is ConnectionPoolTimeoutError || error is ConnectionPoolError { return true }
        if error is IOError || error is ChannelError || error is NIOConnectionError { return true }
        if let sqlite = error as? SQLiteError {
            switch sqlite.reason {
            case .busy, .busyTimeout, .busyInRecovery, .busyInSnapshot, .locked, .lockedBySharedCache, .ioError,
                .cantOpen, .full:
                return true
            default: return false
            }
        }
        if let pg = error as? PSQLError {
            switch pg.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
                .sslUnsupported, .failedToAddSSLHandler:
                return true
            case .server:
                let state = pg.serverInfo?[.sqlState] ?? ""
                // Class 08 connection exceptions, 57P0x shutdown/cannot-connect, 53300 too many connections.
                return state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300"
            default: return false
            }
        }
        return false
    }

    /// True for a unique-index or primary-key violation.
    public static func isUniqueViolation(_ error: any Error) -> Bool {
        if let sqlite = error as? SQLiteError {
            return sqlite.reason == .constraintUniqueFailed || sqlite.reason == .constraintPrimaryKeyFailed
        }
        if let pg = error as? PSQLError, pg.code == .server {
            return pg.serverInfo?[.sqlState] == "23505"
        }
        return false
    }

    /// True for any constraint violation (unique, check, foreign key, not null).
    public static func isConstraintViolation(_ error: any Error) -> Bool {
        (error as? any DatabaseError)?.isConstraintFailure ?? false
    }
}
