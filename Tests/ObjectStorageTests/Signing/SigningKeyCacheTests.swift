import Crypto
import Foundation
import Testing

@testable import ObjectStorage

@Suite struct SigningKeyCacheTests {
    @Test func aCachedKeyIsTheDerivedKeyAndEachScopeHasItsOwn() {
        let cache = SigV4SigningKeyCache(capacity: 4)
        let today = SigV4Scope(day: "20261127", region: "us-east-1")
        let tomorrow = SigV4Scope(day: "20261128", region: "us-east-1")
        let derived = SigV4.signingKey(secretAccessKey: "secret", scope: today)
        #expect(cache.key(secretAccessKey: "secret", scope: today) == derived)
        #expect(cache.key(secretAccessKey: "secret", scope: today) == derived)
        #expect(cache.count == 1)
        #expect(cache.key(secretAccessKey: "secret", scope: tomorrow) == SigV4.signingKey(secretAccessKey: "secret", scope: tomorrow))
        #expect(cache.key(secretAccessKey: "other", scope: today) == SigV4.signingKey(secretAccessKey: "other", scope: today))
        #expect(cache.count == 3)
        // A "/" inside a part cannot make two scopes share a name.
        let slashRegion = SigV4Scope(day: "20261127", region: "a/b", service: "c")
        let slashService = SigV4Scope(day: "20261127", region: "a", service: "b/c")
        #expect(cache.key(secretAccessKey: "s", scope: slashRegion) != cache.key(secretAccessKey: "s", scope: slashService))
    }

    @Test func theCacheKeepsAtMostItsCapacityDroppingTheLeastRecentlyUsed() {
        let cache = SigV4SigningKeyCache(capacity: 2)
        let a = SigV4Scope(day: "20261101", region: "r"), b = SigV4Scope(day: "20261102", region: "r")
        let c = SigV4Scope(day: "20261103", region: "r")
        _ = cache.key(secretAccessKey: "s", scope: a)
        _ = cache.key(secretAccessKey: "s", scope: b)
        _ = cache.key(secretAccessKey: "s", scope: a)
        _ = cache.key(secretAccessKey: "s", scope: c)
        #expect(cache.count == 2)
        #expect(cache.key(secretAccessKey: "s", scope: a) == SigV4.signingKey(secretAccessKey: "s", scope: a))
    }
}
