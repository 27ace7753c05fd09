import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Output helpers: stdout for results, stderr for progress and errors, TTY detection, password prompts.
/// (The same helpers as the `helppet` CLI's: each CLI depends only on its own kit.)
enum Terminal {
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }
    static var stdinIsTTY: Bool { isatty(STDIN_FILENO) == 1 }

    static func out(_ text: String) {
        print(text)
    }

    static func error(_ text: String) {
        fflush(nil)
        FileHandle.standardError.write(Data(("error: " + text + "\n").utf8))
    }

    /// Progress and notices on stderr (never mixed into the results on stdout).
    static func note(_ text: String, newline: Bool = true) {
        fflush(nil)
        FileHandle.standardError.write(Data((text + (newline ? "\n" : "")).utf8))
    }

    static func flush() {
        fflush(nil)
    }

    /// Reads one line from the terminal (prompt on it). Nil when stdin is not a terminal: scripts never block on
    /// a prompt.
    static func prompt(_ text: String) -> String? {
        guard stdinIsTTY else { return nil }
        if let tty = fopen("/dev/tty", "r+") {
            defer { fclose(tty) }
            fputs(text, tty)
            fflush(tty)
            return readLine(from: tty)
        }
        return nil
    }

    /// Reads a secret from the terminal with echo switched off. Nil when stdin is not a terminal.
    static func readSecret(_ text: String) -> String? {
        guard stdinIsTTY, let tty = fopen("/dev/tty", "r+") else { return nil }
        defer { fclose(tty) }
        let fd = fileno(tty)
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { return nil }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ICANON)
        fputs(text, tty)
        fflush(tty)
        tcsetattr(fd, TCSAFLUSH, &silent)
        let line = readLine(from: tty)
        tcsetattr(fd, TCSAFLUSH, &original)
        fputs("\n", tty)
        fflush(tty)
        return line
    }

    private static func readLine(from file: UnsafeMutablePointer<FILE>) -> String? {
        var bytes: [UInt8] = []
        while true {
            let c = fgetc(file)
            if c == EOF { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if c == 10 { break }
            bytes.append(UInt8(truncatingIfNeeded: c))
        }
        if bytes.last == 13 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Human formats.
enum Format {
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// An instant from the server (`2025-03-14T08:00:00Z`) as `2025-03-14 11:00 GMT+3` in `timeZone` (the machine's zone
    /// when nil); the text unchanged when it does not parse.
    static func instant(_ iso: String, timeZone: TimeZone? = nil) -> String {
        guard let date = ISO8601DateFormatter().date(from: iso) else { return iso }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone ?? .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm zzz"
        return formatter.string(from: date)
    }

    /// Roubles with thin grouping: `12 000 ₽`.
    static func rub(_ amount: Int) -> String {
        var digits = String(amount)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        return groups.joined(separator: " ") + " RUB"
    }

    static func truncate(_ text: String, _ width: Int) -> String {
        let single = text.replacingOccurrences(of: "\n", with: " ")
        return single.count <= width ? single : String(single.prefix(max(0, width - 1))) + "…"
    }
}

/// A plain-text table with a header row; columns padded to their widest cell.
struct Table {
    var headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) { self.headers = headers }

    mutating func add(_ cells: String...) { rows.append(cells) }

    func render() -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }
}

/// Key/value lines, keys padded.
func keyValues(_ pairs: [(String, String)]) -> String {
    let width = pairs.map(\.0.count).max() ?? 0
    return pairs.map { "\($0.0.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.1)" }.joined(separator: "\n")
}
