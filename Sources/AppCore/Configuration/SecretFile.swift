import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A random secret generated on first start and kept in `DATA_DIR` with mode 0600 (development only).
public enum SecretFile {
    public static func loadOrCreate(_ url: URL) throws -> String {
        if let existing = read(url) { return existing }
        let secret = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.map { String(format: "%02x", $0) }.joined()
        // Published with link(2), which never replaces an existing file, so two processes starting together
        // end up with the same secret.
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(
            atPath: temp.path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600])
        else { throw ConfigurationError("cannot write secret file \(url.path)") }
        defer { unlink(temp.path) }
        if link(temp.path, url.path) != 0 && errno != EEXIST {
            throw ConfigurationError("cannot write secret file \(url.path)")
        }
        guard let stored = read(url) else { throw ConfigurationError("cannot read secret file \(url.path)") }
        return stored
    }

    private static func read(_ url: URL) -> String? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.utf8.count >= 32 ? trimmed : nil
    }
}
