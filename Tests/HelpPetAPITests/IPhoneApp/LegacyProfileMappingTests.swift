import AppCore
import Foundation
import Testing
import Vapor

@testable import HelpPetAPI

/// The legacy client profile's detection and its mapping, as pure functions.
@Suite struct LegacyProfileMappingTests {
    @Test(arguments: [
        ("HelpPetAI/57 CFNetwork/1496.0.7 Darwin/23.5.0", ClientProfile.iosLegacy),
        ("HelpPetAI (unknown version) CFNetwork/1.0", .iosLegacy),
        ("HelpPetAI", .iosLegacy),
        ("HelpPetAIClone/1.0", .standard),
        ("Mozilla/5.0 HelpPetAI/57", .standard),
        ("HelpPetKit/1.0 (Linux)", .standard),
        ("", .standard),
    ])
    func theFirstProductTokenDecides(_ agent: String, _ expected: ClientProfile) {
        #expect(ClientProfile(headers: ["User-Agent": agent]) == expected)
    }

    @Test func theHeaderSelectsTheProfileWhateverTheUserAgent() {
        #expect(ClientProfile(headers: ["X-HelpPet-Client": "ios-legacy", "User-Agent": "curl/8"]) == .iosLegacy)
        #expect(ClientProfile(headers: ["X-HelpPet-Client": "IOS-Legacy"]) == .iosLegacy)
        #expect(ClientProfile(headers: ["X-HelpPet-Client": "kit"]) == .standard)
        #expect(ClientProfile(headers: [:]) == .standard)
    }

    @Test func recordMedicationsBecomeOneStringAndAdminBecomesSystemAdmin() {
        let body: JSONValue = .object([
            "records": .array([
                .object(["record_type": .string("checkup"), "medications": .array([.string("A"), .string("B 5 mg")])]),
                .object(["record_type": .string("checkup"), "medications": .array([])]),
            ]),
            "pet": .object(["name": .string("Bella"), "medications": .string("kept")]),
            "user": .object(["username": .string("admin"), "role": .string("ADMIN")]),
            "vet": .object(["username": .string("vet1"), "role": .string("VET")]),
            "pending": .object(["username": .string("new"), "role": .string("PENDING")]),
            "not_a_user": .object(["role": .string("ADMIN")]),
        ])
        guard case .object(let mapped) = LegacyResponseMapping.map(body) else {
            Issue.record("not an object")
            return
        }
        #expect(mapped["records"] == .array([
            .object(["record_type": .string("checkup"), "medications": .string("A, B 5 mg")]),
            .object(["record_type": .string("checkup"), "medications": .string("")]),
        ]))
        #expect(mapped["pet"] == body.objectValue?["pet"])
        #expect(mapped["user"]?.objectValue?["role"] == .string("SYSTEM_ADMIN"))
        #expect(mapped["vet"]?.objectValue?["role"] == .string("VET"))
        #expect(mapped["pending"]?.objectValue?["role"] == .string("PENDING_INVITE"))
        #expect(mapped["not_a_user"]?.objectValue?["role"] == .string("ADMIN"))
    }

    @Test(arguments: ["John Smith", "Mary Ann  van Dyke", "Cher", "A\tB", "Jean-Luc Picard"])
    func fullNameSplitRoundTrips(_ name: String) throws {
        let split = try FullNameSplit(name)
        #expect(FullNameSplit.join(split.firstName, split.lastName) == name)
        #expect(!split.lastName.contains(" "))
    }

    @Test func medicationStringsSplitOnCommasAndLineBreaks() {
        #expect(MedicationList.split("Amoxicillin 250 mg, Rimadyl\nApoquel,, ") == ["Amoxicillin 250 mg", "Rimadyl", "Apoquel"])
        #expect(MedicationList.split("") == [])
        #expect(MedicationList.join(MedicationList.split("A, B")) == "A, B")
    }

    @Test func petAgeCountsWholeYearsOnTheBirthday() {
        let born = CalendarDay(year: 2020, month: 2, day: 29)!
        #expect(PetAge.wholeYears(born: born, today: CalendarDay(year: 2021, month: 2, day: 28)!) == 0)
        #expect(PetAge.wholeYears(born: born, today: CalendarDay(year: 2021, month: 3, day: 1)!) == 1)
        #expect(PetAge.wholeYears(born: born, today: CalendarDay(year: 2024, month: 2, day: 29)!) == 4)
    }
}
