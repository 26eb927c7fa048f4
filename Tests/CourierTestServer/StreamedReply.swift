import CourierLocking
import Foundation
import NIOCore
import NIOHTTP1

/// A response the server writes a part at a time, for streaming tests: it can wait for the
/// test between parts, write megabytes without holding them, and report when the client went
/// away.
///
/// ```swift
/// let stream = ResponseStream(status: 200, parts: [.bytes(first), .waitForRelease, .bytes(second)])
/// server.route("GET", "/feed", .stream(stream))
/// // read `first` on the client, then:
/// stream.release()
/// ```
///
/// One instance serves one request.
public final class ResponseStream: Sendable {
    /// A piece of the body, or a pause.
    public enum Part: Sendable {
        /// These bytes, flushed at once.
        case bytes(Data)
        /// `count` bytes of ``ResponseStream/patternData(offset:count:)``, written 64 KiB at a time, each
        /// write waiting for the previous one to leave, so the server never holds them all.
        case pattern(count: Int)
        /// Waits until the test calls ``ResponseStream/release()`` (once per such part).
        case waitForRelease
        /// Closes the connection here, cutting the body short.
        case close
    }

    /// The status code.
    public let status: Int
    /// Header fields; `Transfer-Encoding: chunked` is used unless `Content-Length` is given.
    public let headers: [(String, String)]
    /// The body, in order.
    public let parts: [Part]

    private let state = Locked(StreamState())

    private struct StreamState {
        var releases = 0
        var waitingToContinue: (@Sendable () -> Void)?
        var closedWaiters: [CheckedContinuation<Void, Never>] = []
        var closed = false
        var bytesWritten = 0
    }

    /// Creates a streamed response.
    public init(status: Int = 200, headers: [(String, String)] = [], parts: [Part]) {
        self.status = status
        self.headers = headers
        self.parts = parts
    }

    /// The size of a block of ``patternData(offset:count:)``.
    public static let patternBlockSize = 64 * 1024

    /// A block's bytes before its offset is stamped in: varied, so a block cut short shows.
    private static let patternTemplate = Data((0..<patternBlockSize).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ ($0 >> 8)) })

    /// `count` bytes of the deterministic pattern `.pattern` parts write, from `offset` on.
    ///
    /// The pattern is made of 64 KiB blocks, each starting with its own offset as 8 big-endian
    /// bytes, so a lost, repeated or reordered block shows; checking it costs a comparison of
    /// blocks, not work per byte, which keeps 50 MB tests fast in debug builds.
    public static func patternData(offset: Int = 0, count: Int) -> Data {
        var result = Data(capacity: count)
        var position = offset
        while result.count < count {
            let blockStart = position - position % patternBlockSize
            var block = patternTemplate
            withUnsafeBytes(of: UInt64(blockStart).bigEndian) { block.replaceSubrange(0..<8, with: $0) }
            let from = position - blockStart
            let take = min(patternBlockSize - from, count - result.count)
            result.append(block[from..<(from + take)])
            position += take
        }
        return result
    }

    /// Lets the next `.waitForRelease` part pass.
    public func release() {
        let continuation = state.withLock { state -> (@Sendable () -> Void)? in
            guard let continuation = state.waitingToContinue else {
                state.releases += 1
                return nil
            }
            state.waitingToContinue = nil
            return continuation
        }
        continuation?()
    }

    /// How many body bytes the server has written so far.
    public var bytesWritten: Int {
        state.withLock { $0.bytesWritten }
    }

    /// Returns once the connection this response was written on has closed, by either side.
    public func waitUntilClosed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let closed = state.withLock { state -> Bool in
                if state.closed { return true }
                state.closedWaiters.append(continuation)
                return false
            }
            if closed { continuation.resume() }
        }
    }

    func start(context: ChannelHandlerContext, keepAlive: Bool) {
        var fields = HTTPHeaders(headers)
        if !fields.contains(name: "Content-Length") {
            fields.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
        }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields)
        context.channel.closeFuture.whenComplete { [self] _ in markClosed() }
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        write(partAt: 0, offset: 0, context: bound, keepAlive: keepAlive)
    }

    private func markClosed() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.closed = true
            defer { state.closedWaiters = [] }
            return state.closedWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func write(partAt index: Int, offset: Int, context: NIOLoopBound<ChannelHandlerContext>, keepAlive: Bool) {
        let eventLoop = context.eventLoop
        guard index < parts.count else {
            let future = context.value.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
            if !keepAlive {
                future.whenComplete { _ in context.value.close(promise: nil) }
            }
            return
        }
        switch parts[index] {
        case .bytes(let data):
            state.withLock { $0.bytesWritten += data.count }
            context.value.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: data))))).whenComplete { [self] result in
                guard case .success = result else { return }
                // A write to loopback often completes at once, calling back synchronously: going
                // on in a later tick keeps thousands of parts from nesting calls on the stack.
                eventLoop.execute {
                    self.write(partAt: index + 1, offset: 0, context: context, keepAlive: keepAlive)
                }
            }
        case .pattern(let count):
            guard offset < count else {
                write(partAt: index + 1, offset: 0, context: context, keepAlive: keepAlive)
                return
            }
            let size = min(Self.patternBlockSize, count - offset)
            let start = state.withLock { state -> Int in
                defer { state.bytesWritten += size }
                return state.bytesWritten
            }
            let buffer = ByteBuffer(bytes: Self.patternData(offset: start, count: size))
            context.value.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(buffer)))).whenComplete { [self] result in
                guard case .success = result else { return }
                eventLoop.execute {
                    self.write(partAt: index, offset: offset + size, context: context, keepAlive: keepAlive)
                }
            }
        case .waitForRelease:
            let proceed: @Sendable () -> Void = { [self] in
                eventLoop.execute {
                    self.write(partAt: index + 1, offset: 0, context: context, keepAlive: keepAlive)
                }
            }
            let released = state.withLock { state -> Bool in
                if state.releases > 0 {
                    state.releases -= 1
                    return true
                }
                state.waitingToContinue = proceed
                return false
            }
            if released { proceed() }
        case .close:
            context.value.close(promise: nil)
        }
    }
}

/// Checks that bytes read in chunks of any size are ``ResponseStream/patternData(offset:count:)``
/// from offset 0, a block at a time.
public struct PatternChecker: Sendable {
    /// How many bytes were read.
    public private(set) var count = 0
    /// The offset of the first block that differed, if any.
    public private(set) var firstMismatch: Int?
    private var pending = Data()

    /// A checker at offset 0.
    public init() {}

    /// Takes the next bytes read.
    public mutating func consume(_ chunk: Data) {
        pending.append(chunk)
        count += chunk.count
        while pending.count >= ResponseStream.patternBlockSize {
            check(pending.prefix(ResponseStream.patternBlockSize))
            pending.removeFirst(ResponseStream.patternBlockSize)
        }
    }

    /// Checks the bytes left after the last whole block; call once at the end.
    public mutating func finish() {
        if !pending.isEmpty { check(pending) }
        pending = Data()
    }

    private mutating func check(_ block: Data) {
        let offset = count - pending.count
        if firstMismatch == nil, block != ResponseStream.patternData(offset: offset, count: block.count) {
            firstMismatch = offset
        }
    }
}
