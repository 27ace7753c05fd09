import Foundation

/// A transcript's sentences, each with the segments (and so the seconds of audio) it was read from. Engines cut
/// segments at pauses, not at sentence ends: one sentence may span two segments, one segment may hold three
/// sentences; a sentence's sources are every segment its characters came from.
struct SourcedSentence: Sendable, Equatable {
    var text: String
    var sources: [ClinicalNote.SourceSpan]
}

enum TranscriptSentences {
    static func split(_ segments: [TranscriptSegment]) -> [SourcedSentence] {
        // Numbers are normalised per segment (an engine never splits "one hundred and two" across a pause it
        // heard), then the segments are joined with one space and each keeps its character range.
        var text = ""
        var ranges: [(range: Range<Int>, span: ClinicalNote.SourceSpan)] = []
        for segment in segments {
            let piece = ClinicalText.normalize(segment.text)
            guard !piece.isEmpty else { continue }
            if !text.isEmpty { text += " " }
            let start = text.count
            text += piece
            ranges.append((start..<text.count, .init(start: segment.start, end: segment.end)))
        }
        let characters = Array(text)
        var sentences: [SourcedSentence] = []
        var sentenceStart = 0
        func close(at end: Int) {
            let raw = String(characters[sentenceStart..<end])
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty {
                let spans = ranges.filter { $0.range.overlaps(sentenceStart..<end) }.map(\.span)
                sentences.append(SourcedSentence(text: trimmed, sources: spans))
            }
            sentenceStart = end
        }
        for index in characters.indices where ".!?".contains(characters[index]) {
            // A full stop inside a number ("102.5") or an abbreviation followed by a letter does not end a sentence.
            if index + 1 == characters.count || characters[index + 1] == " " { close(at: index + 1) }
        }
        if sentenceStart < characters.count { close(at: characters.count) }
        return sentences
    }
}
