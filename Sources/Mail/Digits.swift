/// Fixed-width numbers without `String(format:)`, whose varargs differ between platforms.
enum Digits {
    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// `=XX`, quoted-printable's escape of one byte.
    static func hexEscape(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "=" + (hex.count == 1 ? "0" + hex : hex)
    }
}
