// The Darwin declarations VnodeObservation.swift uses that Linux's Dispatch and Glibc lack,
// with Darwin's signatures, so that a test can type-check that file here. Never built into
// a product: DarwinWatcherTypeCheckTests (FileWatcherTests.swift) hands it to `swiftc -typecheck`.
import Dispatch

protocol DispatchSourceFileSystemObject: DispatchSourceProtocol {
    var handle: Int32 { get }
    var data: DispatchSource.FileSystemEvent { get }
    var mask: DispatchSource.FileSystemEvent { get }
}

extension DispatchSource {
    class func makeFileSystemObjectSource(
        fileDescriptor: Int32,
        eventMask: DispatchSource.FileSystemEvent,
        queue: DispatchQueue? = nil
    ) -> any DispatchSourceFileSystemObject {
        preconditionFailure("a type-checking shim, never run")
    }
}

let O_EVTONLY: Int32 = 0x8000
