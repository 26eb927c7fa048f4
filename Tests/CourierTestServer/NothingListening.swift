import CourierLocking
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TestServer {
    /// Why no port could be reserved.
    public struct PortReservationError: Error, CustomStringConvertible {
        /// The call that failed and its `errno`.
        public var description: String
    }

    /// A loopback port where nothing listens, and where nothing will for the rest of the test
    /// process: connecting to it is refused.
    ///
    /// The port is bound by a socket that never listens and stays open until the process ends.
    /// A port taken from a server that was then stopped is free again, and the system hands it to
    /// the next server some other test starts in parallel, whose answers (a 404, say) then arrive
    /// where a test expected a refused connection. A bound port is never handed out again.
    public static func portWithNothingListening() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw PortReservationError(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw PortReservationError(description: "bind: errno \(code)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length)
            }
        }
        guard named == 0 else {
            let code = errno
            close(descriptor)
            throw PortReservationError(description: "getsockname: errno \(code)")
        }
        // Deliberately never closed: the socket is what keeps the port from other servers.
        reservedDescriptors.withLock { $0.append(descriptor) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The sockets behind ``TestServer/portWithNothingListening()``, kept for the life of the process.
private let reservedDescriptors = Locked<[Int32]>([])
