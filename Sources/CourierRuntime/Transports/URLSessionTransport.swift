import CourierLocking
import Foundation
import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over Foundation's `URLSession`; on Linux it goes through FoundationNetworking.
///
/// It streams each response through a session delegate, so it can stop reading as soon
/// as a body passes ``maximumResponseBodySize`` instead of buffering whatever arrives.
///
/// What differs on Linux (FoundationNetworking, which runs on libcurl), as seen in this
/// package's loopback tests, and how the transport evens it out:
/// - `URLRequest.timeoutInterval` is not honoured, so the transport runs its own timer.
/// - A body cut short arrives as `NSURLErrorUnknown` ("transfer closed with N bytes remaining
///   to read"); after the response head it is reported as ``TransportError/Kind/connectionLost``.
/// - A cancel issued while the last bytes arrive can still end in a clean completion; the
///   reason for the cancel (size limit, timeout, task cancellation) is kept and reported.
/// - libcurl adds `Accept-Encoding: deflate, gzip, br, zstd`, `Accept-Language` and a curl
///   `User-Agent` to every request and decompresses the response itself.
/// - A 401 with a `Basic` challenge in `WWW-Authenticate` never completes: FoundationNetworking
///   waits for a credential decision it then drops. The transport delivers the 401 it has read,
///   head and body, when the challenge arrives (see the delegate's challenge callback).
/// - libcurl resends a request whose reused connection failed before the answer, so requests
///   that must not be repeated (POST, PATCH, unknown methods) each get a fresh connection.
/// - Requests beyond `httpMaximumConnectionsPerHost` wait in the transport, so a timeout there
///   reports ``TransportError/requestMayHaveBeenSent`` `false`.
/// - More than 4 connections per host are closed and reopened under load, hence
///   ``defaultConfiguration``.
///
/// For servers on Linux, AsyncHTTPClientTransport is the better choice; see docs/Transports.md.
public final class URLSessionTransport: HTTPTransport, Sendable {
    /// The largest response body accepted, in bytes.
    public let maximumResponseBodySize: Int

    private let session: URLSession
    private let delegate: SessionDelegate
    private let queue: OperationQueue
    /// Where requests wait for a connection on Linux; `nil` on Apple platforms, whose
    /// sessions queue them (see ``send(_:body:timeout:)``).
    private let gate: AdmissionGate?

    /// The configuration a transport made without one uses: ephemeral, so no cookies,
    /// credentials or cache entries leak between clients, and on Linux at most 4 connections
    /// per host.
    ///
    /// The limit of 4 is what keeps connections alive on Linux. libcurl's connection cache, under
    /// FoundationNetworking, holds at most 4 connections per transfer in progress (its default,
    /// which FoundationNetworking does not change), so whenever the traffic dips it closes the
    /// connections beyond 4 and opens new ones when it picks up. With the default 6 per host,
    /// 2,000 GETs at 16-way concurrency on loopback opened 210 to 267 connections; with 4, they
    /// opened 4 (see docs/Transports.md). Apple platforms keep their system default.
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        #if canImport(FoundationNetworking)
        configuration.httpMaximumConnectionsPerHost = 4
        #endif
        return configuration
    }

    /// Creates a transport with its own session.
    ///
    /// - Parameters:
    ///   - configuration: The session configuration; ``defaultConfiguration`` by default. On
    ///     Linux, keep `httpMaximumConnectionsPerHost` at 4 or below, or connections are closed
    ///     and reopened under load (see ``defaultConfiguration``); it also bounds how many
    ///     requests per host the transport lets into the session at once.
    ///   - maximumResponseBodySize: The largest response body accepted; 32 MiB by default.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration, maximumResponseBodySize: Int = 32 * 1024 * 1024) {
        self.maximumResponseBodySize = maximumResponseBodySize
        let delegate = SessionDelegate()
        self.delegate = delegate
        let queue = OperationQueue()
        queue.name = "courier.urlsession"
        queue.maxConcurrentOperationCount = 1
        self.queue = queue
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        #if canImport(FoundationNetworking)
        gate = AdmissionGate(limit: configuration.httpMaximumConnectionsPerHost)
        #else
        gate = nil
        #endif
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends one attempt through the session.
    ///
    /// On Linux two things differ from a plain data task, both because of libcurl under
    /// FoundationNetworking:
    /// - A request that may not be repeated (anything but GET, HEAD, OPTIONS, TRACE, PUT and DELETE) goes out through a
    ///   session of its own, made for it and invalidated after it, so it always travels on a
    ///   fresh connection. libcurl silently sends a request again on a new connection when a
    ///   reused one fails before any byte of the answer, whatever the method: a keyless POST
    ///   whose server closed or reset the connection after reading it arrived twice, and the
    ///   caller saw a timeout instead of the lost connection. It never replays on a fresh
    ///   connection, so such a request now reaches the server once and fails at once with
    ///   ``TransportError/Kind/connectionLost``. The price is a connection per such request.
    /// - At most `httpMaximumConnectionsPerHost` requests per host are in the session at once;
    ///   the others wait here. A request that times out or is cancelled while it waits reports
    ///   ``TransportError/requestMayHaveBeenSent`` `false`, which lets Courier retry even a
    ///   keyless POST. Once in the session, nothing FoundationNetworking reports tells whether
    ///   the request was written (`countOfBytesSent` stays 0 even for a POST whose body the
    ///   server read), so any later failure that does not prove otherwise is "may have been sent".
    public func send(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse {
        try await perform(request, body: body, timeout: timeout, streaming: false)
    }

    /// Sends one attempt and returns when the response head arrives; the body is read from the
    /// session's delegate as it arrives.
    ///
    /// The size limit does not apply: whoever reads the body decides how much to keep. On
    /// Linux, the request keeps its place among the `httpMaximumConnectionsPerHost` requests
    /// admitted per host until its body has been read to the end or abandoned.
    public func stream(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse.Streamed {
        let response = try await perform(request, body: body, timeout: timeout, streaming: true)
        return TransportResponse.Streamed(head: response.head, body: response.streamedBody ?? HTTPBody(response.body))
    }

    private func perform(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration, streaming: Bool) async throws(TransportError) -> TransportResponse {
        guard let url = Self.url(of: request) else {
            throw TransportError(.other, requestMayHaveBeenSent: false, underlying: InvalidURL(path: request.path ?? ""))
        }
        // URLSession sends bytes from memory or from a file; a body that is neither is written
        // to a temporary file first, so that it is never held in memory whole.
        let upload: Upload
        do {
            upload = try await Upload(body)
        } catch {
            throw TransportError(Task.isCancelled ? .cancelled : .other, requestMayHaveBeenSent: false, underlying: Underlying(
                code: 0, domain: "URLSessionTransport", message: "The request body could not be read: \(error)"))
        }
        defer { upload.removeSpool() }
        var remaining = timeout
        let key = "\(request.scheme ?? "")://\(request.authority ?? "")"
        if let gate {
            let clock = ContinuousClock()
            let start = clock.now
            switch await gate.enter(key, timeout: timeout) {
            case .admitted:
                remaining = timeout - (clock.now - start)
            case .timedOut:
                throw TransportError(.timedOut, requestMayHaveBeenSent: false, underlying: Underlying(
                    code: 0, domain: "URLSessionTransport", message: "No connection to \(key) became free within the timeout."))
            case .cancelled:
                throw TransportError(.cancelled, requestMayHaveBeenSent: false)
            }
        }
        // A streamed body keeps its connection, and so its place at the gate, until it is read.
        let exit = GateExit(gate: gate, key: key)
        defer { exit.leaveUnlessHandedOver() }
        guard remaining > .zero, !Task.isCancelled else {
            throw TransportError(Task.isCancelled ? .cancelled : .timedOut, requestMayHaveBeenSent: false)
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.seconds(remaining))
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        if case .memory(let data) = upload {
            urlRequest.httpBody = data
        }
        #if canImport(FoundationNetworking)
        // `session.configuration` is a copy of the session's own, untouched by later changes to
        // the object the caller passed in.
        let isolated = Self.isSafeToRepeat(request) ? nil : URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: queue)
        #else
        let isolated: URLSession? = nil
        #endif
        let task: URLSessionTask
        if let file = upload.file {
            task = (isolated ?? session).uploadTask(with: urlRequest, fromFile: file)
        } else {
            task = (isolated ?? session).dataTask(with: urlRequest)
        }
        self.delegate.name(task)
        // The session lets go of itself and its connection once the task is over.
        isolated?.finishTasksAndInvalidate()
        let mode: SessionDelegate.Mode = streaming ? .streaming(exit) : .buffered(limit: maximumResponseBodySize)
        let delegate = self.delegate
        // FoundationNetworking on Linux ignores `URLRequest.timeoutInterval` (a stalled
        // request outlived a 1.5 s interval in our tests), so the timeout is enforced here.
        // It ends with this function: for a stream, once the head has arrived.
        let timer = OneShotTimer(after: remaining) { delegate.cancel(task, as: .timedOut) }
        defer { timer.cancel() }
        let result: Result<TransportResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                delegate.register(task, mode: mode, continuation: continuation)
                if Task.isCancelled {
                    delegate.cancel(task, as: .cancelled)
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            delegate.cancel(task, as: .cancelled)
        }
        return try result.get()
    }

    /// Whether a request may go out on a reused connection, where libcurl may send it twice.
    ///
    /// The transport sees only the method and header fields, so it goes by the method: GET,
    /// HEAD, OPTIONS and TRACE are safe and PUT and DELETE idempotent (RFC 9110, 9.2), so a
    /// second copy changes nothing a first did not. Every other method (POST, PATCH, and any
    /// method it does not know) might act twice, so it gets a fresh connection even when the
    /// caller sent an idempotency key: the key makes a repeat harmless only on servers that
    /// honour it, and the replay it would repeat is one Courier never asked for.
    static func isSafeToRepeat(_ request: HTTPRequest) -> Bool {
        switch request.method {
        case .get, .head, .options, .trace, .put, .delete: true
        default: false
        }
    }

    /// Builds the URL from the parts `HTTPRequest` keeps, without re-encoding the path: the
    /// client has already percent-encoded it, literals and values alike.
    ///
    /// `URL(string:)` percent-encodes a string it finds invalid, `%` included, so one stray
    /// character would turn every `%2F` of the path into `%252F`; a path that is not a valid
    /// request target fails instead.
    static func url(of request: HTTPRequest) -> URL? {
        guard let scheme = request.scheme, let authority = request.authority else { return nil }
        let text = "\(scheme)://\(authority)\(request.path ?? "/")"
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            return URL(string: text, encodingInvalidCharacters: false)
        }
        // Before these releases `URL(string:)` never encoded; it returned nil.
        return URL(string: text)
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let components = duration.components
        return max(0.001, Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }

    struct InvalidURL: Error, Sendable {
        var path: String
    }

    struct Underlying: Error, Sendable, CustomStringConvertible {
        var code: Int
        var domain: String
        var message: String
        var description: String { "\(domain) \(code): \(message)" }
    }

    /// Whether an otherwise unclassified error message comes from the TLS layer.
    static func isTLSMessage(_ message: String) -> Bool {
        ["SSL", "TLS", "certificate"].contains { message.localizedCaseInsensitiveContains($0) }
    }

    /// Classifies a Foundation networking error.
    static func transportError(for error: any Error, cancelledAs reason: TransportError.Kind?) -> TransportError {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return TransportError(.other, underlying: Underlying(code: nsError.code, domain: nsError.domain, message: nsError.localizedDescription))
        }
        // Kept as a URLError, so callers can still ask for the exact code.
        // `URLError.Code(rawValue:)` is failable in FoundationNetworking and not on Apple platforms.
        let code: URLError.Code? = URLError.Code(rawValue: nsError.code)
        let underlying: any Error & Sendable = if let code {
            URLError(code, userInfo: [NSLocalizedDescriptionKey: nsError.localizedDescription])
        } else {
            Underlying(code: nsError.code, domain: nsError.domain, message: nsError.localizedDescription)
        }
        switch code {
        case .cancelled:
            return TransportError(reason ?? .cancelled, underlying: underlying)
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            return TransportError(.notConnected, requestMayHaveBeenSent: false, underlying: underlying)
        case .cannotFindHost, .dnsLookupFailed:
            return TransportError(.cannotResolveHost, requestMayHaveBeenSent: false, underlying: underlying)
        case .cannotConnectToHost:
            return TransportError(.connectionRefused, requestMayHaveBeenSent: false, underlying: underlying)
        case .networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse, .cannotDecodeRawData:
            return TransportError(.connectionLost, underlying: underlying)
        case .timedOut:
            return TransportError(.timedOut, underlying: underlying)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
             .clientCertificateRequired:
            return TransportError(.tls, requestMayHaveBeenSent: false, underlying: underlying)
        case .dataLengthExceedsMaximum:
            return TransportError(.responseTooLarge, underlying: underlying)
        default:
            // FoundationNetworking on Linux reports libcurl's TLS failures as `unknown` (-1)
            // with OpenSSL's message, such as "SSL routines::wrong version number".
            if Self.isTLSMessage(nsError.localizedDescription) {
                return TransportError(.tls, underlying: underlying)
            }
            return TransportError(.other, underlying: underlying)
        }
    }
}

/// Collects each task's response and body and resumes its caller exactly once.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// What a task's caller wants: the whole body under a limit, or the head and then the body
    /// as it arrives.
    enum Mode {
        case buffered(limit: Int)
        case streaming(GateExit)
    }

    private struct Pending {
        var continuation: CheckedContinuation<Result<TransportResponse, TransportError>, Never>?
        var limit: Int
        /// Set for a streamed response once its head has been handed out.
        var chunks: SpillBuffer?
        var streaming: GateExit?
        var response: HTTPURLResponse?
        var body = Data()
        var cancelReason: TransportError.Kind?
        var cancelledEarly = false
    }

    /// Keyed by a name unique to the delegate (see ``name(_:)``), because tasks of different
    /// sessions, the per-request ones included, share identifiers, and a task object's address
    /// may be reused by a later task while a late cancel's entry is still here.
    private let pending = Locked<[UInt64: Pending]>([:])
    private let lastName = Locked<UInt64>(0)

    /// Names `task` uniquely, before it is registered or resumed.
    func name(_ task: URLSessionTask) {
        let name = lastName.withLock { last -> UInt64 in
            last += 1
            return last
        }
        task.taskDescription = String(name)
    }

    private static func key(_ task: URLSessionTask) -> UInt64 {
        task.taskDescription.flatMap { UInt64($0) } ?? 0
    }

    func register(_ task: URLSessionTask, mode: Mode, continuation: CheckedContinuation<Result<TransportResponse, TransportError>, Never>) {
        let cancelledEarly = pending.withLock { table -> Bool in
            let early = table[Self.key(task)]?.cancelledEarly ?? false
            switch mode {
            case .buffered(let limit):
                table[Self.key(task)] = Pending(continuation: continuation, limit: limit)
            case .streaming(let exit):
                table[Self.key(task)] = Pending(continuation: continuation, limit: .max, streaming: exit)
            }
            return early
        }
        if cancelledEarly {
            finish(task, with: .failure(TransportError(.cancelled, requestMayHaveBeenSent: false)))
            pending.withLock { $0[Self.key(task)] = nil }
        }
    }

    /// Cancels a task, remembering why so that the completion reports the right kind.
    func cancel(_ task: URLSessionTask, as reason: TransportError.Kind) {
        let registered = pending.withLock { table -> Bool in
            guard table[Self.key(task)] != nil else {
                // Cancelled before registration: the registration resolves it.
                table[Self.key(task)] = Pending(continuation: nil, limit: 0, cancelledEarly: true)
                return false
            }
            if table[Self.key(task)]?.cancelReason == nil {
                table[Self.key(task)]?.cancelReason = reason
            }
            return true
        }
        if registered {
            // A suspended task never calls back on some platforms; finish it here too.
            if task.state == .suspended {
                finish(task, with: .failure(TransportError(reason, requestMayHaveBeenSent: false)))
            }
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let (tooLarge, exit) = pending.withLock { table -> (Bool, GateExit?) in
            table[Self.key(dataTask)]?.response = http
            guard let entry = table[Self.key(dataTask)] else { return (false, nil) }
            return ((http?.expectedContentLength ?? -1) > Int64(entry.limit), entry.streaming)
        }
        if let exit {
            completionHandler(.allow)
            startStream(dataTask, response: http, exit: exit)
        } else if tooLarge {
            completionHandler(.cancel)
            finish(dataTask, with: .failure(TransportError(.responseTooLarge)))
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let key = Self.key(dataTask)
        let (tooLarge, streamed) = pending.withLock { table -> (Bool, SpillBuffer?) in
            // No copy of the entry may be alive while the body grows: Data would then copy the
            // whole body so far on every chunk (50 MB took minutes that way).
            guard let limit = table[key]?.limit else { return (false, nil) }
            if let chunks = table[key]?.chunks {
                return (false, chunks)
            }
            guard (table[key]?.body.count ?? 0) + data.count <= limit else { return (true, nil) }
            table[key]?.body.append(data)
            return (false, nil)
        }
        // Outside the lock: it may write to disk.
        streamed?.append(data)
        if tooLarge {
            cancel(dataTask, as: .responseTooLarge)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        complete(task, error: error)
    }

    #if canImport(FoundationNetworking)
    /// Delivers a 401 that carries a `WWW-Authenticate` challenge, which FoundationNetworking
    /// would otherwise never complete.
    ///
    /// FoundationNetworking (swift-corelibs-foundation, as of Swift 6.3.1) reads the whole 401
    /// response and hands its head and body to this delegate as for any status. Then, instead
    /// of completing the task, it turns a `Basic` challenge with a realm (anywhere in the
    /// field, as one of several challenges too) into this callback. With
    /// `.performDefaultHandling` and no stored credential it does nothing at all (its
    /// `attemptProceedingWithDefaultCredential` has no branch for a missing credential), so the
    /// task stays running until the attempt's timeout; with `.rejectProtectionSpace` or
    /// `.cancelAuthenticationChallenge` it cancels the task, which reports `cancelled`.
    ///
    /// The callback comes only after the transfer has finished, on the delegate's serial queue
    /// after every data callback of the task, so the response and its whole body are here
    /// already: they are delivered as the task's result, as a normal completion would have,
    /// and the task is then cancelled, which lets the connection go (the transfer is over)
    /// and ends in a completion that finds the task already answered. Courier answers 401s
    /// itself (``Authentication``), so URLSession's own credential handling is never used.
    /// Apple platforms complete such a response normally and never get here.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @Sendable @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        complete(task, error: nil)
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
    #endif

    /// Answers the task's caller (or ends its streamed body) with how the task ended, once.
    private func complete(_ task: URLSessionTask, error: (any Error)?) {
        // The task is over: its entry goes, whether or not its caller was already answered.
        let entry = pending.withLock { $0.removeValue(forKey: Self.key(task)) }
        if let chunks = entry?.chunks {
            // A streamed body: its head went out already; its reader learns how it ended.
            if let reason = entry?.cancelReason {
                chunks.finish(.failure(TransportError(reason)))
            } else if let error {
                var failure = URLSessionTransport.transportError(for: error, cancelledAs: nil)
                if (error as NSError).code == URLError.Code.unknown.rawValue { failure.kind = .connectionLost }
                chunks.finish(.failure(failure))
            } else {
                chunks.finish(.success(()))
            }
            entry?.streaming?.leave()
            return
        }
        guard let entry, let continuation = entry.continuation else { return }
        let finish = { (result: Result<TransportResponse, TransportError>) in continuation.resume(returning: result) }
        if let reason = entry.cancelReason {
            // The transfer may have completed before the cancel took effect; the reason still holds.
            finish(.failure(TransportError(reason, underlying: URLSessionTransport.Underlying(
                code: 0, domain: "URLSessionTransport", message: "The task was cancelled: \(reason.rawValue)."))))
            return
        }
        if let error {
            var failure = URLSessionTransport.transportError(for: error, cancelledAs: entry.cancelReason)
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain, nsError.code == URLError.Code.unknown.rawValue, entry.response != nil {
                // FoundationNetworking on Linux reports a body cut short ("transfer closed with
                // N bytes remaining to read", libcurl's CURLE_PARTIAL_FILE) as an unknown error.
                // Once the head has arrived, an unknown failure can only be the connection ending early.
                failure.kind = .connectionLost
            }
            finish(.failure(failure))
            return
        }
        guard let http = entry.response, let head = Self.head(of: http) else {
            finish(.failure(TransportError(.other, underlying: URLSessionTransport.Underlying(
                code: 0, domain: "Courier", message: "The response was not an HTTP response."))))
            return
        }
        finish(.success(TransportResponse(head: head, body: entry.body)))
    }

    /// Hands out a streamed response's head with a body fed by the data callbacks that follow.
    private func startStream(_ task: URLSessionDataTask, response: HTTPURLResponse?, exit: GateExit) {
        guard let response, let head = Self.head(of: response) else {
            cancel(task, as: .other)
            finish(task, with: .failure(TransportError(.other, underlying: URLSessionTransport.Underlying(
                code: 0, domain: "Courier", message: "The response was not an HTTP response."))))
            return
        }
        exit.handOver()
        // A reader that stops early (cancelled, or dropping the body) closes the connection;
        // the request's place at the gate goes when the task is over either way.
        let buffer = SpillBuffer { [weak self] in
            self?.cancel(task, as: .cancelled)
        }
        let continuation = pending.withLock { table -> CheckedContinuation<Result<TransportResponse, TransportError>, Never>? in
            table[Self.key(task)]?.chunks = buffer
            let continuation = table[Self.key(task)]?.continuation
            table[Self.key(task)]?.continuation = nil
            return continuation
        }
        let length: HTTPBody.Length = response.expectedContentLength >= 0 ? .known(response.expectedContentLength) : .unknown
        var delivered = TransportResponse(head: head)
        delivered.streamedBody = HTTPBody(SpilledChunks(buffer), length: length, iterationBehavior: .single)
        continuation?.resume(returning: .success(delivered))
    }

    private func finish(_ task: URLSessionTask, with result: Result<TransportResponse, TransportError>) {
        let continuation = pending.withLock { table in
            let continuation = table[Self.key(task)]?.continuation
            table[Self.key(task)]?.continuation = nil
            return continuation
        }
        continuation?.resume(returning: result)
    }

    private static func head(of response: HTTPURLResponse) -> HTTPResponse? {
        guard (100...999).contains(response.statusCode) else { return nil }
        var fields = HTTPFields()
        for (key, value) in response.allHeaderFields {
            guard let key = key as? String, let name = HTTPField.Name(key), let text = value as? String else { continue }
            // Foundation joins repeated fields with ", "; HTTPFields keeps them as one field, which reads the same.
            fields.append(HTTPField(name: name, value: text))
        }
        return HTTPResponse(status: HTTPResponse.Status(code: response.statusCode), headerFields: fields)
    }
}

/// What URLSession sends as a request body: nothing, bytes in memory, or a file.
private enum Upload {
    case none
    case memory(Data)
    case file(URL, isSpool: Bool)

    init(_ body: HTTPBody?) async throws {
        guard let body else {
            self = .none
            return
        }
        switch body.storage {
        case .buffered(let data):
            self = .memory(data)
        case .file(let url, _):
            self = .file(url, isSpool: false)
        case .chunks:
            let spool = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: spool.path, contents: nil) else {
                throw HTTPBody.ReadError.unreadableFile(path: spool.path, reason: "The temporary file could not be created.")
            }
            do {
                let handle = try FileHandle(forWritingTo: spool)
                defer { try? handle.close() }
                for try await chunk in body {
                    try handle.write(contentsOf: chunk)
                }
            } catch {
                try? FileManager.default.removeItem(at: spool)
                throw error
            }
            self = .file(spool, isSpool: true)
        }
    }

    var file: URL? {
        if case .file(let url, _) = self { return url }
        return nil
    }

    func removeSpool() {
        if case .file(let url, true) = self {
            try? FileManager.default.removeItem(at: url)
        }
    }
}

/// Lets a request's place at the admission gate go exactly once: when the attempt ends, or,
/// for a streamed response, when its body has been read or abandoned.
final class GateExit: Sendable {
    private let gate: AdmissionGate?
    private let key: String
    private let state = Locked((handedOver: false, left: false))

    init(gate: AdmissionGate?, key: String) {
        self.gate = gate
        self.key = key
    }

    /// The body's reader will call ``leave()``.
    func handOver() {
        state.withLock { $0.handedOver = true }
    }

    func leaveUnlessHandedOver() {
        if !state.withLock({ $0.handedOver }) { leave() }
    }

    func leave() {
        let first = state.withLock { state -> Bool in
            defer { state.left = true }
            return !state.left
        }
        if first { gate?.leave(key) }
    }
}

