import CourierRuntime
import Testing

@Suite struct TransportErrorTests {
    @Test func refusedConnectionIsMarkedUnsent() {
        let error = TransportError(.connectionRefused, requestMayHaveBeenSent: false)
        #expect(error.kind == .connectionRefused)
        #expect(error.requestMayHaveBeenSent == false)
        #expect(TransportError(.timedOut).requestMayHaveBeenSent)
    }
}
