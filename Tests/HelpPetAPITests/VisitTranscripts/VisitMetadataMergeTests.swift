import AppCore
import Foundation
import Testing
import VaporTesting

/// The metadata merge of `PUT /api/v1/visit-transcripts/{visit_id}` (contract §4.9): top-level keys only, a value
/// replaces the key whole, `null` removes it, unmentioned keys stay; server-managed keys are refused; concurrent
/// merges of different keys all survive. Also the draft-summary rule for PET_OWNER callers (§4.0, §5.1).
@Suite struct VisitMetadataMergeTests {
    @Test func topLevelKeysAreSetReplacedWholeOrRemoved() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let first = try await app.put(VisitFixtures.demo, token: vet, json: ["metadata": [
                "vitals": ["hr": 80, "temp": 101.5, "notes": ["calm"]] as [String: Any?],
                "duration_minutes": nil, "tags": ["a", "b"], "Content-Type": "text/plain", "camelKey": 1.25,
            ] as [String: Any?]])
            #expect(first.status == .ok, "\(first)")
            let expectedFirst = """
                {"chief_complaint": "Annual wellness exam", "vitals": {"hr": 80, "temp": 101.5, "notes": ["calm"]},
                 "tags": ["a", "b"], "Content-Type": "text/plain", "camelKey": 1.25}
                """
            #expect(first.json["metadata"].value == (try JSONNode(data: Data(expectedFirst.utf8))).value)

            // A nested object is replaced, never merged into.
            let second = try await app.put(VisitFixtures.demo, token: vet, json: ["metadata": [
                "vitals": ["rr": 20], "tags": [], "chief_complaint": nil,
            ] as [String: Any?]])
            let expectedSecond = """
                {"vitals": {"rr": 20}, "tags": [], "Content-Type": "text/plain", "camelKey": 1.25}
                """
            #expect(second.json["metadata"].value == (try JSONNode(data: Data(expectedSecond.utf8))).value)
            #expect(try await app.get(VisitFixtures.demo, token: vet).json["metadata"].value == second.json["metadata"].value)

            // Removing every key leaves an empty object, never null.
            let emptied = try await app.put(VisitFixtures.demo, token: vet, json: ["metadata": [
                "vitals": nil, "tags": nil, "Content-Type": nil, "camelKey": nil,
            ] as [String: Any?]])
            #expect(emptied.json["metadata"].keys.isEmpty)
            #expect(emptied.text.contains("\"metadata\":{}"), "\(emptied)")
        }
    }

    @Test func serverManagedKeysAreRefusedAndChangeNothing() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(VisitFixtures.demo, token: vet)
            for key in VisitFixtures.managedKeys {
                for value: Any? in ["x", nil] {
                    expectError(
                        try await app.put(VisitFixtures.demo, token: vet, json: [
                            "metadata": ["client_key": "ok", key: value] as [String: Any?], "summary": "changed",
                        ]),
                        .badRequest, "metadata key '\(key)' is managed by the server")
                }
            }
            #expect(try await app.get(VisitFixtures.demo, token: vet).json.value == before.json.value)
        }
    }

    @Test func sizeAndKeyLimitsApplyToTheSentObject() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(
                try await app.put(VisitFixtures.demo, token: vet, json: ["metadata": VisitFixtures.metadata(keys: 101)]),
                .badRequest, "metadata must have at most 100 keys")
            expectError(
                try await app.put(VisitFixtures.demo, token: vet, json: ["metadata": VisitFixtures.metadata(serializedBytes: 65_537)]),
                .badRequest, "metadata must be at most 65536 bytes")
            let keys = try await app.put(VisitFixtures.demo, token: vet, json: ["metadata": VisitFixtures.metadata(keys: 100)])
            #expect(keys.status == .ok, "\(keys)")
            let bytes = try await app.put(
                VisitFixtures.demo, token: vet, json: ["metadata": VisitFixtures.metadata(serializedBytes: 65_536)])
            #expect(bytes.status == .ok, "\(bytes)")
            #expect(bytes.json["metadata"]["blob"].string?.count == 65_536 - 11)
        }
    }

    @Test func concurrentMergesOfDifferentKeysAllSurvive() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            async let a = app.putAsAClientWould(VisitFixtures.demo, token: vet, json: ["metadata": ["weight_lbs": 66]])
            async let b = app.putAsAClientWould(VisitFixtures.demo, token: admin, json: ["metadata": ["heart_rate": 92]])
            async let c = app.putAsAClientWould(VisitFixtures.demo, token: vet, json: ["metadata": ["mood": "calm"]])
            async let d = app.putAsAClientWould(VisitFixtures.demo, token: admin, json: ["metadata": ["duration_minutes": nil]])
            async let e = app.putAsAClientWould(VisitFixtures.demo, token: vet, json: ["metadata": ["diet": ["kibble"]] as [String: Any?]])
            async let f = app.putAsAClientWould(VisitFixtures.demo, token: vet, json: ["summary": "approved text"])
            let responses = try await [a, b, c, d, e, f]
            for response in responses { #expect(response.status == .ok, "\(response)") }
            let metadata = try await app.get(VisitFixtures.demo, token: vet).json["metadata"]
            #expect(metadata["weight_lbs"].int == 66)
            #expect(metadata["heart_rate"].int == 92)
            #expect(metadata["mood"].string == "calm")
            #expect(metadata["diet"].array?.map(\.string) == ["kibble"])
            #expect(metadata["duration_minutes"].isAbsent)
            #expect(metadata["chief_complaint"].string == "Annual wellness exam")
            #expect(metadata["summary_status"].string == "approved")
            // Approval also records who, when, and what was approved (a text here: the demo visit has no drafted note).
            #expect(metadata["summary_approved_by"].string == Demo.vet1.id.lowercased)
            #expect(metadata["summary_approved_from"].string == "text")
            #expect(metadata.keys.count == 9, "\(metadata)")
        }
    }

    @Test func manyConcurrentMergesAllSurvive() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for i in 0..<16 {
                    group.addTask {
                        try await app.putAsAClientWould(VisitFixtures.demo, token: vet, json: ["metadata": ["key_\(i)": i]])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.allSatisfy { $0.status == .ok }, "\(responses.map(\.status.code))")
            let metadata = try await app.get(VisitFixtures.demo, token: vet).json["metadata"]
            for i in 0..<16 { #expect(metadata["key_\(i)"].int == i, "key_\(i)") }
            #expect(metadata.keys.count == 18)
        }
    }

    /// `summary_status: draft` is what the transcription worker leaves (§5.1); it is set here with SQL.
    @Test func petOwnersDoNotSeeADraftSummary() async throws {
        try await withTestApp { app in
            try await VisitSQL.setMetadata(
                app, Demo.visitID, json: #"{"chief_complaint": "Annual wellness exam", "summary_status": "draft"}"#)
            let owner = try await app.token(for: Demo.owner1)
            let vet = try await app.token(for: Demo.vet1)
            let own = try await app.get(VisitFixtures.demo, token: owner)
            #expect(own.status == .ok)
            #expect(own.json["summary"].isNull, "a draft is hidden from PET_OWNER")
            #expect(own.json.keys == ClinicalKeys.visitTranscript, "the key is still present")
            #expect(own.json["metadata"]["summary_status"].string == "draft")
            let listed = try await app.get(VisitFixtures.list(pet: 1), token: owner)
            #expect(listed.json[0]["summary"].isNull)
            for token in [vet, try await app.token(for: Demo.admin)] {
                #expect(try await app.get(VisitFixtures.demo, token: token).json["summary"].string
                    == "Routine wellness exam completed. No issues found.")
                #expect(try await app.get(VisitFixtures.list(pet: 1), token: token).json[0]["summary"].string
                    == "Routine wellness exam completed. No issues found.")
            }

            // A metadata-only edit keeps the draft; a PUT containing `summary` approves it.
            let metadataOnly = try await app.put(VisitFixtures.demo, token: vet, json: ["metadata": ["reviewed": false]])
            #expect(metadataOnly.json["metadata"]["summary_status"].string == "draft")
            #expect(try await app.get(VisitFixtures.demo, token: owner).json["summary"].isNull)
            let approved = try await app.put(
                VisitFixtures.demo, token: vet, json: ["summary": "Routine wellness exam completed. No issues found."])
            #expect(approved.json["metadata"]["summary_status"].string == "approved")
            #expect(try await app.get(VisitFixtures.demo, token: owner).json["summary"].string
                == "Routine wellness exam completed. No issues found.")
        }
    }

    @Test func anApprovedSummaryIsVisibleToOwners() async throws {
        try await withTestApp { app in
            try await VisitSQL.setMetadata(app, Demo.visitID, json: #"{"summary_status": "approved"}"#)
            let owner = try await app.get(VisitFixtures.demo, token: try await app.token(for: Demo.owner1))
            #expect(owner.json["summary"].string == "Routine wellness exam completed. No issues found.")
        }
    }
}

extension Application {
    /// A PUT retried after `Retry-After` while it is answered 503, as the app does. A write that waits past the
    /// contract's 2 s pool / 5 s busy limits on a loaded machine is refused with 503 and applies nothing; what
    /// these tests check is that no accepted merge is lost, not how fast a contended SQLite file answers.
    func putAsAClientWould(_ path: String, token: String, json: [String: Any?]) async throws -> TestResponse {
        for _ in 0..<5 {
            let response = try await put(path, token: token, json: json)
            guard response.status == .serviceUnavailable, response.headers.first(name: "Retry-After") == "1" else {
                return response
            }
            try await Task.sleep(for: .seconds(1))
        }
        return try await put(path, token: token, json: json)
    }
}
