import AppCore
import Foundation

/// A Photo (contract §3.4): a freshly signed URL; `mismatch` only in the admin representation.
struct PhotoResponse: Encodable, Sendable {
    let id: String
    let url: String
    let createdAt: Date
    let mismatch: Bool?

    enum CodingKeys: String, CodingKey { case id, url, createdAt, mismatch }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(url, forKey: .url)
        try c.encode(createdAt, forKey: .createdAt)
        if let mismatch { try c.encode(mismatch, forKey: .mismatch) }
    }
}

/// An Appointment (contract §3.3). The client representation decodes with the seed's `Appointment`; the admin one
/// adds `installId` (always present, possibly null) and each photo's `mismatch`.
struct AppointmentResponse: Encodable, Sendable {
    let id: String
    let source: String
    let status: String
    let startIso: Date
    let endIso: Date
    let clientName: String
    let phone: String?
    let telegram: String?
    let carMake: String?
    let carPlate: String?
    let serviceId: String
    let serviceName: String
    let priceRub: Int
    let notes: String?
    let workPhotos: [PhotoResponse]
    let defectPhotos: [PhotoResponse]
    let createdAt: Date
    let updatedAt: Date
    /// Admin representation only: `.some(nil)` encodes `"installId": null`.
    let installId: String??

    enum CodingKeys: String, CodingKey {
        case id, source, status, startIso, endIso, clientName, phone, telegram, carMake, carPlate, serviceId,
            serviceName, priceRub, notes, workPhotos, defectPhotos, createdAt, updatedAt, installId
    }

    init(_ a: AppointmentRow, workPhotos: [PhotoResponse], defectPhotos: [PhotoResponse], admin: Bool) {
        id = a.id.lowercased
        source = a.source
        status = a.status
        startIso = a.startAt
        endIso = a.endAt
        clientName = a.clientName
        phone = a.phone
        telegram = a.telegram
        carMake = a.carMake
        carPlate = a.carPlate
        serviceId = a.serviceId.lowercased
        serviceName = a.serviceName
        priceRub = a.priceRub
        notes = a.notes
        self.workPhotos = workPhotos
        self.defectPhotos = defectPhotos
        createdAt = a.createdAt
        updatedAt = a.updatedAt
        installId = admin ? .some(a.installId?.lowercased) : .none
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(source, forKey: .source)
        try c.encode(status, forKey: .status)
        try c.encode(startIso, forKey: .startIso)
        try c.encode(endIso, forKey: .endIso)
        try c.encode(clientName, forKey: .clientName)
        try c.encode(phone, forKey: .phone)
        try c.encode(telegram, forKey: .telegram)
        try c.encode(carMake, forKey: .carMake)
        try c.encode(carPlate, forKey: .carPlate)
        try c.encode(serviceId, forKey: .serviceId)
        try c.encode(serviceName, forKey: .serviceName)
        try c.encode(priceRub, forKey: .priceRub)
        try c.encode(notes, forKey: .notes)
        try c.encode(workPhotos, forKey: .workPhotos)
        try c.encode(defectPhotos, forKey: .defectPhotos)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        if case .some(let install) = installId { try c.encode(install, forKey: .installId) }
    }
}
