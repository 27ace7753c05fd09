import Foundation

/// Rewrites spoken numbers as digits ("one hundred and two point five" → "102.5", "twenty-five" → "25"),
/// so the draft summary reads the same values whether an engine wrote digits or words.
enum SpokenNumbers {
    static let units: [String: Int] = [
        "zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
        "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    ]
    static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    ]

    static func isNumberWord(_ w: String) -> Bool {
        (units[w] != nil && w != "oh") || tens[w] != nil || w == "hundred" || w == "thousand"
    }

    /// Token-wise rewrite; punctuation other than hyphens ends a number.
    static func normalize(_ text: String) -> String {
        let tokens = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var out: [String] = []
        var i = 0
        while i < tokens.count {
            guard let (value, consumed, trailing) = readNumber(tokens, from: i) else {
                out.append(tokens[i])
                i += 1
                continue
            }
            out.append(value + trailing)
            i += consumed
        }
        return out.joined(separator: " ")
    }

    /// Splits a token into its lowercase word (hyphen parts) and its trailing punctuation.
    static func parts(_ token: String) -> (words: [String], trailing: String)? {
        var core = Substring(token)
        var trailing = ""
        while let last = core.last, ",.;:!?".contains(last) {
            trailing = String(last) + trailing
            core = core.dropLast()
        }
        let words = core.lowercased().split(separator: "-").map(String.init)
        guard !words.isEmpty else { return nil }
        return (words, trailing)
    }

    static func readNumber(_ tokens: [String], from start: Int) -> (String, Int, String)? {
        var total = 0
        var current = 0
        var sawNumber = false
        var index = start
        var trailing = ""
        var decimals = ""
        var lastWasNumber = false
        while index < tokens.count {
            guard let (words, punct) = parts(tokens[index]) else { break }
            if words == ["and"], sawNumber, current % 100 == 0, current > 0 || total > 0, index + 1 < tokens.count,
                let next = parts(tokens[index + 1]), next.words.allSatisfy({ units[$0] != nil || tens[$0] != nil })
            {
                index += 1
                continue
            }
            if words == ["point"], sawNumber, index + 1 < tokens.count, let next = parts(tokens[index + 1]),
                next.words.allSatisfy({ units[$0] != nil })
            {
                // Digits after "point" are read one by one ("point two five" → .25).
                var j = index + 1
                while j < tokens.count, let p = parts(tokens[j]), p.words.count == 1, let d = units[p.words[0]], d < 10 {
                    decimals += String(d)
                    trailing = p.trailing
                    j += 1
                    if !p.trailing.isEmpty { break }
                }
                index = j
                break
            }
            guard words.allSatisfy(isNumberWord) else { break }
            // "two three" is not one number: a unit directly after a unit or ten-plus-unit ends the run.
            if lastWasNumber, let first = words.first, units[first] != nil, current % 10 != 0 || (current % 100 >= 10 && current % 100 < 20) {
                break
            }
            if lastWasNumber, let first = words.first, tens[first] != nil, current % 100 != 0 { break }
            for w in words {
                if let u = units[w] {
                    current += u
                } else if let t = tens[w] {
                    current += t
                } else if w == "hundred" {
                    current = max(current, 1) * 100
                } else if w == "thousand" {
                    total += max(current, 1) * 1000
                    current = 0
                }
            }
            sawNumber = true
            lastWasNumber = true
            trailing = punct
            index += 1
            if !punct.isEmpty { break }
        }
        guard sawNumber else { return nil }
        var text = String(total + current)
        if !decimals.isEmpty { text += "." + decimals }
        return (text, index - start, trailing)
    }
}
