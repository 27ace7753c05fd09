import AppCore
@testable import AutoDetailAPI
import Foundation
import Testing
import VaporTesting

/// `ServiceStore`'s statements (both engines): inactive services hidden from clients, the one-statement resolution
/// of a booking's service by id and/or name, and the active-name clash on insert.
@Suite struct ServiceStoreTests {
    @Test func catalogueHidesInactiveServicesAndKeepsTheCatalogueOrder() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let store = ServiceStore(db: app.db)
            let before = try await store.activeCatalogue()
            let washing = try #require(before.first { $0.name == "Car Washing" })
            let admin = try await app.adminToken()
            #expect(try await app.delete("/api/admin/services/\(washing.id.lowercased)", bearer: admin).status == .noContent)

            let after = try await store.activeCatalogue()
            #expect(after.map(\.id) == before.map(\.id).filter { $0 != washing.id })
            #expect(after.map(\.nameNormalized) == after.map(\.nameNormalized).sorted {
                Array($0.unicodeScalars.map(\.value)).lexicographicallyPrecedes(Array($1.unicodeScalars.map(\.value)))
            })
            #expect(try await store.findActive(washing.id) == nil)
            #expect(try await store.find(washing.id)?.active == false)
            #expect(try await store.all(active: false).map(\.id) == [washing.id])
        }
    }

    @Test func activeMatchingResolvesIdAndNameInOneRead() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let store = ServiceStore(db: app.db)
            let catalogue = try await store.activeCatalogue()
            let washing = try #require(catalogue.first { $0.name == "Car Washing" })
            let interior = try #require(catalogue.first { $0.name == "Interior Detailing" })

            let both = try await store.activeMatching(id: washing.id, name: "  car WASHING ")
            #expect(both.byID?.id == washing.id && both.byName?.id == washing.id)
            let mismatch = try await store.activeMatching(id: washing.id, name: "Interior Detailing")
            #expect(mismatch.byID?.id == washing.id && mismatch.byName?.id == interior.id)
            let unknown = try await store.activeMatching(id: UUID(), name: "No such service")
            #expect(unknown.byID == nil && unknown.byName == nil)
            let neither = try await store.activeMatching(id: nil, name: nil)
            #expect(neither.byID == nil && neither.byName == nil)
        }
    }

    @Test func insertAnswersNilOnAnActiveNameClash() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let store = ServiceStore(db: app.db)
            let clash = try await store.insert(
                name: " car washing", description: "", priceRub: 100, durationMinutes: 30, imageURL: nil, active: true,
                now: Fixture.exampleNow)
            #expect(clash == nil)
            let inactive = try await store.insert(
                name: "Car Washing", description: "", priceRub: 100, durationMinutes: 30, imageURL: nil, active: false,
                now: Fixture.exampleNow)
            #expect(inactive?.active == false, "the name is unique among active services only")
        }
    }
}
