import HTTPTypes
import Logging

/// Configuration: coding, headers, auth, logging, events, timeouts, resilience and middlewares.
extension APIClient {
    /// Everything about a client except where it sends requests and how.
    public struct Configuration: Sendable {
        /// How JSON keys and dates are spelled.
        public var coding: JSONCoding
        /// How arrays and booleans are spelled in queries and form bodies.
        public var query: QueryEncoding
        /// Header fields added to every request before the request's own.
        public var defaultHeaderFields: HTTPFields
        /// Credentials and the 401 hook.
        public var auth: Authentication
        /// Where the one line per attempt and the breaker changes go. By default a logger that
        /// discards everything: a library must not write to an app's standard error unless the
        /// app hands it a logger, whatever the app bootstrapped swift-log with.
        public var logger: Logger
        /// The level of the per-attempt line; `.debug` by default, so an app's `.info`
        /// logs stay quiet until asked.
        public var logLevel: Logger.Level
        /// Called for every ``ClientEvent``.
        public var onEvent: (@Sendable (ClientEvent) -> Void)?
        /// Wraps every call and attempt, for tracing and metrics (see ``ClientInstrument``);
        /// `nil`, the default, costs nothing.
        public var instrument: (any ClientInstrument)?
        /// The per-attempt timeout and the overall deadline.
        public var timeouts: Timeouts
        /// Retry policy, per-host retry budgets and circuit breakers, and the clock and jitter
        /// they run on. Retries are on with the ``RetryPolicy/default`` policy and a
        /// ``RetryBudget`` per host; circuit breakers are off until
        /// ``Resilience/circuitBreakerScope`` opts in.
        ///
        /// By default the budgets and breakers are process-wide, per (host, configuration), so
        /// that clients made per call still share their host's budget and breaker;
        /// `Resilience(sharing: .isolated)` gives clients made from this configuration budgets
        /// and breakers of their own (see ``Resilience``). The overall deadline is measured on
        /// ``Resilience/clock`` too.
        public var resilience: Resilience
        /// The service's own rate-limit header fields and body retry delay, read besides the
        /// common ones by ``RawResponse/rateLimit`` and by the retry loop's wait; a generated
        /// client sets them from the spec's `rateLimit:`.
        public var rateLimitFields: RateLimit.Fields
        /// Whether the service's endpoints need credentials unless they say otherwise; a generated
        /// client sets it when its spec has `auth`. While ``auth`` is ``Authentication/none`` (the
        /// default of a generated client's `auth:`), the first call of such an endpoint logs, at
        /// debug level, that it went out without credentials: a client made as `WeatherClient()`
        /// for a service that needs a token otherwise learns it only from the server's 401s.
        public var expectsAuthentication = false
        /// What each attempt passes through on its way to the transport, the first outermost;
        /// none by default. They run inside the retry loop and the breaker, after auth: see
        /// ``ClientMiddleware`` for the order and what they may change.
        public var middlewares: [any ClientMiddleware]

        /// Creates a configuration; every parameter has a sensible default.
        ///
        /// - Parameters:
        ///   - coding: How JSON keys and dates are spelled.
        ///   - query: How arrays and booleans are spelled in queries and form bodies.
        ///   - defaultHeaderFields: Header fields added to every request before its own.
        ///   - auth: Credentials and the 401 hook; none by default.
        ///   - logger: Where the client logs; ``APIClient/Configuration/silentLogger``
        ///     (nothing is logged) unless given.
        ///   - logLevel: The level of the per-attempt line.
        ///   - onEvent: Called for every ``ClientEvent``.
        ///   - timeouts: The per-attempt timeout and the overall deadline.
        ///   - resilience: Retries, budgets, breakers and the clock they run on.
        ///   - rateLimitFields: The service's own rate-limit header fields.
        ///   - instrument: Tracing and metrics for calls (`CourierObservability`'s `ClientObservability`); none by default.
        ///   - middlewares: What each attempt passes through on its way to the transport, the
        ///     first outermost (see ``ClientMiddleware``); none by default.
        public init(
            coding: JSONCoding = JSONCoding(),
            query: QueryEncoding = QueryEncoding(),
            defaultHeaderFields: HTTPFields = HTTPFields(),
            auth: Authentication = .none,
            logger: Logger = Configuration.silentLogger,
            logLevel: Logger.Level = .debug,
            onEvent: (@Sendable (ClientEvent) -> Void)? = nil,
            timeouts: Timeouts = Timeouts(),
            resilience: Resilience = Resilience(),
            rateLimitFields: RateLimit.Fields = .standard,
            instrument: (any ClientInstrument)? = nil,
            middlewares: [any ClientMiddleware] = []
        ) {
            self.coding = coding
            self.query = query
            self.defaultHeaderFields = defaultHeaderFields
            self.auth = auth
            self.logger = logger
            self.logLevel = logLevel
            self.onEvent = onEvent
            self.timeouts = timeouts
            self.resilience = resilience
            self.rateLimitFields = rateLimitFields
            self.instrument = instrument
            self.middlewares = middlewares
        }

        /// The default logger: it discards everything without asking swift-log's global
        /// bootstrap, whose default handler prints to standard error. AsyncHTTPClient's default
        /// logger follows the same convention.
        public static var silentLogger: Logger {
            Logger(label: "courier", factory: { _ in SwiftLogNoOpLogHandler() })
        }
    }

    /// How long calls may take.
    public struct Timeouts: Sendable, Hashable {
        /// How long one attempt may take; a request's own ``APIRequest/timeout`` overrides it.
        public var attempt: Duration
        /// How long a whole call may take, across retries, backoffs and an auth replay; `nil`
        /// for no limit. Each attempt's timeout is cut to the time left, and a retry that could
        /// not start before the deadline is not made. Measured on the client's
        /// ``Resilience/clock``.
        public var deadline: Duration?

        /// Creates timeouts: 30 seconds per attempt and no overall deadline by default.
        public init(attempt: Duration = .seconds(30), deadline: Duration? = nil) {
            self.attempt = attempt
            self.deadline = deadline
        }
    }
}
