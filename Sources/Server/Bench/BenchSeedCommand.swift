import AppCore
import Foundation
import HelpPetAPI
import Vapor

/// `server bench-seed`: the benchmark dataset of `bench/run` (HelpPetBenchmarkData), inserted in bulk into an empty
/// database, with a JSON manifest of the ids the load generator addresses. Refused in production.
struct BenchSeedCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Option(name: "practices", help: "practices (default 20)") var practices: Int?
        @Option(name: "vets", help: "vets, spread evenly over the practices (default 200)") var vets: Int?
        @Option(name: "owners", help: "pet owners with 1-4 pets each (default 4000)") var owners: Int?
        @Option(name: "appointments", help: "appointments with 1-3 pets (default 20000)") var appointments: Int?
        @Option(name: "records", help: "medical record versions (default 50000)") var records: Int?
        @Option(name: "visits", help: "processed recording visits (default 20000)") var visits: Int?
        @Option(name: "manifest", help: "where to write the JSON manifest (default: standard output)") var manifest: String?
    }

    var help: String { "Inserts the benchmark dataset of bench/run into an empty database." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = try await context.applicationForSeeding("bench-seed")
        var options = HelpPetBenchmarkData.Options()
        if let v = signature.practices { options.practices = v }
        if let v = signature.vets { options.vets = v }
        if let v = signature.owners { options.owners = v }
        if let v = signature.appointments { options.appointments = v }
        if let v = signature.records { options.recordVersions = v }
        if let v = signature.visits { options.visits = v }
        guard options.practices >= 1, options.vets >= options.practices, options.owners >= options.practices else {
            throw ConfigurationError("bench-seed needs at least one practice, and one vet and one owner per practice")
        }
        let started = Date()
        let now = WireTime.truncated(app.core.clock.now())
        let manifest = try await HelpPetBenchmarkData.seed(on: app.db, now: now, options: options)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(manifest)
        if let path = signature.manifest {
            try data.write(to: URL(fileURLWithPath: path))
        } else {
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
        let counts = manifest.counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        FileHandle.standardError.write(Data(
            "bench-seed: \(counts) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s\n".utf8))
    }
}
