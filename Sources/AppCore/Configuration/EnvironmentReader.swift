import Foundation

/// Typed access to environment variables with the validation messages `AppConfig` reports at start.
public struct EnvironmentReader: Sendable {
    public let values: [String: String]

    public init(_ values: [String: String] = ProcessInfo.processInfo.environment) { self.values = values }

    public func string(_ name: String) -> String? {
        guard let v = values[name]?.trimmingCharacters(in: .whitespaces), !v.isEmpty else { return nil }
        return v
    }

    public func int(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let raw = string(name) else { return value }
        guard let v = Int(raw), range.contains(v) else {
            throw ConfigurationError("\(name) must be an integer between \(range.lowerBound) and \(range.upperBound), got '\(raw)'")
        }
        return v
    }

    public func double(_ name: String, default value: Double, range: ClosedRange<Double>) throws -> Double {
        guard let raw = string(name) else { return value }
        guard let v = Double(raw), v.isFinite, range.contains(v) else {
            throw ConfigurationError("\(name) must be a number between \(range.lowerBound) and \(range.upperBound), got '\(raw)'")
        }
        return v
    }

    public func bool(_ name: String, default value: Bool) throws -> Bool {
        guard let raw = string(name)?.lowercased() else { return value }
        switch raw {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw ConfigurationError("\(name) must be true or false, got '\(raw)'")
        }
    }

    public func list(_ name: String) -> [String] {
        (string(name) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
