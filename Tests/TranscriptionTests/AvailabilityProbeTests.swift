import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import Transcription

/// The engine check behind `/health/ready` and the worker loops: one slow probe at a time, shared by every caller,
/// never cancelled by a caller that stops waiting (CI once saw Whisper reported `unavailable` under load because
/// each readiness request started, then abandoned, its own Python probe).
@Suite struct AvailabilityProbeTests {
    /// A probe that counts its runs and ends only when the test opens the gate.
    final class SlowCheck: Sendable {
        let runs = NIOLockedValueBox(0)
        let gate = NIOLockedValueBox<[CheckedContinuation<Void, Never>]>([])
        let answer: NIOLockedValueBox<Bool>

        init(answer: Bool) { self.answer = NIOLockedValueBox(answer) }

        func run() async -> Bool {
            runs.withLockedValue { $0 += 1 }
            await withCheckedContinuation { continuation in gate.withLockedValue { $0.append(continuation) } }
            return answer.withLockedValue { $0 }
        }

        /// Until `count` probes have started and one of them waits at the gate.
        func waitForRuns(_ count: Int) async throws {
            for _ in 0..<500 where runs.withLockedValue({ $0 }) < count || waiting == 0 {
                try await Task.sleep(for: .milliseconds(2))
            }
        }

        var waiting: Int { gate.withLockedValue { $0.count } }

        func open() {
            let waiting = gate.withLockedValue { gate in
                defer { gate = [] }
                return gate
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    @Test func concurrentCallersShareOneProbe() async throws {
        let check = SlowCheck(answer: true)
        let probe = AvailabilityProbe(maxAge: 60) { await check.run() }
        async let answers = withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { await probe.isAvailable() } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        try await check.waitForRuns(1)
        try await Task.sleep(for: .milliseconds(50))
        check.open()
        #expect(await answers == Array(repeating: true, count: 8))
        #expect(check.runs.withLockedValue { $0 } == 1)
        #expect(await probe.isAvailable(), "a fresh answer is returned without a new probe")
        #expect(check.runs.withLockedValue { $0 } == 1)
    }

    @Test func aCallerThatGivesUpDoesNotCancelTheProbe() async throws {
        let check = SlowCheck(answer: true)
        let probe = AvailabilityProbe(maxAge: 60) { await check.run() }
        let impatient = Task { await probe.isAvailable() }
        try await check.waitForRuns(1)
        impatient.cancel()
        check.open()
        _ = await impatient.value
        #expect(await probe.isAvailable(), "the shared probe finished and its answer is kept")
        #expect(check.runs.withLockedValue { $0 } == 1)
    }

    @Test func aStaleAnswerIsReturnedAtOnceWhileANewProbeRuns() async throws {
        let check = SlowCheck(answer: false)
        let probe = AvailabilityProbe(maxAge: 0) { await check.run() }
        let first = Task { await probe.isAvailable() }
        try await check.waitForRuns(1)
        check.open()
        #expect(await first.value == false)
        // The engine gets installed; the next caller still gets the last answer, without waiting for the new probe.
        check.answer.withLockedValue { $0 = true }
        #expect(await probe.isAvailable() == false)
        try await check.waitForRuns(2)
        #expect(await probe.isAvailable() == false, "one refresh at a time: no third probe")
        #expect(check.runs.withLockedValue { $0 } == 2)
        check.open()
        var installed = false
        for _ in 0..<500 where !installed {
            installed = await probe.isAvailable()
            if !installed { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(installed, "the new answer replaces the old one once its probe ends")
        // That call found the answer stale again (maxAge 0) and started a third probe; let it end.
        try await check.waitForRuns(3)
        check.open()
    }
}
