import ClientCore
import Foundation
import Testing

/// A failure type of the kind the kits have: transport failures retryable, refusals not.
enum ProbeFailure: ClientFailure, Equatable {
    case transport
    case refused
    case cancelled

    static var defaultMaxAttempts: Int { 3 }
    var isRetryableFailure: Bool { self == .transport }
    static func fromTransport(_ error: any Error) -> ProbeFailure { .transport }
}

/// Collects what the retry loop reports, from the loop's own actor.
actor Attempts {
    var numbers: [Int] = []
    var pauses: [Int] = []
    func record(_ number: Int) { numbers.append(number) }
    func recordPause(_ number: Int) { pauses.append(number) }
}

@Suite("ClientCore: the retry loop both kits send through")
struct RetryLoopTests {
    let fastPolicy = BackoffRetryPolicy<ProbeFailure>(baseDelay: 0.001, maxDelay: 0.002)

    @Test("a retryable failure is tried again until maxAttempts, then thrown; each pause is announced first")
    func retryableFailureStopsAtMaxAttempts() async throws {
        let attempts = Attempts()
        await #expect(throws: ProbeFailure.transport) {
            try await fastPolicy.run(willPause: { _, number, _ in await attempts.recordPause(number) }) { number in
                await attempts.record(number)
                return AttemptOutcome<Int, ProbeFailure>.retryable(.transport, retryAfter: nil)
            }
        }
        #expect(await attempts.numbers == [1, 2, 3])
        #expect(await attempts.pauses == [1, 2])
    }

    @Test("a final failure and a non-retryable one are thrown after the first attempt")
    func finalFailuresAreNotRetried() async {
        for outcome: AttemptOutcome<Int, ProbeFailure> in [.final(.transport), .retryable(.refused, retryAfter: nil)] {
            let attempts = Attempts()
            await #expect(throws: ProbeFailure.self) {
                try await fastPolicy.run { number in
                    await attempts.record(number)
                    return outcome
                }
            }
            #expect(await attempts.numbers == [1])
        }
    }

    @Test("a success after failures returns its value")
    func successAfterFailures() async throws {
        let value = try await fastPolicy.run { number -> AttemptOutcome<String, ProbeFailure> in
            number < 3 ? .retryable(.transport, retryAfter: nil) : .success("third")
        }
        #expect(value == "third")
    }

    @Test("the default comes from the error type; delays grow, stay under maxDelay and honour Retry-After")
    func policyArithmetic() {
        #expect(BackoffRetryPolicy<ProbeFailure>.default.maxAttempts == 3)
        #expect(BackoffRetryPolicy<ProbeFailure>.none.maxAttempts == 1)
        #expect(BackoffRetryPolicy<ProbeFailure>(maxAttempts: 0).maxAttempts == 1)
        let policy = BackoffRetryPolicy<ProbeFailure>(maxAttempts: 6, baseDelay: 0.5, maxDelay: 4)
        for attempt in 1...6 {
            let ceiling = min(4, 0.5 * pow(2, Double(attempt - 1)))
            let delay = policy.delay(afterAttempt: attempt)
            #expect(delay >= ceiling * 0.5 && delay <= ceiling)
        }
        #expect(policy.delay(afterAttempt: 1, retryAfter: 3) >= 3)
        #expect(BackoffRetryPolicy<ProbeFailure>.isRetryableStatus(503))
        #expect(!BackoffRetryPolicy<ProbeFailure>.isRetryableStatus(501))
    }
}
