import AppCore
import Foundation
import Testing
import VaporTesting

/// The cross-tenant half of the hostile-input matrix for the recordings (contract §2.5–§2.7, §4.9–§4.11, §7): a vet
/// of another practice, a pet owner on someone else's pet, a vet on an ADMIN-only route, forged bearer tokens and
/// tampered presigned URLs each get exactly the contract's status and detail, and not one row or stored object changes.
///
/// The world of every test: vet1 recorded Bella (appointment 1) and Fluffy (appointment 2), both `processing`, and
/// uploaded Max's recording (appointment 1) without completing it. The other roles' matrix (pets, records,
/// appointments, manual visits) is RoleMatrixTests.
@Suite struct CrossTenantAudioTests {
    typealias F = RecordingFixtures

    struct World {
        let app: Application
        let clock: ManualClock
        let vet: String
        let bella: String
        let fluffy: String
        let pendingMax: String
        let bellaURL: String
        let fluffyKey: String
        var appointment1: UUID { Demo.appointmentID(1, app) }

        static func make(_ app: Application, clock: ManualClock) async throws -> World {
            let vet = try await app.token(for: Demo.vet1)
            let appointment1 = Demo.appointmentID(1, app)
            let bella = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment1, bytes: F.bytes(700))
            let fluffyStarted = try await F.initiated(app, vet, pet: Demo.pet(4), appointment: Demo.appointmentID(2, app))
            try await F.upload(app, fluffyStarted, bytes: F.bytes(900, seed: 3))
            let fluffyCompleted = try await F.complete(app, vet, fluffyStarted.visitID)
            try #require(fluffyCompleted.status == .ok, "\(fluffyCompleted)")
            let pending = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment1)
            try await F.upload(app, pending, bytes: F.bytes(10))
            let playback = try await F.playback(app, vet, bella)
            return World(
                app: app, clock: clock, vet: vet, bella: bella, fluffy: fluffyStarted.visitID, pendingMax: pending.visitID,
                bellaURL: try #require(playback.json["presigned_url"].string, "\(playback)"), fluffyKey: fluffyStarted.key)
        }
    }

    /// One hostile request and the exact answer the contract gives it.
    struct Attempt {
        let label: String
        let status: HTTPStatus
        /// The JSON `detail`; nil for the store's S3 XML errors, which are checked by `s3Code`.
        let detail: String?
        var s3Code: String? = nil
        let send: (World) async throws -> TestResponse
    }

    /// Runs each attempt, checks its answer and that the database rows (counts and stamps, DatabaseFingerprint) and
    /// the stored objects (names and bytes) are exactly as before it.
    static func expectRefusedWithoutEffect(_ attempts: [Attempt], in world: World) async throws {
        for attempt in attempts {
            world.clock.advance(by: 5)
            let since = world.clock.now()
            let rowsBefore = try await DatabaseFingerprint.take(world.app, since: since)
            let objectsBefore = storedObjects(world.app)
            let response = try await attempt.send(world)
            #expect(response.status == attempt.status, "\(attempt.label): \(response)")
            if let detail = attempt.detail {
                #expect(response.json["detail"].string == detail, "\(attempt.label): \(response)")
            }
            if let code = attempt.s3Code {
                #expect(response.text.contains("<Code>\(code)</Code>"), "\(attempt.label): \(response)")
            }
            let rowsAfter = try await DatabaseFingerprint.take(world.app, since: since)
            #expect(rowsAfter == rowsBefore, "\(attempt.label) changed the database: \(rowsBefore) → \(rowsAfter)")
            #expect(rowsAfter.rowsWrittenSince == 0, "\(attempt.label) stamped rows: \(rowsAfter)")
            #expect(storedObjects(world.app) == objectsBefore, "\(attempt.label) changed the stored objects")
        }
    }

    /// Every regular file of the store and its upload folder, with its bytes.
    static func storedObjects(_ app: Application) -> [String: Data] {
        let root = F.dataDirectory(app).appendingPathComponent("objects")
        return F.regularFiles(under: root, prefix: "").filter { !$0.hasSuffix(".lock") }.reduce(into: [:]) { files, path in
            files[path] = (try? Data(contentsOf: root.appendingPathComponent(path))) ?? Data()
        }
    }

    static func withWorld(_ body: (World) async throws -> Void) async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in try await body(try await World.make(app, clock: clock)) }
    }

    @Test func aVetOfAnotherPracticeSeesNothingAndChangesNothing() async throws {
        try await Self.withWorld { world in
            let other = try await OtherPractice.create(world.app).vetToken
            let app = world.app
            try await Self.expectRefusedWithoutEffect([
                Attempt(label: "initiate for Bella", status: .notFound, detail: "Pet not found") { w in
                    try await F.initiate(app, other, pet: Demo.pet(1), appointment: w.appointment1, replaceExisting: true)
                },
                Attempt(label: "legacy upload for Bella", status: .notFound, detail: "Pet not found") { w in
                    try await F.legacyUpload(app, other, appointment: w.appointment1, pet: Demo.pet(1), bytes: F.bytes(64))
                },
                Attempt(label: "complete Max's upload", status: .notFound, detail: "Visit not found") { w in
                    try await F.complete(app, other, w.pendingMax)
                },
                Attempt(label: "playback of Bella", status: .notFound, detail: "Visit not found") { w in
                    try await F.playback(app, other, w.bella)
                },
                Attempt(label: "transcribe Bella again", status: .notFound, detail: "Visit not found") { w in
                    try await F.send(app, .POST, F.transcribePath(w.bella), token: other)
                },
                Attempt(label: "read Bella's visit", status: .notFound, detail: "Visit not found") { w in
                    try await F.visit(app, other, w.bella)
                },
                Attempt(label: "edit Bella's visit", status: .notFound, detail: "Visit not found") { w in
                    try await app.put(F.visitPath(w.bella), token: other, json: ["summary": "Overwritten"])
                },
                Attempt(label: "delete Bella's visit", status: .forbidden, detail: "Administrator access required") { w in
                    try await app.delete(F.visitPath(w.bella), token: other)
                },
                Attempt(label: "visits of appointment 1", status: .notFound, detail: "Appointment not found") { w in
                    try await app.get(F.appointmentVisitsPath(w.appointment1), token: other)
                },
            ], in: world)
        }
    }

    @Test func aPetOwnerCannotRecordTranscribeOrReachAnotherOwnersAudio() async throws {
        try await Self.withWorld { world in
            let owner = try await world.app.token(for: Demo.owner1)
            let app = world.app
            try await Self.expectRefusedWithoutEffect([
                Attempt(label: "initiate for own Bella", status: .forbidden, detail: F.staffOnly) { w in
                    try await F.initiate(app, owner, pet: Demo.pet(1), appointment: w.appointment1)
                },
                Attempt(label: "legacy upload for own Bella", status: .forbidden, detail: F.staffOnly) { w in
                    try await F.legacyUpload(app, owner, appointment: w.appointment1, pet: Demo.pet(1), bytes: F.bytes(64))
                },
                Attempt(label: "complete own Max's upload", status: .forbidden, detail: F.staffOnly) { w in
                    try await F.complete(app, owner, w.pendingMax)
                },
                Attempt(label: "transcribe own Bella", status: .forbidden, detail: F.staffOnly) { w in
                    try await F.send(app, .POST, F.transcribePath(w.bella), token: owner)
                },
                Attempt(label: "delete own Bella's visit", status: .forbidden, detail: "Administrator access required") { w in
                    try await app.delete(F.visitPath(w.bella), token: owner)
                },
                Attempt(label: "playback of Emily Davis's Fluffy", status: .notFound, detail: "Visit not found") { w in
                    try await F.playback(app, owner, w.fluffy)
                },
                Attempt(label: "Fluffy's visit", status: .notFound, detail: "Visit not found") { w in
                    try await F.visit(app, owner, w.fluffy)
                },
            ], in: world)
            // The owner's own recording stays playable: the refusals above are about the data, not the role.
            try await F.expectPlayback(app, owner, world.bella, bytes: F.bytes(700))
        }
    }

    @Test func aVetOfThePracticeCannotDeleteAVisit() async throws {
        try await Self.withWorld { world in
            try await Self.expectRefusedWithoutEffect([
                Attempt(label: "vet1 deletes Bella's visit", status: .forbidden, detail: "Administrator access required") { w in
                    try await w.app.delete(F.visitPath(w.bella), token: w.vet)
                },
            ], in: world)
        }
    }

    /// Expired, re-signed, edited and unsigned tokens, each claiming ADMIN (who could do all of it) or vet1.
    @Test func forgedTokensWriteNothing() async throws {
        try await Self.withWorld { world in
            let app = world.app
            let now = world.clock.now()
            let admin = Demo.admin.id.uuidString.lowercased()
            let forged: [(String, String)] = [
                ("expired ADMIN token", try await TokenForgery.hmac(
                    subject: admin, issuedAt: now.addingTimeInterval(-30_000), expires: now.addingTimeInterval(-60))),
                ("ADMIN token signed with another secret", try await TokenForgery.hmac(
                    subject: admin, issuedAt: now, secret: "not-the-server-secret-0123456789abcdef-0123456789")),
                ("vet1's token edited to claim ADMIN", TokenForgery.withPayload(world.vet, subject: admin)),
                ("alg none ADMIN token", TokenForgery.unsigned(subject: admin, issuedAt: now)),
                ("HS512 ADMIN token with the server secret", try await TokenForgery.hmac(
                    subject: admin, issuedAt: now, digest: .sha512)),
                ("vet1's token with a cut signature", String(world.vet.dropLast(4))),
            ]
            var attempts: [Attempt] = []
            for (name, token) in forged {
                let reject = { (what: String, send: @escaping (World) async throws -> TestResponse) in
                    Attempt(label: "\(name): \(what)", status: .unauthorized, detail: "Could not validate credentials", send: send)
                }
                attempts += [
                    reject("delete Bella's visit") { w in try await app.delete(F.visitPath(w.bella), token: token) },
                    reject("transcribe Bella") { w in try await F.send(app, .POST, F.transcribePath(w.bella), token: token) },
                    reject("initiate") { w in
                        try await F.initiate(app, token, pet: Demo.pet(1), appointment: w.appointment1, replaceExisting: true)
                    },
                    reject("complete Max") { w in try await F.complete(app, token, w.pendingMax) },
                    reject("legacy upload") { w in
                        try await F.legacyUpload(app, token, appointment: w.appointment1, pet: Demo.pet(2), bytes: F.bytes(64))
                    },
                    reject("playback") { w in try await F.playback(app, token, w.bella) },
                    reject("edit a pet") { _ in
                        try await app.put("/api/v1/pets/\(Demo.pet(1).lowercased)", token: token, json: ["weight": 1.5])
                    },
                    reject("new user") { _ in
                        try await app.post("/api/v1/users", token: token, json: [
                            "username": "intruder", "password": "password123", "email": "intruder@example.com",
                            "full_name": "Intruder", "role": "ADMIN",
                        ])
                    },
                ]
            }
            try await Self.expectRefusedWithoutEffect(attempts, in: world)
        }
    }

    /// The presigned GET of Bella's recording, altered: another object under the same signature, a changed signature,
    /// a longer lifetime, and the genuine URL once it has expired (contract §7.3, §7.4).
    @Test func tamperedPresignedURLsReadNothing() async throws {
        try await Self.withWorld { world in
            let app = world.app
            let url = world.bellaURL
            let bellaKey = try #require(URLComponents(string: url)?.path.split(separator: "/", maxSplits: 2).last)
            let signature = try #require(url.range(of: #"X-Amz-Signature=[0-9a-f]{64}"#, options: .regularExpression))
            let flipped = url[signature].last == "0" ? "1" : "0"
            try await Self.expectRefusedWithoutEffect([
                Attempt(label: "Fluffy's object under Bella's signature", status: .forbidden, detail: nil,
                        s3Code: "SignatureDoesNotMatch") { w in
                    try await F.fetch(app, url.replacingOccurrences(of: String(bellaKey), with: w.fluffyKey))
                },
                Attempt(label: "one signature character changed", status: .forbidden, detail: nil,
                        s3Code: "SignatureDoesNotMatch") { _ in
                    try await F.fetch(app, String(url[..<signature.upperBound].dropLast()) + flipped + url[signature.upperBound...])
                },
                Attempt(label: "lifetime raised", status: .forbidden, detail: nil, s3Code: "SignatureDoesNotMatch") { _ in
                    try await F.fetch(app, url.replacingOccurrences(of: "X-Amz-Expires=900", with: "X-Amz-Expires=604800"))
                },
                Attempt(label: "signature removed", status: .forbidden, detail: nil, s3Code: "AccessDenied") { _ in
                    try await F.fetch(app, String(url[..<url.firstIndex(of: "?")!]))
                },
            ], in: world)
            world.clock.advance(by: 7_200)
            try await Self.expectRefusedWithoutEffect([
                Attempt(label: "genuine URL after its lifetime", status: .forbidden, detail: nil, s3Code: "AccessDenied") { _ in
                    try await F.fetch(app, url)
                },
            ], in: world)
        }
    }
}
