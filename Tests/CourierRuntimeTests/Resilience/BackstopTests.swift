import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// The client's backstop: it ends an attempt whose transport overruns its timeout, on real time,
/// and stays off on a test's clock.
@Suite(.timeLimit(.minutes(10)))
struct BackstopTests {
    /// A transport that ignores its timeout: it answers only when its task is cancelled.
    final class DeafTransport: HTTPTransport {
        /// Reaches 1 when a request is in the transport.
        let entered = WaitableCount()
        /// Reaches 1 when the request's task is cancelled, at the moment it is.
        let cancelled = WaitableCount()

        func send(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse {
            let (release, releaser) = AsyncStream<Void>.makeStream()
            await withTaskCancellationHandler {
                entered.increment()
                for await _ in release {}
            } onCancel: {
                cancelled.increment()
                releaser.finish()
            }
            throw TransportError(.cancelled)
        }
    }

    static func client(_ transport: DeafTransport, clock: any Clock<Duration> = ContinuousClock()) -> APIClient {
        APIClient(
            baseURL: URL(string: "https://api.test")!,
            transport: transport,
            configuration: APIClient.Configuration(
                timeouts: APIClient.Timeouts(attempt: .milliseconds(1)),
                resilience: Resilience(retryPolicy: .never, clock: clock, sharing: .isolated)
            )
        )
    }

    @Test func anAttemptWhoseTransportOverrunsItsTimeoutEndsAsTimedOut() async {
        let transport = DeafTransport()
        let result = await Self.client(transport).outcome(of: PlainProbe())
        #expect(CallEnd(result) == .transport(.timedOut))
        #expect(transport.cancelled.value == 1)
    }

    @Test func onATestsClockOnlyTheTransportEndsTheAttempt() async {
        let deafOnManualTime = DeafTransport()
        let call = Task { await Self.client(deafOnManualTime, clock: ManualClock()).outcome(of: PlainProbe()) }
        await deafOnManualTime.entered.wait(untilAtLeast: 1)
        // A call on real time, started later, arms a backstop due later. Backstops fire earliest
        // first, so once this one has fired, one armed for the first call would have too.
        let deafOnRealTime = DeafTransport()
        let later = await Self.client(deafOnRealTime).outcome(of: PlainProbe())
        #expect(CallEnd(later) == .transport(.timedOut))
        #expect(deafOnManualTime.cancelled.value == 0, "real time ended an attempt timed on a manual clock")
        call.cancel()
        #expect(CallEnd(await call.value) == .transport(.cancelled))
    }
}
