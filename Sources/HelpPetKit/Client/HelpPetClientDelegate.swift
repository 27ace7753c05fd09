import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a request is, for ``HelpPetClientDelegate`` hooks.
public enum RequestKind: Sendable, Hashable {
    /// A call to the HelpPet API (`/api/v1/...`).
    case api
    /// A multipart POST of a recording to the presigned `upload_url` (object storage).
    case storageUpload
    /// A GET of a presigned playback URL (object storage).
    case storageDownload
}

/// Hooks into every request ``HelpPetClient`` sends (in the manner of kean/Get's `APIClientDelegate`). Every
/// method has a default implementation that does nothing.
public protocol HelpPetClientDelegate: Sendable {
    /// Called before each attempt of each request (retries included); may change the request (extra headers, …)
    /// or throw to stop it.
    func client(_ client: HelpPetClient, willSend request: inout URLRequest, kind: RequestKind, attempt: Int) async throws

    /// Called when the API answered 401 (the token is missing, expired or revoked): a good place to show the
    /// login screen. The token is not removed from the store.
    func client(_ client: HelpPetClient, didReceiveUnauthorized error: HelpPetError) async

    /// Called before a retry, after `error` ended attempt `attempt`, with the pause about to be taken.
    func client(_ client: HelpPetClient, willRetry kind: RequestKind, after error: HelpPetError, attempt: Int, delay: TimeInterval) async
}

extension HelpPetClientDelegate {
    public func client(_ client: HelpPetClient, willSend request: inout URLRequest, kind: RequestKind, attempt: Int) async throws {}
    public func client(_ client: HelpPetClient, didReceiveUnauthorized error: HelpPetError) async {}
    public func client(_ client: HelpPetClient, willRetry kind: RequestKind, after error: HelpPetError, attempt: Int, delay: TimeInterval) async {}
}
