import Foundation

/// A decoded POST policy: `expiration` and the conditions as S3 understands them.
struct PolicyDocument {
    enum Condition {
        case equals(field: String, value: String)
        case startsWith(field: String, prefix: String)
        case contentLengthRange(min: Int64, max: Int64)
    }

    var expiration: Date
    var conditions: [Condition]

    /// Parses the base64 `policy` field. Only called after the signature matched, so a failure here means a
    /// malformed document from the key holder: S3's 400 `InvalidPolicyDocument`.
    static func parse(base64 text: String) throws(StorageError) -> PolicyDocument {
        var padded = text
        while padded.utf8.count % 4 != 0 { padded += "=" }
        guard let data = Data(base64Encoded: padded) else { throw .invalidPolicyDocument("Policy is not valid base64.") }
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw .invalidPolicyDocument("Policy is not a JSON object.")
        }
        guard let expirationText = root["expiration"] as? String, let expiration = AmzDate.parseISO8601(expirationText) else {
            throw .invalidPolicyDocument("Policy has an invalid 'expiration' field.")
        }
        guard let rawConditions = root["conditions"] as? [Any] else {
            throw .invalidPolicyDocument("Policy has an invalid 'conditions' field.")
        }
        var conditions: [Condition] = []
        for raw in rawConditions {
            if let object = raw as? [String: Any] {
                for (field, value) in object {
                    guard let value = value as? String else {
                        throw .invalidPolicyDocument("Condition for '\(field)' must have a string value.")
                    }
                    conditions.append(.equals(field: field, value: value))
                }
            } else if let list = raw as? [Any], let op = (list.first as? String)?.lowercased() {
                conditions.append(try parseList(op: op, list: list))
            } else {
                throw .invalidPolicyDocument("Invalid condition in 'conditions'.")
            }
        }
        return PolicyDocument(expiration: expiration, conditions: conditions)
    }

    private static func parseList(op: String, list: [Any]) throws(StorageError) -> Condition {
        guard list.count == 3 else { throw .invalidPolicyDocument("Condition '\(op)' must have three elements.") }
        if op == "content-length-range" {
            guard let min = integer(list[1]), let max = integer(list[2]), min >= 0, min <= max else {
                throw .invalidPolicyDocument("Invalid content-length-range.")
            }
            return .contentLengthRange(min: min, max: max)
        }
        guard let reference = list[1] as? String, reference.hasPrefix("$"), let value = list[2] as? String else {
            throw .invalidPolicyDocument("Condition '\(op)' must reference a field as \"$name\" and compare it with a string.")
        }
        let field = String(reference.dropFirst())
        switch op {
        case "eq": return .equals(field: field, value: value)
        case "starts-with": return .startsWith(field: field, prefix: value)
        default: throw .invalidPolicyDocument("Unknown condition '\(op)'.")
        }
    }

    /// Integers as JSON numbers or numeric strings (both occur in the wild).
    private static func integer(_ value: Any) -> Int64? {
        if let text = value as? String { return Int64(text) }
        if let number = value as? NSNumber {
            let double = number.doubleValue
            guard double == double.rounded(), abs(double) < 9e15 else { return nil }
            return Int64(double)
        }
        return nil
    }
}
