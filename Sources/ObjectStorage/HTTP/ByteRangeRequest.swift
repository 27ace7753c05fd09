import Foundation

/// How a `Range` header applies to an object of a given size, as S3 answers it (contract §7.4):
/// `bytes=a-b`, `bytes=a-` and `bytes=-n` select one range (206); a range starting past the end, or a zero-length
/// suffix, is unsatisfiable (416); several ranges or a header that does not parse are ignored (200 with the whole
/// object).
enum ByteRangeRequest: Equatable {
    case whole
    case partial(ClosedRange<Int64>)
    case unsatisfiable

    static func resolve(header: String?, size: Int64) -> ByteRangeRequest {
        guard let header else { return .whole }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(",") else { return .whole }
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        let first = parts[0].trimmingCharacters(in: .whitespaces), last = parts[1].trimmingCharacters(in: .whitespaces)
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit) else { return .whole }

        if first.isEmpty {
            // bytes=-n: the last n bytes.
            guard let count = Int64(last) else { return .whole }
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .partial(max(0, size - count)...(size - 1))
        }
        guard let start = Int64(first) else { return .whole }
        if last.isEmpty {
            return start < size ? .partial(start...(size - 1)) : .unsatisfiable
        }
        guard let end = Int64(last), end >= start else { return .whole }
        return start < size ? .partial(start...min(end, size - 1)) : .unsatisfiable
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
