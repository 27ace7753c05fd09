/// Characters that make a file name display as something it is not: the bidirectional embeddings, overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069) and the directional marks (U+200E, U+200F) — `invoice\u{202E}fdp.exe`
/// shows as `invoiceexe.pdf` — and the C0/C1 control characters (header splitting, terminal escapes).
public enum DisplaySafeText {
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// `text` without bidirectional controls and control characters.
    public static func stripped(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !isBidiControl($0) && !isControl($0) }))
    }
}
