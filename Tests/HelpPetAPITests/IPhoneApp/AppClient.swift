import AppCore
import Foundation
import Testing
import VaporTesting

/// The two client profiles, as the app and the kits identify themselves.
enum ClientKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case standard, legacy

    /// The shipped app's iOS User-Agent, or the kit's.
    var headers: HTTPHeaders {
        switch self {
        case .legacy: return ["User-Agent": "HelpPetAI/57 CFNetwork/1496.0.7 Darwin/23.5.0"]
        case .standard: return ["User-Agent": "HelpPetKit/1.0 (Linux)"]
        }
    }

    var testDescription: String { rawValue }
}

/// Calls the server in process the way APIManager does: its headers, its encoders, its decoder.
struct AppClient {
    let app: Application
    let token: String?
    let kind: ClientKind

    struct Failure: Error, CustomStringConvertible { let description: String }

    func raw(_ method: HTTPMethod, _ path: String, body: Data? = nil) async throws -> TestResponse {
        try await app.send(
            method, path, token: token, headers: kind.headers, body: body.map { String(decoding: $0, as: UTF8.self) },
            contentType: body == nil ? nil : .json)
    }

    /// Sends and decodes with the app's decoder; a status outside `expect` or a decoding error fails with the body.
    func call<T: Decodable>(
        _ method: HTTPMethod, _ path: String, body: Data? = nil, expect: Set<UInt> = [200, 201], as type: T.Type
    ) async throws -> T {
        let response = try await raw(method, path, body: body)
        guard expect.contains(response.status.code) else {
            throw Failure(description: "\(method) \(path): \(response)")
        }
        do {
            return try AppCoding.decoder.decode(type, from: response.body)
        } catch {
            throw Failure(description: "\(method) \(path) does not decode as \(type): \(error)\n\(response.text.prefix(1500))")
        }
    }

    func get<T: Decodable>(_ path: String, as type: T.Type) async throws -> T {
        try await call(.GET, path, as: type)
    }
}
