import AppCore
import Foundation
import Testing
import VaporTesting

/// File names cannot display as something else (docs/transport-safety.md): bidirectional controls
/// are removed from the names a client sends (initiate and the legacy upload), from the playback name and from the
/// stored object's `Content-Disposition`, and stored objects are served with `X-Content-Type-Options: nosniff`.
@Suite struct DisplaySafeFilenameTests {
    typealias F = RecordingFixtures

    /// "invoice" RLO "a4m.exe": displayed as "invoiceexe.m4a".
    static let spoofed = "invoice\u{202E}a4m.exe\u{2066}\u{200F}"
    static let cleaned = "invoicea4m.exe"

    @Test func bidirectionalControlsAreRemovedFromStoredAndServedNames() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), filename: Self.spoofed)
            try await F.upload(app, started, bytes: F.bytes(500))
            #expect(try await F.complete(app, vet, started.visitID).status == .ok)
            let visit = try await F.visit(app, vet, started.visitID)
            #expect(visit.json["metadata"]["filename"].string == Self.cleaned, "\(visit)")

            let playback = try await F.playback(app, vet, started.visitID)
            #expect(playback.json["filename"].string == Self.cleaned)
            let fetched = try await F.fetch(app, try #require(playback.json["presigned_url"].string))
            #expect(fetched.status == .ok)
            #expect(fetched.headers.first(name: .contentDisposition) == "inline; filename=\"\(Self.cleaned)\"")
            #expect(fetched.headers.first(name: "X-Content-Type-Options") == "nosniff")

            let legacy = try await F.legacyUpload(
                app, vet, appointment: Demo.appointmentID(1, app), pet: Demo.pet(2), bytes: F.bytes(400),
                filename: Self.spoofed + "\u{202A}.m4a")
            #expect(legacy.status == .created, "\(legacy)")
            let legacyVisit = try await F.visit(app, vet, try #require(legacy.json["visit_id"].string))
            #expect(legacyVisit.json["metadata"]["filename"].string == Self.cleaned + ".m4a", "\(legacyVisit)")
        }
    }
}
