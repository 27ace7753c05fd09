// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "HelpPetPlatform",
    // iOS: the client kits are what the iPhone apps import; the server targets only ever build on Linux and macOS.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "server", targets: ["Server"]),
        .library(name: "HelpPetKit", targets: ["HelpPetKit"]),
        .executable(name: "helppet", targets: ["helppet"]),
        .library(name: "AutoDetailKit", targets: ["AutoDetailKit"]),
        .executable(name: "autodetail", targets: ["autodetail"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.115.0"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.12.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.8.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.10.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.1.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/async-kit.git", from: "1.20.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"6.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
        // The SMTP client's STARTTLS and implicit TLS (Mail); already resolved through async-http-client.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/JohnSundell/Plot.git", from: "0.14.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        .target(
            name: "AppCore",
            dependencies: [
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "AsyncKit", package: "async-kit"),
                // The OpenAPI documents are YAML in the repository and JSON on the wire.
                .product(name: "Yams", package: "Yams"),
                "ObjectStorage",
            ]
        ),
        // Outgoing email knowing no product and no Vapor: SMTP client, MIME and iCalendar builders, transports.
        .target(
            name: "Mail",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Outgoing pushes knowing no product and no Vapor: the token-based APNs client (HTTP/2, ES256 JWT).
        .target(
            name: "Push",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The outbox every product's email goes through: a table per product, claimed with a lease, delivered at
        // least once by one loop per process (docs/notifications.md).
        .target(
            name: "MailOutbox",
            dependencies: ["AppCore", "Mail"]
        ),
        .target(
            name: "HelpPetAPI",
            dependencies: ["AppCore", "ObjectStorage", "Mail", "MailOutbox", "Push", "Transcription"],
            resources: [.copy("Resources/openapi.yaml")]
        ),
        .target(
            name: "AutoDetailAPI",
            dependencies: [
                "AppCore", "ObjectStorage", "Mail", "MailOutbox",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Resources/openapi.yaml")]
        ),
        .target(
            name: "ObjectStorage",
            dependencies: [
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
            ]
        ),
        // Audio preparation (ffmpeg), the offline engines (Whisper helper, pocketsphinx), the draft summary and
        // the job queue worker; the product side (visits) is plugged in by the server through a small protocol.
        .target(
            name: "Transcription",
            dependencies: ["AppCore"],
            resources: [.copy("Resources/whisper_transcribe.py"), .copy("Resources/medications.txt"),
                        .copy("Resources/veterinary_terms.txt")]
        ),
        // The web consoles' shared layer: typed HTML pages (Plot), cookie sessions, CSRF, hashed static assets,
        // console error pages. Product-free: each console supplies its own sign-in and pages.
        .target(
            name: "WebConsole",
            dependencies: ["AppCore", .product(name: "Plot", package: "Plot"), .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Assets")]
        ),
        // The clinic console (`/clinic`): reads through HelpPetAPI's stores, never its controllers.
        .target(
            name: "HelpPetWeb",
            dependencies: ["HelpPetAPI", "WebConsole", "AppCore", .product(name: "Plot", package: "Plot")],
            resources: [.copy("Assets")]
        ),
        // The studio console (`/studio`): reads through AutoDetailAPI's stores, never its controllers.
        .target(
            name: "AutoDetailWeb",
            dependencies: ["AutoDetailAPI", "WebConsole", "AppCore", .product(name: "Plot", package: "Plot")],
            resources: [.copy("Assets")]
        ),
        // The one wiring of a server process (products, consoles, background work), shared by the executable and by
        // every test application.
        .target(
            name: "ServerAssembly",
            dependencies: [
                "AppCore", "HelpPetAPI", "AutoDetailAPI", "Transcription", "WebConsole", "HelpPetWeb", "AutoDetailWeb",
            ]
        ),
        .executableTarget(
            name: "Server",
            dependencies: [
                "AppCore", "HelpPetAPI", "AutoDetailAPI", "ObjectStorage", "Transcription",
                "WebConsole", "HelpPetWeb", "AutoDetailWeb", "ServerAssembly",
            ]
        ),
        // What both client kits share: transport with retries, request building, error bodies, JSONValue, private
        // credential files, file upload/download with progress. Foundation only, like the kits (iOS builds it too).
        .target(name: "ClientCore"),
        // What both CLIs share: terminal output, tables, progress bars, --server/--json, error rendering, exit codes.
        .target(
            name: "CLISupport",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Client SDK for the HelpPet API: Foundation only (no Vapor, no NIO), imported unchanged by the iPhone app.
        .target(name: "HelpPetKit", dependencies: ["ClientCore"]),
        .executableTarget(
            name: "helppet",
            dependencies: [
                "HelpPetKit", "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Client SDK for AutoDetail Hub: Foundation only (no Vapor, no NIO), the seed's models unchanged.
        .target(name: "AutoDetailKit", dependencies: ["ClientCore"]),
        .executableTarget(
            name: "autodetail",
            dependencies: [
                "AutoDetailKit", "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Foundation only, like the kits: which database a kit test's server process runs on (SQLite, or a fresh
        // PostgreSQL database in the PostgreSQL pass) and free loopback ports (also used by ServerTestSupport).
        .target(name: "KitTestSupport", path: "Tests/KitTestSupport"),
        .testTarget(
            name: "AutoDetailKitTests",
            dependencies: ["AutoDetailKit", "KitTestSupport"]
        ),
        // The kits' shared core on its own (retry loop, error bodies, account file); the kits' suites cover the rest
        // end to end.
        .testTarget(name: "ClientCoreTests", dependencies: ["ClientCore"]),
        .testTarget(
            name: "HelpPetKitTests",
            dependencies: [
                "HelpPetKit", "KitTestSupport",
                // Only to forge an expired JWT and an expired upload policy with the test server's known secrets.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SeedCompatibilityTests",
            dependencies: [
                "HelpPetAPI", "AppCore",
                .product(name: "VaporTesting", package: "vapor"),
            ]
        ),
        // Test plumbing shared by the server test targets: one isolated database per test (SQLite or PostgreSQL),
        // real `server` processes on free ports, the DB-test ledger, JSON navigation. A plain target under Tests/,
        // so only test targets depend on it.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "KitTestSupport",
                "AppCore",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Tests/ServerTestSupport"
        ),
        .testTarget(
            name: "HelpPetAPITests",
            dependencies: [
                "HelpPetAPI", "AppCore", "Transcription", "ServerTestSupport", "Push", "MailOutbox", "ServerAssembly",
                "HelpPetWeb", "AutoDetailWeb", "WebConsole",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
            ],
            // Golden JSON files, read by path (docs/golden-json.md).
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "MailTests",
            dependencies: [
                "Mail",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "PushTests",
            dependencies: ["Push", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "TranscriptionTests",
            dependencies: ["Transcription", "AppCore"]
        ),
        .testTarget(
            name: "AutoDetailAPITests",
            dependencies: [
                "AutoDetailAPI", "AppCore", "ObjectStorage", "ServerTestSupport", "Mail", "MailOutbox", "ServerAssembly",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
            ],
            // Golden JSON files, read by path (docs/golden-json.md).
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "ObjectStorageTests",
            dependencies: [
                "ObjectStorage",
                // Only for the S3 backend's configuration test, which starts the store the way the server does.
                "AppCore",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            // The fixtures (botocore vectors and the Python scripts that make and check them) are read from the
            // source tree by path, so they are not bundled.
            exclude: ["Fixtures"]
        ),
    ]
)
