import Vapor

/// The console's photo routes (contract §4.7.4): the same presign and link as the app's (`PhotosController`), on
/// any appointment, plus deleting a photo.
struct AdminPhotosController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.jsonRoute(.POST, "uploads", "presign") { try await PhotosController.presign($0, admin: true) }
        routes.jsonRoute(.POST, "appointments", ":appointmentId", "photos") { try await PhotosController.link($0, admin: true) }
        routes.on(.DELETE, "appointments", ":appointmentId", "photos", ":photoId", use: PhotosController.deletePhoto)
    }
}
