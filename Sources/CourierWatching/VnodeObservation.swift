// Darwin only. `COURIER_TYPECHECK_VNODE` lets a test type-check this file on Linux against a
// shim of the few Dispatch declarations Linux lacks (DarwinWatcherTypeCheckTests); it is never set
// in a build.
#if canImport(Darwin) || COURIER_TYPECHECK_VNODE
import Dispatch
#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// Observes one file or folder through a kqueue vnode source on a descriptor opened for
/// events only, so that it neither keeps a volume from unmounting nor counts as a reader.
final class VnodeObservation: PathObservation {
    private let source: any DispatchSourceFileSystemObject

    /// Opens `path` and calls `changed` on `queue` when it is written, grows, changes its
    /// attributes, or is deleted, renamed or revoked; `nil` when it cannot be opened.
    init?(path: String, queue: DispatchQueue, changed: @escaping @Sendable () -> Void) {
        let descriptor = open(path, O_EVTONLY)
        guard descriptor >= 0 else { return nil }
        source = DispatchSource.makeFileSystemObjectSource(
            fileDescriptor: descriptor,
            eventMask: [.write, .extend, .attrib, .link, .delete, .rename, .revoke],
            queue: queue
        )
        source.setEventHandler { changed() }
        source.setCancelHandler { _ = close(descriptor) }
        source.resume()
    }

    func cancel() {
        source.cancel()
    }

    // A resumed source outlives its last reference until cancelled, holding its descriptor.
    deinit {
        source.cancel()
    }

    /// Observes `path` with a vnode source: the ``PathObserver`` of Darwin's `.events` backend.
    static func observe(_ path: String, queue: DispatchQueue, changed: @escaping @Sendable () -> Void) -> (any PathObservation)? {
        VnodeObservation(path: path, queue: queue, changed: changed)
    }
}
#endif
