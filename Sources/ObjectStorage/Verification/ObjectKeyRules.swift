/// Which object keys the embedded store accepts (contract §7.3): no empty, `.` or `..` segment, no `\` or NUL,
/// at most 1024 bytes (S3's limit). Keys map to file paths, so these rules are what keeps every object under the
/// store root; the store checks the resulting path once more.
public enum ObjectKeyRules {
    public static let maxKeyBytes = 1024

    public static func validate(_ key: String) -> StorageError? {
        if key.isEmpty { return .invalidArgument("The object key must not be empty.") }
        if key.utf8.count > maxKeyBytes { return .keyTooLong }
        if key.utf8.contains(0) { return .invalidArgument("The object key must not contain NUL characters.") }
        if key.utf8.contains(UInt8(ascii: "\\")) { return .invalidArgument("The object key must not contain backslashes.") }
        for segment in key.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty || segment == "." || segment == ".." {
                return .invalidArgument("The object key must not contain empty, '.' or '..' segments.")
            }
        }
        return nil
    }
}
