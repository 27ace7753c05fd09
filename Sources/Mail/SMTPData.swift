/// The DATA payload (RFC 5321 §4.5.2): CRLF line ends everywhere, a leading `.` doubled, and the terminating
/// `CRLF.CRLF`.
public enum SMTPData {
    public static func encode(_ message: String) -> String {
        var lines = LineEndings.lines(message)
        // A message ending in CRLF yields one empty last element; the terminator supplies that CRLF.
        if lines.last == "" { lines.removeLast() }
        let stuffed = lines.map { $0.hasPrefix(".") ? "." + $0 : $0 }
        return stuffed.map { $0 + "\r\n" }.joined() + ".\r\n"
    }
}
