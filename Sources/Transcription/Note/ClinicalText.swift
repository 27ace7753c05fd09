import Foundation

/// The spoken forms a vet uses, rewritten into the forms the extractor reads: numbers as digits (SpokenNumbers),
/// a leading "point five" before a unit as 0.5, spelled-out Latin abbreviations ("b i d", "b.i.d.") as one word.
enum ClinicalText {
    static func normalize(_ text: String) -> String {
        var out = SpokenNumbers.normalize(
            text.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces))
        // British spellings the recogniser also writes: "kilogrammes", "milligramme" are the extractor's units.
        out = replace(#"\b(kilo|milli|micro)?gramme(s?)\b"#, in: out) { groups in groups[1].lowercased() + "gram" + groups[2] }
        // "sixty-two point five" written as "60 2.5": a ten followed by a single digit is one spoken number.
        out = replace(#"\b([2-9]0) ([1-9](?:\.\d{1,3})?)\b(?!\s*(?:to|or|-)\s*\d)"#, in: out) { groups in
            let sum = Double(groups[1])! + Double(groups[2])!
            return sum == sum.rounded() ? String(Int(sum)) : String(sum)
        }
        // Whisper sometimes writes digits around a spoken "point": "4 point 5 kilograms".
        out = replace(#"\b(\d{1,4}) point (\d{1,3})\b"#, in: out) { groups in groups[1] + "." + groups[2] }
        // "point five milliliters": SpokenNumbers only reads "point" after a number; here a unit must follow, so
        // "at this point two dogs" stays as it is. "four point five kilograms" is often written "for point 5" or
        // "for a point 5": "for point" is no English, so that "for" is the four ("to point" is English, "down to
        // point five milliliters", and stays a bare point).
        out = replace(#"\b(for (?:a )?)?point ((?:\d\s?){1,3})\s*(?=(?:ml|milliliters?|millilitres?|mg|milligrams?|cc|mcg|kg|kilos?|kilograms?|grams?|g)\b)"#,
                      in: out) { groups in
            (groups[1].isEmpty ? "0." : "4.") + groups[2].replacingOccurrences(of: " ", with: "") + " "
        }
        // "b i d", "b.i.d.", "s.i.d", "q 8 h" → bid, sid, q8h.
        out = replace(#"\b([bstq])[ .]?i[ .]?d\b\.?"#, in: out) { groups in groups[1].lowercased() + "id" }
        out = replace(#"\bq\s?(\d{1,2})\s?h(?:rs?|ours?)?\b\.?"#, in: out) { groups in "q\(groups[1])h" }
        return out
    }

    /// Every match of `pattern` (case-insensitive) replaced by `transform` of its groups (index 0 = whole match).
    static func replace(_ pattern: String, in text: String, _ transform: ([String]) -> String) -> String {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return text }
        let ns = text as NSString
        var result = ""
        var last = 0
        for match in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            result += ns.substring(with: NSRange(location: last, length: match.range.location - last))
            let groups = (0..<match.numberOfRanges).map { i -> String in
                let r = match.range(at: i)
                return r.location == NSNotFound ? "" : ns.substring(with: r)
            }
            result += transform(groups)
            last = match.range.location + match.range.length
        }
        result += ns.substring(from: last)
        return result
    }

    /// Every match's groups, in order (index 0 = whole match; "" for a group that did not take part).
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            (0..<match.numberOfRanges).map { i in
                let r = match.range(at: i)
                return r.location == NSNotFound ? "" : ns.substring(with: r)
            }
        }
    }

    /// Every match's groups with the match's start (in UTF-16 units, to compare matches of one text).
    static func matchesWithPositions(_ pattern: String, in text: String) -> [(position: Int, groups: [String])] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            (match.range.location, (0..<match.numberOfRanges).map { i in
                let r = match.range(at: i)
                return r.location == NSNotFound ? "" : ns.substring(with: r)
            })
        }
    }

    /// The text cut at every match of `pattern` (the separators dropped), pieces trimmed, empty ones left out.
    static func split(_ text: String, at pattern: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return [text] }
        let ns = text as NSString
        var pieces: [String] = []
        var last = 0
        for match in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            pieces.append(ns.substring(with: NSRange(location: last, length: match.range.location - last)))
            last = match.range.location + match.range.length
        }
        pieces.append(ns.substring(from: last))
        return pieces.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func firstMatch(_ pattern: String, in text: String) -> [String]? { matches(pattern, in: text).first }

    /// The first occurrence of `word` in `text` that stands as a whole word (no letter or digit on either side).
    static func wordRange(of word: String, in text: String) -> Range<String.Index>? {
        var searchStart = text.startIndex
        while let r = text.range(of: word, range: searchStart..<text.endIndex) {
            let before = r.lowerBound == text.startIndex ? nil : text[text.index(before: r.lowerBound)]
            let after = r.upperBound == text.endIndex ? nil : text[r.upperBound]
            let isBoundary: (Character?) -> Bool = { c in c.map { !$0.isLetter && !$0.isNumber } ?? true }
            if isBoundary(before) && isBoundary(after) { return r }
            searchStart = r.upperBound
        }
        return nil
    }
}
