import Foundation

/// Human formats both CLIs use; each CLI adds its product's own (times, prices) in an extension.
package enum Format {
    package static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// `text` on one line, cut to `width` characters with an ellipsis.
    package static func truncate(_ text: String, _ width: Int) -> String {
        let single = text.replacingOccurrences(of: "\n", with: " ")
        return single.count <= width ? single : String(single.prefix(max(0, width - 1))) + "…"
    }
}
