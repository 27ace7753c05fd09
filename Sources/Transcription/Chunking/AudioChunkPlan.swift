import Foundation

/// Where a long recording is cut so it can be transcribed chunk by chunk with visible progress: near every
/// `chunkSeconds`, at the quietest 100 ms within `searchSeconds` of that point, so a cut falls into a pause rather
/// than through a word. A recording shorter than 1.25 chunks is one chunk.
struct AudioChunkPlan {
    /// Sample ranges, in order, covering the whole recording without gaps or overlap.
    let chunks: [Range<Int>]

    static func make(_ wave: PCMWave, chunkSeconds: Double, searchSeconds: Double = 10) throws -> AudioChunkPlan {
        let rate = Double(PCMWave.sampleRate)
        let chunk = Int(chunkSeconds * rate)
        let total = wave.sampleCount
        guard chunk > 0, Double(total) > Double(chunk) * 1.25 else { return AudioChunkPlan(chunks: [0..<total]) }
        var cuts: [Int] = []
        var nominal = chunk
        while Double(total - nominal) > Double(chunk) * 0.25 {
            let search = Int(searchSeconds * rate)
            let from = max((cuts.last ?? 0) + chunk / 2, nominal - search)
            let to = min(total - chunk / 4, nominal + search)
            cuts.append(from < to ? try quietest(wave, in: from..<to, target: nominal) : nominal)
            nominal = cuts.last! + chunk
        }
        let bounds = [0] + cuts + [total]
        return AudioChunkPlan(chunks: zip(bounds, bounds.dropFirst()).map { $0..<$1 })
    }

    /// The middle of the quietest 100 ms frame in `range`; among frames about as quiet as the quietest (within a
    /// factor of 2, as digital silence or a steady noise floor are), the one closest to `target`, so a long pause is
    /// cut near the chunk length rather than at its start.
    static func quietest(_ wave: PCMWave, in range: Range<Int>, target: Int) throws -> Int {
        let frame = PCMWave.sampleRate / 10
        let samples = try wave.samples(from: range.lowerBound, count: range.count)
        var frames: [(energy: Double, at: Int)] = []
        var start = 0
        while start + frame <= samples.count {
            var energy = 0.0
            for sample in samples[start..<(start + frame)] { energy += Double(sample) * Double(sample) }
            frames.append((energy / Double(frame), range.lowerBound + start + frame / 2))
            start += frame
        }
        guard let minimum = frames.map(\.energy).min() else { return target }
        let quiet = frames.filter { $0.energy <= minimum * 2 + 1 }
        return quiet.min { abs($0.at - target) < abs($1.at - target) }?.at ?? target
    }
}
