@testable import CourierRuntime
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// The buffer between URLSession's delegate, which cannot be slowed down, and a slower reader.
@Suite("Spill buffer")
struct SpillBufferTests {
    @Test("Bytes a reader has not taken go to disk past the memory limit and come back in order")
    func aSlowReaderGetsEveryByteInOrder() async throws {
        let buffer = SpillBuffer {}
        let total = 5 * 1024 * 1024 + 123
        let bytes = ResponseStream.patternData(count: total)
        // Everything arrives before the reader starts: 5 MB, against a memory limit of 1 MiB.
        var offset = 0
        var size = 1
        while offset < total {
            let end = min(offset + size, total)
            buffer.append(bytes.subdata(in: offset..<end))
            offset = end
            size = size * 3 % 40_000 + 1
        }
        buffer.finish(.success(()))
        var checker = PatternChecker()
        while let chunk = try await buffer.next() { checker.consume(chunk) }
        checker.finish()
        #expect(checker.count == total)
        #expect(checker.firstMismatch == nil)
    }

    @Test("A reader and a writer running at once keep the order across spills and drains")
    func interleaved() async throws {
        let buffer = SpillBuffer {}
        let total = 6 * 1024 * 1024
        let bytes = ResponseStream.patternData(count: total)
        let reader = Task {
            var checker = PatternChecker()
            while let chunk = try await buffer.next() { checker.consume(chunk) }
            checker.finish()
            return checker
        }
        var offset = 0
        var round = 0
        while offset < total {
            // Bursts from 16 KiB to 1.5 MiB: some fit in memory, some spill.
            let burst = min(total - offset, [16 * 1024, 512 * 1024, 1536 * 1024, 64 * 1024][round % 4])
            buffer.append(bytes.subdata(in: offset..<(offset + burst)))
            offset += burst
            round += 1
            await Task.yield()
        }
        buffer.finish(.success(()))
        let checker = try await reader.value
        #expect(checker.count == total)
        #expect(checker.firstMismatch == nil)
    }

    @Test("A failure reaches the reader after the bytes before it, and a stopped reader cancels the task once")
    func failureAndStop() async throws {
        let buffer = SpillBuffer {}
        buffer.append(Data("abc".utf8))
        buffer.finish(.failure(TransportError(.connectionLost)))
        #expect(try await buffer.next() == Data("abc".utf8))
        await #expect(throws: TransportError.self) { try await buffer.next() }

        let cancels = LockedValues<Int>()
        let stopped = SpillBuffer { cancels.append(1) }
        stopped.append(Data("x".utf8))
        stopped.readerStopped()
        stopped.readerStopped()
        #expect(cancels.all.count == 1)
    }
}
