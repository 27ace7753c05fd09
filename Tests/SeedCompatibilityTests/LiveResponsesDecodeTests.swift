import AppCore
import Foundation
import HelpPetAPI
import Testing
import VaporTesting

/// Live responses decode into the seed 003 models with the decoder configuration of contract §9
/// (explicit snake_case CodingKeys, default key strategy, `.iso8601` dates).
@Suite struct LiveResponsesDecodeTests {
    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }()

    @Test func seedModelsDecodeLoginMeDashboardAndAppointments() async throws {
        try await withDemoApp { app in
            var token = ""
            try await app.testing().test(.POST, "api/v1/auth/token", beforeRequest: { req in
                req.headers.contentType = .urlEncodedForm
                req.body = ByteBuffer(string: "username=vet1&password=password123")
            }, afterResponse: { res in
                #expect(res.status == .ok)
                let login = try JSONDecoder().decode(LoginResponse.self, from: Data(buffer: res.body))
                #expect(login.tokenType == "bearer")
                token = login.accessToken
            })
            let auth: HTTPHeaders = ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]

            var vetID = ""
            try await app.testing().test(.GET, "api/v1/auth/me", headers: auth) { res in
                let user = try Self.decoder.decode(User.self, from: Data(buffer: res.body))
                #expect(user.role == .vetStaff)
                #expect(user.practiceId == "d0000000-0000-4000-8000-000000000001")
                vetID = user.id
            }

            var appointmentID = ""
            try await app.testing().test(.GET, "api/v1/dashboard/vet/\(vetID)/today", headers: auth) { res in
                let dashboard = try Self.decoder.decode(DashboardResponse.self, from: Data(buffer: res.body))
                #expect(dashboard.appointmentsToday.count == 3)
                let multiPet = try #require(dashboard.appointmentsToday.first { $0.pets.count == 3 })
                #expect(multiPet.pets.map(\.name) == ["Bella", "Max", "Mittens"])
                appointmentID = multiPet.id
            }

            try await app.testing().test(
                .PUT, "api/v1/appointments/\(appointmentID)", headers: auth,
                beforeRequest: { req in req.body = ByteBuffer(string: #"{"status":"in_progress"}"#) },
                afterResponse: { res in
                    let appointment = try Self.decoder.decode(Appointment.self, from: Data(buffer: res.body))
                    #expect(appointment.status == .inProgress)
                })

            try await app.testing().test(.GET, "api/v1/appointments/pet-owner/d2000000-0000-4000-8000-000000000001", headers: auth) { res in
                let list = try Self.decoder.decode([Appointment].self, from: Data(buffer: res.body))
                #expect(!list.isEmpty)
            }
        }
    }

    /// A fresh SQLite-backed application with the demo data, configured as the server configures itself.
    func withDemoApp(_ body: (Application) async throws -> Void) async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("seedcompat-\(UUID().uuidString)")
        let app = try await Application.make(.testing)
        do {
            let config = try AppConfig.load(
                environmentName: "testing",
                env: EnvironmentReader(["DATA_DIR": dataDir.path, "BCRYPT_COST": "4", "DISABLE_RATE_LIMITS": "true"]))
            try await CoreBootstrap.configure(app, config: config)
            try HelpPetModule.configure(app)
            try await app.autoMigrate()
            try await DatabaseSetup.prepareConnections(app)
            try await HelpPetDemoData.seed(on: app.db, now: WireTime.truncated(Date()))
            try await body(app)
        } catch {
            try? await app.asyncShutdown()
            try? FileManager.default.removeItem(at: dataDir)
            throw error
        }
        try await app.asyncShutdown()
        try? FileManager.default.removeItem(at: dataDir)
    }
}
