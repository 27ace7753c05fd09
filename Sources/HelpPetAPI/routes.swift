import AppCore
import Vapor

/// Every HelpPet route, in one place: each controller is a `RouteCollection` for one resource, registered on the
/// middleware group that guards it. Per-route rate limits stay inside the controller that owns the route.
func routes(_ app: Application, config: AppConfig) throws {
    // Converted from YAML now, so a broken document stops the start rather than a request.
    _ = OpenAPIDocument.data
    app.get("openapi.json", use: OpenAPIDocument.serve)
    // Outside the route groups, so it answers before routing and authentication, as an unknown route would.
    app.middleware.use(PhoneServiceRoutesMiddleware())
    // Any write through this process (API or console) is on the day boards' next poll.
    app.middleware.use(BoardStampInvalidation())

    // Public. The legacy client profile's mapping wraps every /api/v1 route (LegacyClientMiddleware).
    let api = app.grouped("api", "v1").grouped(LegacyClientMiddleware())
    api.get("health", use: HealthController.liveness)
    try api.register(collection: AuthController())
    try api.register(collection: PasswordResetController())
    try api.register(collection: SignupController(ledger: app.core.attempts))
    // `GET /practices` authenticates itself: without a token it is the public practice directory.
    try api.register(collection: PracticeDirectoryController(ledger: app.core.attempts))
    try api.register(collection: InvitesController.Public())

    // `authenticated` admits every valid token, PENDING users too (signed up, not yet admitted to a practice);
    // `protected` also refuses PENDING users (docs: "Onboarding").
    let authenticated = api.grouped(BearerAuthMiddleware())
    try authenticated.register(collection: CurrentUserController())
    try authenticated.register(collection: PracticeMembershipController())
    try authenticated.register(collection: PracticeCreationController(selfServiceEnabled: config.selfServicePractices))
    try authenticated.register(collection: DeviceTokensController())
    // Accepting is how a PENDING user joins, so it is outside PendingMembershipGate.
    try authenticated.register(collection: InvitesController(ledger: app.core.attempts))

    let protected = authenticated.grouped(PendingMembershipGate())
    try protected.register(collection: UsersController())
    try protected.register(collection: PracticesController())
    try protected.register(collection: AppointmentsController())
    try protected.register(collection: DashboardController())
    try protected.register(collection: PetOwnersController())
    try protected.register(collection: PetsController())
    try protected.register(collection: MedicalRecordsController())
    try protected.register(collection: VisitTranscriptsController())
    try protected.register(collection: AudioUploadController())
    try protected.register(collection: VisitRecordingAdminController())
    try protected.register(collection: VetAvailabilityController())
    try protected.register(collection: PracticeVocabularyController())
    try protected.register(collection: VisitAddendaController())
    try protected.register(collection: DischargeInstructionsController())
    try protected.register(collection: NoteTemplatesController())
    try protected.register(collection: PracticeInvitesController())
    try protected.register(collection: HelpPetModule.legacyUploads(app, config: config))
}
