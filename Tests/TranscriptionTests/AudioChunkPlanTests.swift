import Foundation
import Testing

@testable import Transcription

/// Long recordings are transcribed in chunks ("long visits"): the cuts fall into pauses, near every chunk
/// length, and the chunks cover the recording exactly.
@Suite struct AudioChunkPlanTests {
    static let rate = PCMWave.sampleRate

    /// `pattern`: (seconds, loud) runs; loud is a 440 Hz tone, quiet is near-silence (a little noise).
    static func wave(_ pattern: [(Double, Bool)]) throws -> PCMWave {
        var samples: [Int16] = []
        var seed: UInt64 = 42
        for (seconds, loud) in pattern {
            for i in 0..<Int(seconds * Double(rate)) {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int16(truncatingIfNeeded: Int(seed >> 59) - 16)
                samples.append(loud ? Int16(8000 * sin(Double(i) * 2 * .pi * 440 / Double(rate))) + noise : noise)
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chunks-\(UUID().uuidString).wav")
        let raw = url.appendingPathExtension("raw")
        try samples.withUnsafeBytes { Data($0) }.write(to: raw)
        defer { try? FileManager.default.removeItem(at: raw) }
        // Through writeSlice's header writer: a canonical file of the same samples.
        let source = PCMWave(unsafeRawPCM: raw, sampleCount: samples.count)
        try source.writeSlice(0..<samples.count, to: url)
        return try PCMWave(url)
    }

    @Test func aShortRecordingIsOneChunk() throws {
        let wave = try Self.wave([(20, true)])
        defer { try? FileManager.default.removeItem(at: wave.url) }
        #expect(try AudioChunkPlan.make(wave, chunkSeconds: 20).chunks == [0..<(20 * Self.rate)])
        // Up to 1.25 chunk lengths stays whole: no 5-second tail chunk.
        #expect(try AudioChunkPlan.make(wave, chunkSeconds: 16).chunks.count == 1)
    }

    @Test func cutsFallIntoThePausesNearEachChunkLength() throws {
        // Speech-like runs with pauses at 17-19 s and 41-42 s; chunks of about 20 s.
        let wave = try Self.wave([(17, true), (2, false), (22, true), (1, false), (18, true)])
        defer { try? FileManager.default.removeItem(at: wave.url) }
        let chunks = try AudioChunkPlan.make(wave, chunkSeconds: 20).chunks
        #expect(chunks.count == 3, "\(chunks)")
        let cuts = chunks.dropFirst().map { Double($0.lowerBound) / Double(Self.rate) }
        #expect(cuts.count == 2 && (17...19).contains(cuts[0]) && (41...42).contains(cuts[1]), "\(cuts)")
        // Contiguous, complete.
        #expect(chunks.first?.lowerBound == 0 && chunks.last?.upperBound == wave.sampleCount)
        #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }

    @Test func slicesHoldExactlyTheirSamples() throws {
        let wave = try Self.wave([(3, true), (2, false)])
        defer { try? FileManager.default.removeItem(at: wave.url) }
        let slice = FileManager.default.temporaryDirectory.appendingPathComponent("slice-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: slice) }
        try wave.writeSlice(16_000..<48_000, to: slice)
        let read = try PCMWave(slice)
        #expect(read.sampleCount == 32_000)
        #expect(try read.samples(from: 0, count: 100) == wave.samples(from: 16_000, count: 100))
    }

    /// ffmpeg may put a LIST chunk before `data`; the reader walks the chunks instead of assuming 44 bytes.
    @Test func aWaveWithAListChunkIsRead() throws {
        var file = Data("RIFF".utf8) + Data([0, 0, 0, 0]) + Data("WAVE".utf8)
        file += Data("fmt ".utf8) + Data([16, 0, 0, 0]) + Data(repeating: 0, count: 16)
        file += Data("LIST".utf8) + Data([5, 0, 0, 0]) + Data("INFOx".utf8) + Data([0])  // odd size: padded
        file += Data("data".utf8) + Data([6, 0, 0, 0]) + Data([1, 0, 2, 0, 3, 0])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("list-\(UUID().uuidString).wav")
        try file.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let wave = try PCMWave(url)
        #expect(wave.sampleCount == 3)
        #expect(try wave.samples(from: 0, count: 3) == [1, 2, 3])
    }
}
