import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Output helpers of both CLIs: stdout for results, stderr for progress and errors, TTY detection, password prompts.
package enum Terminal {
    package static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }
    package static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }
    package static var stdinIsTTY: Bool { isatty(STDIN_FILENO) == 1 }

    package static func out(_ text: String) {
        print(text)
    }

    package static func error(_ text: String) {
        fflush(nil)
        FileHandle.standardError.write(Data(("error: " + text + "\n").utf8))
    }

    /// Progress and notices on stderr (never mixed into the results on stdout).
    package static func note(_ text: String, newline: Bool = true) {
        fflush(nil)
        FileHandle.standardError.write(Data((text + (newline ? "\n" : "")).utf8))
    }

    package static func flush() {
        fflush(nil)
    }

    /// Reads one line from the terminal (prompt on it). Nil when stdin is not a terminal: scripts never block on
    /// a prompt.
    package static func prompt(_ text: String) -> String? {
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
    package static func readSecret(_ text: String) -> String? {
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
