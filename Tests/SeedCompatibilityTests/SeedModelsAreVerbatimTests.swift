import Foundation
import Testing

/// The model copies must be the seed's own code, character for character, or the decoding tests prove nothing.
@Suite struct SeedModelsAreVerbatimTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func copiesEqualTheSeedCodeBlock() throws {
        let seedURL = Self.repositoryRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/seeds/003_cbf68312bbf3b488.txt")
        let seed = try String(contentsOf: seedURL, encoding: .utf8)
        let section = try #require(seed.range(of: "## Data Models"))
        let afterSection = seed[section.upperBound...]
        let open = try #require(afterSection.range(of: "```swift\n"))
        let close = try #require(afterSection[open.upperBound...].range(of: "```"))
        let seedCode = String(afterSection[open.upperBound..<close.lowerBound])

        let copyURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Seed003Models.swift")
        let copy = try String(contentsOf: copyURL, encoding: .utf8)
        let begin = try #require(copy.range(of: "// BEGIN SEED 003 MODELS\n"))
        let end = try #require(copy.range(of: "// END SEED 003 MODELS"))
        #expect(String(copy[begin.upperBound..<end.lowerBound]) == seedCode)
        for name in ["struct LoginResponse", "struct User", "enum UserRole", "enum AppointmentStatus",
                     "struct Appointment", "struct PetSummary", "struct DashboardResponse"] {
            #expect(seedCode.contains(name), "seed code block lacks \(name)")
        }
    }
}
