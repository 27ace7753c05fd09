import AppCore
import Fluent
import Vapor

/// Registers HelpPet's migrations and routes under `/api/v1`.
public enum HelpPetModule {
    public static let migrations: [any Migration] = [
        M0101_CreatePractices(), M0102_CreateUsers(), M0103_CreatePetOwners(), M0104_CreatePets(),
        M0105_CreateAppointments(), M0106_CreateMedicalRecords(), M0107_CreateVisits(),
        M0108_CreateTranscriptionJobs(),
    ]

    public static func configure(_ app: Application) throws {
        app.migrations.add(migrations)
        let config = app.core.config
        let throttle = LoginThrottle(
            settings: .init(
                maxPerKey: config.loginThrottle.maxFailuresPerKey, maxPerUser: config.loginThrottle.maxFailuresPerUser,
                maxPerIP: config.loginThrottle.maxFailuresPerIP,
                window: TimeInterval(config.loginThrottle.windowSeconds),
                lockout: TimeInterval(config.loginThrottle.lockoutSeconds)),
            enabled: !config.disableRateLimits)

        app.recordingStorage = RecordingStorage(
            store: app.objectStore, bucket: config.storage.helppetBucket, publicBaseURL: config.publicBaseURL,
            clientAddress: app.core.clientAddress)

        let api = app.grouped("api", "v1")
        api.get("health", use: HealthController.liveness)
        app.get("openapi.json", use: OpenAPIDocument.serve)
        let protected = api.grouped(BearerAuthMiddleware())
        AuthController(throttle: throttle).boot(public: api, protected: protected)
        for controller in controllers {
            controller.boot(routes: protected)
        }
    }

    static let controllers: [any HelpPetRouteCollection] = [
        UsersController(), PracticesController(), AppointmentsController(), DashboardController(),
        PetOwnersController(), PetsController(), MedicalRecordsController(), VisitTranscriptsController(),
        AudioUploadController(),
    ]
}

/// A controller of authenticated `/api/v1` routes.
protocol HelpPetRouteCollection: Sendable {
    func boot(routes: any RoutesBuilder)
}
