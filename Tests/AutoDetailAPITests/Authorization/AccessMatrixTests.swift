import AppCore
import Foundation
import Testing
import VaporTesting

/// The access matrix of contract §2.8 with hostile callers: every key-protected route against another customer's
/// booking, photo and message, an organisation key without `fullAccess`, revoked, deleted-install, blocked, tampered
/// and admin credentials; every admin route against missing, expired, logged-out, tampered and API-key credentials.
/// Each cell runs on a fresh application and expects exactly the contract's status and `error`; a refused request
/// must leave every row of every table as it was (DatabaseSnapshot), an accepted write must change something.
///
/// The world of every cell (clock: the contract's example Friday, then 12 h later so the first admin token expired):
/// install A booked `X` (Monday) and uploaded a work photo for it that is not linked yet; install B booked `Y`; the
/// admin sent A a message; keys were minted for every caller below.
@Suite struct AccessMatrixTests {
    enum Caller: String, Sendable, CaseIterable {
        case none, orgKey, fullAccessOrgKey, install, otherInstall, revokedOrgKey, deletedInstallKey, blockedInstall,
            tamperedKey, adminToken
    }

    enum AdminCaller: String, Sendable, CaseIterable {
        case none, apiKeyHeaderOnly, orgKeyAsBearer, installKeyAsBearer, expiredToken, loggedOutToken, tamperedToken, admin
    }

    enum Outcome: Sendable, CustomStringConvertible {
        /// Accepted with this status; `lists`/`hides` name ids the answer must (not) contain.
        case accepted(HTTPStatus, lists: Probe? = nil, hides: Probe? = nil)
        case refused(HTTPStatus, String)

        static let ok = Outcome.accepted(.ok)
        static let created = Outcome.accepted(.created)
        static let noContent = Outcome.accepted(.noContent)
        static let missingKey = Outcome.refused(.unauthorized, "Missing API key")
        static let invalidKey = Outcome.refused(.unauthorized, "Invalid API key")
        static let blocked = Outcome.refused(.forbidden, "This app installation has been blocked")
        static let installOnly = Outcome.refused(.forbidden, "This endpoint requires an app installation key")
        static let notFound = Outcome.refused(.notFound, "Appointment not found")
        static let messageNotFound = Outcome.refused(.notFound, "Message not found")
        /// `{ref}` stands for the world's unlinked photo reference.
        static let photoOfAnotherAppointment = Outcome.refused(
            .badRequest, "Photo reference does not belong to this appointment and kind: {ref}")
        static let missingAdmin = Outcome.refused(.unauthorized, "Missing admin token")
        static let invalidAdmin = Outcome.refused(.unauthorized, "Invalid or expired admin token")

        var description: String {
            switch self {
            case .accepted(let status, _, _): return "\(status.code)"
            case .refused(let status, let error): return "\(status.code) \(error)"
            }
        }
    }

    /// An id of the world an answer lists (or must not list), and where in the answer the list is.
    enum Probe: Sendable {
        case appointmentX, messageOfA

        func ids(in response: TestResponse) -> [String] {
            switch self {
            case .appointmentX: return (response.json.array ?? []).compactMap { $0["id"].string }
            case .messageOfA: return (response.json["messages"].array ?? []).compactMap { $0["id"].string }
            }
        }

        func id(in world: World) -> String {
            switch self {
            case .appointmentX: return world.appointmentX
            case .messageOfA: return world.messageOfA
            }
        }
    }

    struct World: Sendable {
        let appointmentX: String
        let appointmentY: String
        let unlinkedRefOfX: String
        let messageOfA: String
        let installA: String
        let orgKeyID: String
        let keys: [Caller: String]
        let adminTokens: [AdminCaller: String]
        let orgKey: String
        let installKeyA: String
    }

    static let monday = "2025-03-17"

    static func makeWorld(_ app: Application, clock: ManualClock) async throws -> World {
        let expiring = try await app.adminToken()
        let a = try await app.newInstall()
        let b = try await app.newInstall()
        let deleted = try await app.newInstall()
        let blocked = try await app.newInstall()
        let org = try await app.newOrgKey()
        let full = try await app.newOrgKey(fullAccess: true)
        let revoked = try await app.newOrgKey()
        let x = try await app.book("\(monday)T08:00:00Z", key: a.key)
        let y = try await app.book("\(monday)T09:00:00Z", key: b.key)
        let ref = try await PhotoFlow.uploaded(app, key: a.key, appointment: x)

        clock.advance(by: 12 * 3_600 + 60)
        let admin = try await app.adminToken()
        let loggedOut = try await app.adminToken()
        #expect(try await app.send(.POST, "/api/admin/logout", bearer: loggedOut).status == .noContent)
        #expect(try await app.delete("/api/admin/api-keys/\(revoked.id)", bearer: admin).status == .noContent)
        #expect(try await app.delete("/api/admin/ios-users/\(deleted.id)", bearer: admin).status == .noContent)
        let block = try await app.put("/api/admin/ios-users/\(blocked.id)/priority", bearer: admin, ["priority": "blocked"])
        #expect(block.status == .ok, "\(block)")
        let message = try await app.post("/api/admin/ios-users/\(a.id)/message", bearer: admin, ["text": "Your car is ready."])
        #expect(message.status == .created, "\(message)")

        // Same length and grammar as a real key, one hex digit changed: an unknown hash.
        let tampered = String(org.key.dropLast()) + (org.key.hasSuffix("0") ? "1" : "0")
        let tamperedAdmin = String(admin.dropLast()) + (admin.hasSuffix("0") ? "1" : "0")
        return World(
            appointmentX: x, appointmentY: y, unlinkedRefOfX: ref,
            messageOfA: try #require(message.json["id"].string), installA: a.id, orgKeyID: org.id,
            keys: [
                .orgKey: org.key, .fullAccessOrgKey: full.key, .install: a.key, .otherInstall: b.key,
                .revokedOrgKey: revoked.key, .deletedInstallKey: deleted.key, .blockedInstall: blocked.key,
                .tamperedKey: tampered, .adminToken: admin,
            ],
            adminTokens: [
                .expiredToken: expiring, .loggedOutToken: loggedOut, .tamperedToken: tamperedAdmin, .admin: admin,
            ],
            orgKey: org.key, installKeyA: a.key)
    }

    // MARK: - Key-protected routes

    /// One route with the request a cell sends; `success` is the admin's answer on admin routes (key routes list
    /// their outcomes per caller).
    struct Route: Sendable {
        let name: String
        let method: HTTPMethod
        let path: @Sendable (World) -> String
        let body: (@Sendable (World) -> [String: Any?])?
        let success: Outcome

        init(_ name: String, _ method: HTTPMethod = .GET, success: Outcome = .ok,
             body: (@Sendable (World) -> [String: Any?])? = nil, path: @escaping @Sendable (World) -> String) {
            self.name = name
            self.method = method
            self.path = path
            self.body = body
            self.success = success
        }
    }

    struct KeyCell: Sendable, CustomTestStringConvertible {
        let route: Route
        let caller: Caller
        let outcome: Outcome
        var testDescription: String { "\(route.name) as \(caller) → \(outcome)" }
    }

    /// The cells of one route in `Caller.allCases` order: none, org, full-access org, install A, install B, revoked,
    /// deleted install, blocked, tampered, admin token. The last five are the same for every key route.
    static func keyLine(
        _ route: Route, org: Outcome, fullAccess: Outcome, install: Outcome, otherInstall: Outcome
    ) -> [KeyCell] {
        let outcomes: [Outcome] = [
            .missingKey, org, fullAccess, install, otherInstall, .invalidKey, .invalidKey, .blocked, .invalidKey, .invalidKey,
        ]
        return zip(Caller.allCases, outcomes).map { KeyCell(route: route, caller: $0, outcome: $1) }
    }

    static let keyCells: [KeyCell] = [
        keyLine(Route("book", .POST, body: { _ in Fixture.booking("\(monday)T10:00:00Z") }) { _ in
            "/api/client/appointments"
        }, org: .created, fullAccess: .created, install: .created, otherInstall: .created),
        keyLine(Route("list bookings") { _ in "/api/client/appointments" },
                org: .accepted(.ok, hides: .appointmentX), fullAccess: .accepted(.ok, lists: .appointmentX),
                install: .accepted(.ok, lists: .appointmentX), otherInstall: .accepted(.ok, hides: .appointmentX)),
        keyLine(Route("show X") { w in "/api/client/appointments/\(w.appointmentX)" },
                org: .notFound, fullAccess: .ok, install: .ok, otherInstall: .notFound),
        keyLine(Route("cancel X", .POST) { w in "/api/client/appointments/\(w.appointmentX)/cancel" },
                org: .notFound, fullAccess: .ok, install: .ok, otherInstall: .notFound),
        keyLine(Route("presign a photo of X", .POST, body: { w in [
            "appointmentId": w.appointmentX, "kind": "defect", "filename": "dent.jpg", "contentType": "image/jpeg",
        ] }) { _ in "/api/uploads/presign" }, org: .notFound, fullAccess: .ok, install: .ok, otherInstall: .notFound),
        keyLine(Route("link X's photo to X", .POST, body: { w in ["kind": "work", "photoUrls": [w.unlinkedRefOfX]] }) { w in
            "/api/client/appointments/\(w.appointmentX)/photos"
        }, org: .notFound, fullAccess: .ok, install: .ok, otherInstall: .notFound),
        keyLine(Route("link X's photo to Y", .POST, body: { w in ["kind": "work", "photoUrls": [w.unlinkedRefOfX]] }) { w in
            "/api/client/appointments/\(w.appointmentY)/photos"
        }, org: .notFound, fullAccess: .photoOfAnotherAppointment, install: .notFound,
           otherInstall: .photoOfAnotherAppointment),
        keyLine(Route("read profile") { _ in "/api/ios/profile" },
                org: .installOnly, fullAccess: .installOnly, install: .ok, otherInstall: .ok),
        keyLine(Route("write profile", .POST, body: { _ in [
            "name": "Ivan Petrov", "carMake": "Toyota Camry", "carPlate": "A123BC 777",
        ] }) { _ in "/api/ios/profile" }, org: .installOnly, fullAccess: .installOnly, install: .ok, otherInstall: .ok),
        keyLine(Route("list messages") { _ in "/api/ios/messages" },
                org: .installOnly, fullAccess: .installOnly, install: .accepted(.ok, lists: .messageOfA),
                otherInstall: .accepted(.ok, hides: .messageOfA)),
        keyLine(Route("read A's message", .POST) { w in "/api/ios/messages/\(w.messageOfA)/read" },
                org: .installOnly, fullAccess: .installOnly, install: .ok, otherInstall: .messageNotFound),
    ].flatMap { $0 }

    @Test(arguments: keyCells)
    func keyRoute(_ cell: KeyCell) async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let world = try await Self.makeWorld(app, clock: clock)
            let key = world.keys[cell.caller]
            // The admin token goes where a client would put a bearer credential; API keys go in X-API-Key.
            let (apiKey, bearer) = cell.caller == .adminToken ? (nil, key) : (key, nil)
            try await Self.expect(
                cell.outcome, in: app, world: world, isWrite: cell.route.method != .GET, label: cell.testDescription
            ) {
                try await app.send(
                    cell.route.method, cell.route.path(world), key: apiKey, bearer: bearer, headers: PhotoFlow.host,
                    json: cell.route.body.map { JSONBody.encode($0(world)) })
            }
        }
    }

    // MARK: - Admin routes

    struct AdminCell: Sendable, CustomTestStringConvertible {
        let route: Route
        let caller: AdminCaller
        var outcome: Outcome {
            switch caller {
            case .none, .apiKeyHeaderOnly: return .missingAdmin
            case .orgKeyAsBearer, .installKeyAsBearer, .expiredToken, .loggedOutToken, .tamperedToken: return .invalidAdmin
            case .admin: return route.success
            }
        }
        var testDescription: String { "admin \(route.name) as \(caller) → \(outcome)" }
    }

    static let adminRoutes: [Route] = [
        Route("list appointments") { _ in "/api/admin/appointments" },
        Route("confirm X", .PUT, body: { _ in ["status": "confirmed"] }) { w in "/api/admin/appointments/\(w.appointmentX)" },
        Route("revoke a key", .DELETE, success: .noContent) { w in "/api/admin/api-keys/\(w.orgKeyID)" },
        Route("block install A", .PUT, body: { _ in ["priority": "blocked"] }) { w in
            "/api/admin/ios-users/\(w.installA)/priority"
        },
        Route("delete install A", .DELETE, success: .noContent) { w in "/api/admin/ios-users/\(w.installA)" },
        Route("message install A", .POST, success: .created, body: { _ in ["text": "Hello"] }) { w in
            "/api/admin/ios-users/\(w.installA)/message"
        },
        Route("change settings", .PUT, body: { _ in ["capacity": 1] }) { _ in "/api/admin/settings" },
        Route("mint a full-access key", .POST, success: .created, body: { _ in ["name": "Intruder", "fullAccess": true] }) { _ in
            "/api/admin/api-keys"
        },
    ]

    static let adminCells: [AdminCell] = adminRoutes.flatMap { route in AdminCaller.allCases.map { AdminCell(route: route, caller: $0) } }

    @Test(arguments: adminCells)
    func adminRoute(_ cell: AdminCell) async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let world = try await Self.makeWorld(app, clock: clock)
            var apiKey: String?
            var bearer: String?
            switch cell.caller {
            case .none: break
            case .apiKeyHeaderOnly: apiKey = world.orgKey
            case .orgKeyAsBearer: bearer = world.orgKey
            case .installKeyAsBearer: bearer = world.installKeyA
            case .expiredToken, .loggedOutToken, .tamperedToken, .admin: bearer = world.adminTokens[cell.caller]
            }
            try await Self.expect(
                cell.outcome, in: app, world: world, isWrite: cell.route.method != .GET, label: cell.testDescription
            ) {
                try await app.send(
                    cell.route.method, cell.route.path(world), key: apiKey, bearer: bearer,
                    json: cell.route.body.map { JSONBody.encode($0(world)) })
            }
        }
    }

    // MARK: - Checking a cell

    static func expect(
        _ outcome: Outcome, in app: Application, world: World, isWrite: Bool, label: String,
        _ request: () async throws -> TestResponse
    ) async throws {
        let before = try await DatabaseSnapshot.take(app)
        let response = try await request()
        let after = try await DatabaseSnapshot.take(app)
        switch outcome {
        case .refused(let status, let error):
            expectError(response, status, error.replacingOccurrences(of: "{ref}", with: world.unlinkedRefOfX))
            #expect(after == before, "\(label): a refused request changed \(after.changedTables(since: before))")
        case .accepted(let status, let lists, let hides):
            #expect(response.status == status, "\(label): \(response)")
            if let lists { #expect(lists.ids(in: response).contains(lists.id(in: world)), "\(label): \(response)") }
            if let hides { #expect(!hides.ids(in: response).contains(hides.id(in: world)), "\(label): \(response)") }
            if isWrite {
                #expect(after != before, "\(label): an accepted write changed nothing")
            } else {
                #expect(after == before, "\(label): a read changed \(after.changedTables(since: before))")
            }
        }
    }
}
