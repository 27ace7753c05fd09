import Foundation

/// A 16-bit mono PCM WAV file as AudioPreparation writes it (16 kHz), read in place: where its samples start, how
/// many there are, and slices of them. The RIFF chunks are walked rather than assuming a 44-byte header, because
/// ffmpeg may add a LIST chunk before `data`.
struct PCMWave {
    static let sampleRate = 16_000
    let url: URL
    let dataOffset: UInt64
    let sampleCount: Int

    init(_ url: URL) throws {
        self.url = url
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let riff = try handle.read(upToCount: 12) ?? Data()
        guard riff.count == 12, riff.prefix(4) == Data("RIFF".utf8), riff.suffix(4) == Data("WAVE".utf8) else {
            throw TranscriptionFailure("The prepared audio is not a WAV file")
        }
        var offset: UInt64 = 12
        while true {
            try handle.seek(toOffset: offset)
            guard let header = try handle.read(upToCount: 8), header.count == 8 else {
                throw TranscriptionFailure("The prepared audio has no data chunk")
            }
            let size = header.suffix(4).withUnsafeBytes { UInt64(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
            if header.prefix(4) == Data("data".utf8) {
                let fileSize = try handle.seekToEnd()
                // ffmpeg writing to a pipe leaves the size unset (0 or 0xFFFFFFFF): the data runs to the end.
                let available = fileSize - (offset + 8)
                let bytes = size == 0 || size == 0xFFFF_FFFF ? available : min(size, available)
                dataOffset = offset + 8
                sampleCount = Int(bytes / 2)
                return
            }
            offset += 8 + size + (size & 1)
        }
    }

    /// Headerless 16-bit samples (tests build waves from them).
    init(unsafeRawPCM url: URL, sampleCount: Int) {
        self.url = url
        self.dataOffset = 0
        self.sampleCount = sampleCount
    }

    var duration: Double { Double(sampleCount) / Double(Self.sampleRate) }

    func samples(from start: Int, count: Int) throws -> [Int16] {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: dataOffset + UInt64(start) * 2)
        let data = try handle.read(upToCount: count * 2) ?? Data()
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
    }

    /// Writes samples `range` as a canonical WAV file of their own.
    func writeSlice(_ range: Range<Int>, to destination: URL) throws {
        let bytes = UInt32(range.count * 2)
        var header = Data()
        func append(_ text: String) { header.append(contentsOf: Array(text.utf8)) }
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        append("RIFF"); append32(36 + bytes); append("WAVE")
        append("fmt "); append32(16); append16(1); append16(1)
        append32(UInt32(Self.sampleRate)); append32(UInt32(Self.sampleRate * 2)); append16(2); append16(16)
        append("data"); append32(bytes)
        FileManager.default.createFile(atPath: destination.path, contents: header)
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        try output.seekToEnd()
        let input = try FileHandle(forReadingFrom: url)
        defer { try? input.close() }
        try input.seek(toOffset: dataOffset + UInt64(range.lowerBound) * 2)
        var remaining = range.count * 2
        while remaining > 0 {
            guard let block = try input.read(upToCount: min(remaining, 1 << 20)), !block.isEmpty else { break }
            try output.write(contentsOf: block)
            remaining -= block.count
        }
    }
}
