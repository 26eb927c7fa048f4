import CourierLocking
import CourierRuntime
import CourierTesting
import Foundation
import Logging
import Testing

/// A client an app gave no logger must not log anywhere, however the app set up swift-log.
@Suite struct DefaultLoggingTests {
    @Test func aDefaultConfigurationHandsNothingToTheLoggingSystem() async {
        // Installed before the configuration exists, so a default logger made through the
        // logging system would be made by this sink's factory and its lines would land here.
        let sink = ProcessLogSink.installed
        let transitions = Locked<Int>(0)
        var configuration = APIClient.Configuration()
        configuration.resilience = Resilience(
            retryPolicy: .never,
            circuitBreaker: .consecutiveFailures(1, successesToClose: 1, openDuration: .seconds(60)),
            circuitBreakerScope: .host,
            clock: ManualClock()
        )
        configuration.onEvent = { event in
            if case .circuitBreakerChanged = event { transitions.withLock { $0 += 1 } }
        }
        let stub = StubTransport()
        stub.on(.get, "/", .status(500))
        let client = APIClient(baseURL: URL(string: "https://quiet-logging.test")!, transport: stub, configuration: configuration)

        _ = await client.outcome(of: PlainProbe())

        // The breaker opened, so an `info` line was due; without this the test proves nothing.
        #expect(transitions.withLock { $0 } == 1)
        #expect(sink.messages(label: "courier").isEmpty)
        #expect(configuration.logger.handler is SwiftLogNoOpLogHandler)
    }
}

/// Every line the process's logging system is handed, by label.
///
/// swift-log allows one bootstrap per process, so the sink is installed once, on first use,
/// and records for every test; tests look only at the labels they own.
final class ProcessLogSink: @unchecked Sendable {
    static let installed: ProcessLogSink = {
        let sink = ProcessLogSink()
        LoggingSystem.bootstrap { label in Handler(label: label, sink: sink) }
        return sink
    }()

    private let lines = Locked<[(label: String, message: String)]>([])

    func messages(label: String) -> [String] {
        lines.value.filter { $0.label == label }.map(\.message)
    }

    private func append(label: String, message: String) {
        lines.withLock { $0.append((label, message)) }
    }

    private struct Handler: LogHandler {
        let label: String
        let sink: ProcessLogSink
        var metadata: Logger.Metadata = [:]
        // Everything, so that nothing a default logger might write is filtered out before the sink sees it.
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            sink.append(label: label, message: event.message.description)
        }
    }
}
