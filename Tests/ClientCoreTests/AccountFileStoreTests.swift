import ClientCore
import Foundation
import Testing

/// An entry as a kit declares one.
struct ProbeEntry: AccountFileEntry, Equatable {
    var secret: String

    static var accountsMember: String { "probes" }
    static func makeFileEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }
    static func makeFileDecoder() -> JSONDecoder { JSONDecoder() }
    static func fileError(path: String, reason: String) -> any Error { CocoaError(.fileWriteUnknown) }
}

@Suite("ClientCore: the private account file both kits' file stores are")
struct AccountFileStoreTests {
    @Test("entries per account in a 0600 file in a 0700 folder; the file goes with its last entry")
    func privateFilePerAccount() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("clientcore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config/secrets.json")
        let first = AccountFileStore<ProbeEntry>(fileURL: file, account: "http://a")
        let second = AccountFileStore<ProbeEntry>(fileURL: file, account: "http://b")

        try await first.writeEntries(["http://a": ProbeEntry(secret: "one")])
        var entries = try await second.readEntries()
        entries["http://b"] = ProbeEntry(secret: "two")
        try await second.writeEntries(entries)

        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)
        #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: [String: [String: String]]]
        #expect(json?["probes"]?["http://a"]?["secret"] == "one")
        #expect(try await first.readEntries() == ["http://a": ProbeEntry(secret: "one"), "http://b": ProbeEntry(secret: "two")])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(leftovers == ["secrets.json"], "no temporary file is left behind")

        try await first.writeEntries([:])
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try await first.readEntries().isEmpty)
    }
}
