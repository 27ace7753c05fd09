import AppCore
import Vapor

/// Every AutoDetail Hub route, in one place: each controller is a `RouteCollection` for one resource, registered on
/// the middleware group that guards it. Per-route rate limits stay inside the controller that owns the route.
func routes(_ app: Application, usage: KeyUsageRecorder, limits: RateLimits) throws {
    let config = app.core.config
    // Converted from YAML now, so a broken document stops the start rather than a request.
    _ = AutoDetailOpenAPIDocument.data
    app.get("openapi", "autodetail.json", use: AutoDetailOpenAPIDocument.serve)

    // Public: no key, no token.
    let api = app.grouped("api")
    try api.register(collection: PingController(message: config.autodetail.pingMessage))
    try api.register(collection: KeyAccessController(limits: limits))
    try api.register(collection: ServicesController())
    try api.register(collection: AvailabilityController())
    try api.register(collection: AdminLoginController())

    // Any API key, organisation or app installation.
    let keys = api.grouped(APIKeyAuthMiddleware(installKeysOnly: false, usage: usage))
    try keys.register(collection: ClientAppointmentsController())
    try keys.register(collection: PhotosController())

    // App installation keys only.
    let installs = api.grouped(APIKeyAuthMiddleware(installKeysOnly: true, usage: usage))
    try installs.register(collection: InstallController())

    // The console: `/api/admin/**` with an admin token.
    let admin = api.grouped("admin").grouped(AdminAuthMiddleware())
    try admin.register(collection: AdminSessionController())
    try admin.register(collection: AdminAPIKeysController())
    try admin.register(collection: AdminServicesController())
    try admin.register(collection: AdminAppointmentsController())
    try admin.register(collection: AdminPhotosController())
    try admin.register(collection: AdminInstallsController())
    try admin.register(collection: AdminSettingsController())
}
