import AsyncHTTPClient
@testable import CourierAsyncHTTPClient
import CourierRuntime
import Testing

/// How AsyncHTTPClient's errors map to "may have been sent": `false` only for errors the pool
/// raises before a request has a connection, since only those let a keyless POST be retried.
@Suite struct AsyncHTTPClientErrorClassificationTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var error: HTTPClientError
        var kind: TransportError.Kind
        var mayHaveBeenSent: Bool
        var testDescription: String { "\(error) → \(kind), sent: \(mayHaveBeenSent)" }
    }

    static let rows: [Row] = [
        Row(error: .connectTimeout, kind: .timedOut, mayHaveBeenSent: false),
        Row(error: .getConnectionFromPoolTimeout, kind: .timedOut, mayHaveBeenSent: false),
        Row(error: .socksHandshakeTimeout, kind: .timedOut, mayHaveBeenSent: false),
        Row(error: .httpProxyHandshakeTimeout, kind: .timedOut, mayHaveBeenSent: false),
        Row(error: .proxyAuthenticationRequired, kind: .other, mayHaveBeenSent: false),
        Row(error: .invalidProxyResponse, kind: .other, mayHaveBeenSent: false),
        Row(error: .tlsHandshakeTimeout, kind: .tls, mayHaveBeenSent: false),
        // Queued or already written: AsyncHTTPClient does not say which.
        Row(error: .deadlineExceeded, kind: .timedOut, mayHaveBeenSent: true),
        Row(error: .readTimeout, kind: .timedOut, mayHaveBeenSent: true),
        Row(error: .remoteConnectionClosed, kind: .connectionLost, mayHaveBeenSent: true),
    ]

    @Test(arguments: rows)
    func classifies(row: Row) {
        let error = AsyncHTTPClientTransport.transportError(for: row.error, cancelled: false)
        #expect(error.kind == row.kind)
        #expect(error.requestMayHaveBeenSent == row.mayHaveBeenSent)
    }
}
