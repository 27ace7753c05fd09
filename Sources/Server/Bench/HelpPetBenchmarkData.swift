import AppCore
import Fluent
import HelpPetAPI
import Foundation

/// The benchmark dataset of `bench/run` (`server bench-seed`): practices, vets, owners, pets, appointments with 1–3
/// pets, versioned medical records and processed recording visits, inserted in bulk through the real models so ids,
/// timestamps and encodings are those of the server on either engine. Deterministic for a given day: every random
/// choice comes from a fixed-seed generator.
///
/// Every vet's password is `password123`: all vets share one precomputed bcrypt hash (cost 12, the demo data's), so
/// seeding does not spend minutes hashing while a login still costs a real cost-12 verification.
///
/// It lives in the `server` executable, next to `server bench-seed`, its only user, rather than in HelpPetAPI: the
/// shipping library holds no made-up data beyond the demo seed. It writes HelpPet's own Fluent models, which are
/// `package`-visible for this (a separate BenchSupport target would need the same, for one file).
enum HelpPetBenchmarkData {
    public struct Options: Sendable {
        public var practices = 20
        public var vets = 200
        public var owners = 4_000
        public var appointments = 20_000
        public var recordVersions = 50_000
        public var visits = 20_000
        public init() {}
    }

    public static let vetPassword = "password123"

    /// What `bench/run` needs to address the data: written as JSON by `server bench-seed --manifest`.
    public struct Manifest: Codable, Sendable {
        public struct PracticeEntry: Codable, Sendable {
            public var id: String
            public var timezone: String
            public var today: String
            /// (username, user id) of each vet of the practice.
            public var vets: [[String]]
            /// Appointments of the practice (any day), pets with medical records, pets with visits.
            public var appointments: [String]
            public var recordPets: [String]
            public var visitPets: [String]
            /// (appointment, pet) pairs of today's and later appointments that are not cancelled and have no visit:
            /// each one can be initiated once (a second initiate of a pair re-issues the same visit's upload).
            public var initiatePairs: [[String]]

            enum CodingKeys: String, CodingKey {
                case id, timezone, today, vets, appointments
                case recordPets = "record_pets"
                case visitPets = "visit_pets"
                case initiatePairs = "initiate_pairs"
            }
        }
        public var vetPassword: String
        public var counts: [String: Int]
        public var practices: [PracticeEntry]

        enum CodingKeys: String, CodingKey {
            case vetPassword = "vet_password"
            case counts, practices
        }
    }

    /// A fixed-seed generator (SplitMix64), so two runs on the same day produce the same rows.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func uuid() -> UUID {
            let a = next(), b = next()
            var bytes = [UInt8](repeating: 0, count: 16)
            for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(i))) }
            for i in 0..<8 { bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(i))) }
            bytes[6] = (bytes[6] & 0x0F) | 0x40
            bytes[8] = (bytes[8] & 0x3F) | 0x80
            return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }
    }

    static let zones = ["America/Los_Angeles", "America/Denver", "America/Chicago", "America/New_York",
                        "Europe/London", "Europe/Berlin", "Australia/Sydney", "UTC"]
    static let firstNames = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia", "Lucas",
                             "Amelia", "Mateo", "Harper", "Ethan", "Aria", "Kenji", "Priya", "Omar", "Chloe", "Diego"]
    static let lastNames = ["Garcia", "Nguyen", "Smith", "Johnson", "Kim", "Patel", "Brown", "Lopez", "Müller", "Rossi",
                            "Wilson", "Chen", "Martin", "Novak", "Silva", "Okafor", "Haddad", "Larsen", "Dubois", "Sato"]
    static let petNames = ["Bella", "Max", "Luna", "Charlie", "Lucy", "Cooper", "Daisy", "Milo", "Bailey", "Nala",
                           "Rocky", "Mittens", "Simba", "Zoe", "Toby", "Coco", "Oreo", "Pepper", "Loki", "Ruby"]
    static let species: [(String, [String])] = [
        ("dog", ["Labrador Retriever", "Golden Retriever", "Beagle", "German Shepherd", "Poodle", "Mixed"]),
        ("cat", ["Siamese", "Maine Coon", "Persian", "Domestic Shorthair", "Bengal"]),
        ("rabbit", ["Holland Lop", "Mini Rex"]),
    ]
    static let sentences = [
        "Patient presented for a routine wellness examination with the owner reporting good appetite.",
        "Heart and lungs auscultated normally, no murmurs or crackles were noted during the exam.",
        "Weight is stable compared with the last visit and body condition score is five out of nine.",
        "Mild dental tartar on the upper premolars; a dental cleaning was discussed with the owner.",
        "Skin and coat are healthy, no fleas or ticks found, ears clean on otoscopic examination.",
        "Temperature 101.5 F, heart rate 96 bpm, respiratory rate 24 breaths per minute.",
        "Vaccinations updated today; the owner was advised to watch for lethargy over the next day.",
        "Recommend a follow-up visit in two weeks to recheck the healing of the incision site.",
        "Started amoxicillin 250 mg twice daily for ten days for the superficial skin infection.",
        "Owner reports occasional vomiting after meals; recommended a bland diet for three days.",
    ]

    static func text(_ rng: inout SplitMix64, sentences count: Int) -> String {
        (0..<count).map { _ in sentences[Int(rng.next() % UInt64(sentences.count))] }.joined(separator: " ")
    }

    static func pick<T>(_ items: [T], _ rng: inout SplitMix64) -> T { items[Int(rng.next() % UInt64(items.count))] }
    static func int(_ range: ClosedRange<Int>, _ rng: inout SplitMix64) -> Int {
        range.lowerBound + Int(rng.next() % UInt64(range.count))
    }

    /// Inserts the dataset in one transaction per table batch and returns the manifest.
    public static func seed(on db: any Database, now: Date, options o: Options) async throws -> Manifest {
        var rng = SplitMix64(state: 0x4845_4C50_5045_5431)  // "HELPPET1"
        let passwordHash = HelpPetDemoData.passwordHash
        let p = max(1, o.practices)

        struct PracticeData {
            var id: UUID
            var zone: TimeZone
            var today: CalendarDay
            var vets: [(UUID, String)] = []
            var owners: [(UUID, [UUID])] = []
            var appointments: [(UUID, Date, String, [UUID])] = []
            var recordPets: [UUID] = []
            var visitPets: [UUID] = []
            var initiatePairs: [(UUID, UUID)] = []
        }

        var practices: [PracticeData] = []
        var practiceRows: [Practice] = []
        for i in 0..<p {
            let row = Practice()
            row.id = rng.uuid()
            let zone = TimeZone(identifier: zones[i % zones.count])!
            row.name = "Bench Veterinary Clinic \(i + 1)"
            row.timezone = zone.identifier
            row.phone = "+1-555-02\(String(format: "%02d", i % 100))-0100"
            row.email = "clinic\(i + 1)@bench.helppet.ai"
            row.address = "\(100 + i) Bench Street, Springfield"
            row.isActive = true
            row.createdAt = now
            row.updatedAt = now
            practiceRows.append(row)
            practices.append(PracticeData(id: row.id!, zone: zone, today: LocalDay.day(containing: now, in: zone)))
        }

        var users: [User] = []
        for v in 0..<o.vets {
            let practice = v % p
            let user = User()
            user.id = rng.uuid()
            user.username = String(format: "bench-vet-%03d", v + 1)
            user.email = String(format: "bench-vet-%03d@bench.helppet.ai", v + 1)
            user.fullName = "Dr. \(pick(firstNames, &rng)) \(pick(lastNames, &rng))"
            user.roleValue = (v % 3 == 0 ? UserRole.vet : UserRole.vetStaff).rawValue
            user.practiceID = practices[practice].id
            user.passwordHash = passwordHash
            user.isActive = true
            user.credentialsChangedAt = Date(timeIntervalSince1970: 0)
            user.tokenVersion = 0
            user.createdAt = now
            user.updatedAt = now
            users.append(user)
            practices[practice].vets.append((user.id!, user.username))
        }

        var owners: [PetOwner] = []
        var links: [PetOwnerPractice] = []
        var pets: [Pet] = []
        for n in 0..<o.owners {
            let practice = n % p
            let owner = PetOwner()
            owner.id = rng.uuid()
            owner.firstName = pick(firstNames, &rng)
            owner.lastName = pick(lastNames, &rng)
            owner.email = "owner\(n + 1)@bench.example.com"
            owner.phone = String(format: "+1-555-%03d-%04d", n % 1000, n % 10_000)
            owner.address = "\(n + 1) Maple Avenue, Springfield"
            owner.userID = nil
            owner.createdAt = now
            owner.updatedAt = now
            owners.append(owner)
            let link = PetOwnerPractice()
            link.id = .init(petOwnerID: owner.id!, practiceID: practices[practice].id)
            link.createdAt = now
            links.append(link)
            var petIDs: [UUID] = []
            for _ in 0..<int(2...4, &rng) {
                let pet = Pet()
                pet.id = rng.uuid()
                pet.ownerID = owner.id!
                pet.name = pick(petNames, &rng)
                let (kind, breeds) = pick(species, &rng)
                pet.species = kind
                pet.breed = pick(breeds, &rng)
                pet.color = pick(["black", "white", "brown", "golden", "grey", "tricolor"], &rng)
                pet.gender = pick(["male", "female"], &rng)
                pet.dateOfBirth = String(format: "%04d-%02d-%02d", int(2010...2024, &rng), int(1...12, &rng), int(1...28, &rng))
                pet.weight = Double(int(20...900, &rng)) / 10
                pet.microchipNumber = nil
                pet.allergies = rng.next() % 5 == 0 ? "penicillin" : nil
                pet.isActive = true
                pet.registrationDate = "2024-01-15"
                pet.createdAt = now
                pet.updatedAt = now
                pets.append(pet)
                petIDs.append(pet.id!)
            }
            practices[practice].owners.append((owner.id!, petIDs))
        }

        // Appointments: each vet gets an equal share, ten per practice-local day (08:00, 08:45, …) over the days
        // today-6 … today+3, so every vet's dashboard/today holds a normal day of about ten appointments.
        var appointments: [Appointment] = []
        var appointmentPets: [AppointmentPet] = []
        let perDay = 10
        let firstDay = -6
        var pairsPast: [[(UUID, UUID, Date)]] = Array(repeating: [], count: p)
        for a in 0..<o.appointments {
            let vetIndex = a % max(1, o.vets)
            let practice = vetIndex % p
            let (vetID, _) = practices[practice].vets[vetIndex / p]
            let k = a / max(1, o.vets)  // this vet's k-th appointment
            let dayOffset = firstDay + (k / perDay) % 10
            let slot = k % perDay
            let day = practices[practice].today.adding(days: dayOffset)
            let zone = practices[practice].zone
            let start = LocalDay.instant(on: day, hour: 8, minute: 0, in: zone).addingTimeInterval(Double(slot * 45 * 60))
            let duration = pick([30, 30, 45, 60], &rng)
            let status: AppointmentStatus
            let roll = rng.next() % 100
            if start.addingTimeInterval(Double(duration * 60)) <= now {
                status = roll < 8 ? .cancelled : .completed
            } else if start <= now {
                status = .inProgress
            } else {
                status = roll < 5 ? .cancelled : (roll < 40 ? .confirmed : .scheduled)
            }
            let (ownerID, ownerPets) = pick(practices[practice].owners, &rng)
            let petCount = min(ownerPets.count, int(1...3, &rng))
            let chosen = Array(ownerPets.prefix(petCount))
            let type = pick(AppointmentType.allCases, &rng)
            let row = Appointment()
            row.id = rng.uuid()
            row.practiceID = practices[practice].id
            row.petOwnerID = ownerID
            row.assignedVetUserID = vetID
            row.createdByUserID = vetID
            row.appointmentDate = start
            row.durationMinutes = duration
            row.appointmentType = type.rawValue
            row.statusValue = status.rawValue
            row.title = "\(type.rawValue.replacingOccurrences(of: "_", with: " ").capitalized) - \(chosen.count) pet(s)"
            row.description = rng.next() % 2 == 0 ? text(&rng, sentences: 1) : nil
            row.notes = rng.next() % 4 == 0 ? text(&rng, sentences: 1) : nil
            row.createdAt = now.addingTimeInterval(-86_400 * 14)
            row.updatedAt = now
            appointments.append(row)
            for (position, petID) in chosen.enumerated() {
                let link = AppointmentPet()
                link.id = .init(appointmentID: row.id!, petID: petID)
                link.position = position
                appointmentPets.append(link)
                if start < now, status != .cancelled {
                    pairsPast[practice].append((row.id!, petID, start))
                } else if start >= now, status != .cancelled {
                    practices[practice].initiatePairs.append((row.id!, petID))
                }
            }
            practices[practice].appointments.append((row.id!, start, status.rawValue, chosen))
        }

        // Medical records: lineages of 1–3 versions (70 / 20 / 10 %) until the version count is reached; created
        // over the last two years, amendments a few days after their predecessor.
        var records: [MedicalRecord] = []
        var lineage = 0
        while records.count < o.recordVersions {
            let practice = lineage % p
            lineage += 1
            let (_, ownerPets) = pick(practices[practice].owners, &rng)
            let petID = pick(ownerPets, &rng)
            let vetID = pick(practices[practice].vets, &rng).0
            let roll = rng.next() % 10
            let versions = min(o.recordVersions - records.count, roll < 7 ? 1 : (roll < 9 ? 2 : 3))
            let type = pick(MedicalRecordType.allCases, &rng)
            let firstCreated = WireTime.truncated(now.addingTimeInterval(-Double(int(864_000...63_072_000, &rng))))
            let originalID = rng.uuid()
            var medications: [String] = []
            for _ in 0..<int(0...3, &rng) { medications.append(pick(["Amoxicillin 250 mg", "Carprofen 75 mg", "Rabies Vaccine", "DHPP Vaccine", "Gabapentin 100 mg", "Apoquel 16 mg"], &rng)) }
            for v in 1...versions {
                let r = MedicalRecord()
                r.id = v == 1 ? originalID : rng.uuid()
                r.originalID = originalID
                r.version = v
                r.isCurrent = v == versions
                r.petID = petID
                r.practiceID = practices[practice].id
                r.recordType = type.rawValue
                r.title = "\(type.rawValue.replacingOccurrences(of: "_", with: " ").capitalized) record"
                r.description = text(&rng, sentences: 2)
                r.diagnosis = rng.next() % 2 == 0 ? "Healthy" : text(&rng, sentences: 1)
                r.treatmentPlan = rng.next() % 2 == 0 ? text(&rng, sentences: 1) : nil
                r.medications = Array(medications.prefix(v + 1))
                r.notes = v > 1 ? "Amended: \(text(&rng, sentences: 1))" : nil
                r.followUpDate = rng.next() % 3 == 0 ? practices[practice].today.adding(days: int(7...180, &rng)).description : nil
                r.createdBy = vetID
                r.createdAt = firstCreated.addingTimeInterval(Double((v - 1) * 3 * 86_400))
                r.updatedAt = v == versions ? r.createdAt : firstCreated.addingTimeInterval(Double(v * 3 * 86_400))
                r.visitDate = firstCreated
                r.followUpRequired = r.followUpDate != nil
                records.append(r)
            }
            if !practices[practice].recordPets.contains(petID), practices[practice].recordPets.count < 500 {
                practices[practice].recordPets.append(petID)
            }
        }

        // Visits: processed recordings of past appointments' pets, an equal share per practice.
        var visits: [Visit] = []
        for practice in 0..<p {
            var pairs = pairsPast[practice]
            pairs.shuffle(using: &rng)
            let share = o.visits / p + (practice < o.visits % p ? 1 : 0)
            for (appointmentID, petID, start) in pairs.prefix(share) {
                let v = Visit()
                let id = rng.uuid()
                v.id = id
                v.petID = petID
                v.practiceID = practices[practice].id
                v.appointmentID = appointmentID
                v.source = VisitSource.recording.rawValue
                v.stateValue = VisitState.processed.rawValue
                v.visitDate = start
                v.recordingDay = nil
                v.fullText = text(&rng, sentences: 8)
                v.summary = text(&rng, sentences: 2)
                v.audioTranscriptURL = nil
                let key = RecordingKey.make(issuedAt: start, petID: petID, visitID: id, attempt: 1, fileExtension: "m4a")
                v.storageKey = key
                v.attempt = 1
                v.uploadMethod = "presigned_post"
                v.uploadURLIssuedAt = start
                v.reservedAt = nil
                v.reconcileAfter = nil
                let vetID = practices[practice].vets.first!.0
                let done = WireTime.format(start.addingTimeInterval(600))
                v.metadata = [
                    "s3_key": .string(key), "s3_bucket": .string("helppetai-visit-recordings"),
                    "filename": .string("appointment_\(appointmentID.lowercased.prefix(8))_pet.m4a"),
                    "content_type": .string("audio/m4a"), "estimated_duration_seconds": .number(180),
                    "uploaded_by": .string(vetID.lowercased), "upload_method": .string("presigned_post"),
                    "attempt": .integer(1), "appointment_id": .string(appointmentID.lowercased),
                    "upload_initiated_at": .string(WireTime.format(start)),
                    "upload_url_issued_at": .string(WireTime.format(start)),
                    "upload_completed_at": .string(done), "completion_source": .string("client"),
                    "file_size_bytes": .integer(1_843_200), "duration_seconds": .number(182.4),
                    "device_metadata": .object([:]), "transcription_engine": .string("whisper"),
                    "transcription_model": .string("tiny.en"), "transcription_completed_at": .string(done),
                    "language": .string("en"), "summary_status": .string("draft"),
                ]
                v.createdBy = vetID
                v.createdAt = start
                v.updatedAt = start.addingTimeInterval(600)
                visits.append(v)
                if !practices[practice].visitPets.contains(petID), practices[practice].visitPets.count < 500 {
                    practices[practice].visitPets.append(petID)
                }
            }
        }

        try await insert(practiceRows, on: db)
        try await insert(users, on: db)
        try await insert(owners, on: db)
        try await insert(links, on: db)
        try await insert(pets, on: db)
        try await insert(appointments, on: db)
        try await insert(appointmentPets, on: db)
        try await insert(records, on: db)
        try await insert(visits, on: db)

        let visited = Set(visits.map { "\($0.appointmentID!)|\($0.petID)" })
        return Manifest(
            vetPassword: vetPassword,
            counts: ["practices": practiceRows.count, "vets": users.count, "owners": owners.count, "pets": pets.count,
                     "appointments": appointments.count, "appointment_pets": appointmentPets.count,
                     "medical_record_versions": records.count, "visits": visits.count],
            practices: practices.map { data in
                Manifest.PracticeEntry(
                    id: data.id.lowercased, timezone: data.zone.identifier, today: data.today.description,
                    vets: data.vets.map { [$0.1, $0.0.lowercased] },
                    appointments: data.appointments.prefix(500).map { $0.0.lowercased },
                    recordPets: data.recordPets.map(\.lowercased),
                    visitPets: data.visitPets.map(\.lowercased),
                    initiatePairs: data.initiatePairs.filter { !visited.contains("\($0.0)|\($0.1)") }
                        .map { [$0.0.lowercased, $0.1.lowercased] })
            })
    }

    /// Multi-row INSERTs of 500 rows (below SQLite's bound-parameter limit), all in one transaction.
    static func insert<M: Model>(_ models: [M], on db: any Database) async throws {
        try await db.transaction { db in
            var start = 0
            while start < models.count {
                let end = min(models.count, start + 500)
                try await Array(models[start..<end]).create(on: db)
                start = end
            }
        }
    }
}
