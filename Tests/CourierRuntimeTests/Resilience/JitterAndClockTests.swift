import CourierLocking
import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite struct JitterTests {
    @Test func splitMixMatchesTheReferenceSequence() {
        // The published SplitMix64 outputs for seed 0.
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func aSeedReplaysItsSequence() {
        let first = Resilience.Jitter.seeded(42)
        let second = Resilience.Jitter.seeded(42)
        let other = Resilience.Jitter.seeded(43)
        let a = (0..<20).map { _ in first.next() }
        let b = (0..<20).map { _ in second.next() }
        let c = (0..<20).map { _ in other.next() }
        #expect(a == b)
        #expect(a != c)
        #expect(Set(a).count == 20)
    }

    @Test func drawsStayWithinTheUnitInterval() {
        let seeded = Resilience.Jitter.seeded(7)
        let system = Resilience.Jitter.system
        for _ in 0..<10_000 {
            #expect((0...1).contains(seeded.next()))
            #expect((0...1).contains(system.next()))
        }
    }

    @Test(arguments: [(0.0, 0.0), (1.0, 1.0), (0.25, 0.25), (2.0, 1.0), (-1.0, 0.0), (.nan, 0.0), (.infinity, 1.0), (-.infinity, 0.0)])
    func constantsAreClamped(value: Double, expected: Double) {
        #expect(Resilience.Jitter.constant(value).next() == expected)
    }

    @Test func copiesShareOneSequence() {
        let jitter = Resilience.Jitter.seeded(9)
        let copy = jitter
        let interleaved = [jitter.next(), copy.next(), jitter.next()]
        let reference = Resilience.Jitter.seeded(9)
        #expect(interleaved == [reference.next(), reference.next(), reference.next()])
    }
}

@Suite(.timeLimit(.minutes(10))) struct ManualClockTests {
    @Test func aSleeperWakesOnlyWhenItsDeadlineComes() async throws {
        let clock = ManualClock()
        let woke = Locked(false)
        let sleeper = Task {
            try await clock.sleep(for: .seconds(5))
            woke.withLock { $0 = true }
        }
        await clock.waitForSleepers()
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(5))])
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperDeadlines.count == 1)
        #expect(woke.value == false)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(woke.value)
        #expect(clock.now == ManualClock.Instant(offset: .seconds(5)))
        #expect(clock.sleeperDeadlines.isEmpty)
    }

    @Test func aDeadlineInThePastReturnsAtOnce() async throws {
        let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(10)))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(3)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperDeadlines.isEmpty)
    }

    @Test func cancellingASleeperWakesItWithCancellationError() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers()
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.sleeperDeadlines.isEmpty)
        #expect(clock.now == ManualClock.Instant(offset: .zero))
    }

    @Test func anAlreadyCancelledTaskDoesNotSleep() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.sleeperDeadlines.isEmpty)
    }

    @Test func oneAdvanceWakesEverySleeperThatIsDue() async throws {
        let clock = ManualClock()
        let order = Locked<[Int]>([])
        let sleepers = (1...3).map { seconds in
            Task {
                try await clock.sleep(for: .seconds(seconds))
                order.withLock { $0.append(seconds) }
            }
        }
        await clock.waitForSleepers(3)
        clock.advance(by: .seconds(2))
        try await sleepers[0].value
        try await sleepers[1].value
        #expect(Set(order.value) == [1, 2])
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(3))])
        clock.advance(to: ManualClock.Instant(offset: .seconds(3)))
        try await sleepers[2].value
        #expect(order.value.count == 3)
    }

    @Test func cancellationsRacingWithAdvancesLeaveNoSleeperBehind() async {
        let clock = ManualClock()
        let sleepers = (0..<200).map { index in
            Task { try await clock.sleep(for: .milliseconds(index % 50 + 1)) }
        }
        await clock.waitForSleepers(200)
        let advancing = Task {
            for _ in 0..<50 {
                clock.advance(by: .milliseconds(1))
                await Task.yield()
            }
        }
        for (index, sleeper) in sleepers.enumerated() where index.isMultiple(of: 2) {
            sleeper.cancel()
        }
        await advancing.value
        var finished = 0
        for sleeper in sleepers {
            _ = await sleeper.result
            finished += 1
        }
        #expect(finished == 200)
        #expect(clock.sleeperDeadlines.isEmpty)
    }

    @Test func waitingForSleepersEndsWhenTheWaiterIsCancelled() async {
        let clock = ManualClock()
        let waiting = Task { await clock.waitForSleepers() }
        waiting.cancel()
        await waiting.value
        // A waiter cancelled before it suspends returns as well.
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await clock.waitForSleepers(3)
        }
        await cancelledFirst.value
        #expect(clock.sleeperDeadlines.isEmpty)
    }

    @Test func timeNeverRunsBackwards() {
        let clock = ManualClock()
        clock.advance(by: .seconds(2))
        clock.advance(by: .seconds(-1))
        clock.advance(to: ManualClock.Instant(offset: .seconds(1)))
        #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
    }

    @Test func itWorksThroughTheExistential() async throws {
        let clock = ManualClock()
        let erased: any Clock<Duration> = clock
        let sleeper = Task { try await erased.sleep(for: .milliseconds(250)) }
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(250))
        try await sleeper.value
    }
}

@Suite struct HostKeyTests {
    static let requests: [(String, String, Resilience.Host?)] = [
        ("https", "api.example.com", Resilience.Host(scheme: "https", host: "api.example.com", port: 443)),
        ("HTTPS", "API.Example.com:443", Resilience.Host(scheme: "https", host: "api.example.com", port: 443)),
        ("http", "127.0.0.1:8080", Resilience.Host(scheme: "http", host: "127.0.0.1", port: 8080)),
        ("http", "127.0.0.1", Resilience.Host(scheme: "http", host: "127.0.0.1", port: 80)),
        ("http", "[::1]:9000", Resilience.Host(scheme: "http", host: "::1", port: 9000)),
        ("http", "[::1]", Resilience.Host(scheme: "http", host: "::1", port: 80)),
        ("http", "user:secret@host:81", Resilience.Host(scheme: "http", host: "host", port: 81)),
        ("gopher", "host", Resilience.Host(scheme: "gopher", host: "host", port: nil)),
        ("http", "", nil),
        ("http", "host:", nil),
        ("http", "host:99999", nil),
        ("http", "host:8o", nil),
        ("http", "[::1", nil),
        ("http", "[::1]x", nil),
        ("http", "::1", nil),
    ]

    @Test func requestsMapToTheirServer() {
        for (scheme, authority, expected) in Self.requests {
            let request = HTTPRequest(method: .get, scheme: scheme, authority: authority, path: "/")
            #expect(Resilience.Host(request) == expected, "\(scheme)://\(authority)")
        }
    }

    @Test func aRequestWithoutAuthorityHasNoKey() {
        #expect(Resilience.Host(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/")) == nil)
    }

    @Test func urlsMapToTheirServer() throws {
        #expect(Resilience.Host(try #require(URL(string: "https://Example.com/a?b"))) == Resilience.Host(scheme: "https", host: "example.com"))
        #expect(Resilience.Host(try #require(URL(string: "http://[::1]:8080/"))) == Resilience.Host(scheme: "http", host: "::1", port: 8080))
        #expect(Resilience.Host(try #require(URL(string: "/relative"))) == nil)
    }

    @Test func descriptionsReadAsURLs() {
        #expect(Resilience.Host(scheme: "http", host: "::1", port: 8080).description == "http://[::1]:8080")
        #expect(Resilience.Host(scheme: "https", host: "a.example").description == "https://a.example:443")
        #expect(Resilience.Host(scheme: "x", host: "h").description == "x://h")
    }
}
