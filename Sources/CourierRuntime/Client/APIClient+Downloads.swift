import Foundation

/// A response body saved to a file by ``APIClient/download(_:to:accept:progress:resilience:)``.
public struct DownloadedFile: Sendable {
    /// Where the body is.
    public var fileURL: URL
    /// How many bytes it holds.
    public var byteCount: Int64
    /// The response's status.
    public var status: HTTPResponse.Status
    /// The response's header fields.
    public var headerFields: HTTPFields
}

extension APIClient {
    /// Why a download could not be saved, once the response had arrived.
    public struct DownloadError: Error, Sendable, CustomStringConvertible {
        /// The file that could not be written.
        public var fileURL: URL
        /// What the file system said.
        public var reason: String

        /// A sentence saying what went wrong.
        public var description: String {
            "The download could not be saved to \(fileURL.path): \(reason)"
        }
    }
}

extension APIClient {
    /// Sends a request and writes its successful body to a file as it arrives, never holding
    /// it in memory.
    ///
    /// The bytes go to a temporary file beside `destination`, which replaces `destination`
    /// only once the body is complete; a failed or cancelled download leaves `destination` as
    /// it was. Everything before the body (auth, retries, the breaker, failure mapping) is an
    /// ordinary call, as in ``stream(_:resilience:accept:)``; a connection that fails midway ends the
    /// download with ``APIError/transport(_:)`` and is not retried, because part of the body
    /// was already read.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - destination: A `file:` URL; its directory must exist.
    ///   - accept: The `Accept` field to send, such as `application/zip`, instead of the
    ///     client's default; `nil` leaves it.
    ///   - progress: Called as bytes arrive, with the total when the server sent a length.
    ///   - resilience: This call's own retry and breaker choices.
    /// - Returns: Where the file is and what it holds.
    /// - Throws: `APIError`; a file that cannot be written is ``APIError/transport(_:)``
    ///   with kind `other` and a ``APIClient/DownloadError`` as its underlying error.
    public func download<Request: APIRequest>(
        _ request: Request,
        to destination: URL,
        accept: String? = nil,
        progress: (@Sendable (HTTPBody.Progress) -> Void)? = nil,
        resilience: EndpointResilience? = nil
    ) async throws(APIError<Request.Failure>) -> DownloadedFile {
        let response = try await stream(request, resilience: resilience, accept: accept)
        let body = progress.map { response.body.reportingProgress($0) } ?? response.body
        let directory = destination.deletingLastPathComponent()
        let partial = directory.appendingPathComponent(".\(destination.lastPathComponent).courier-\(UUID().uuidString).partial")
        func saveFailure(_ reason: String) -> APIError<Request.Failure> {
            .transport(TransportError(.other, underlying: APIClient.DownloadError(fileURL: destination, reason: reason)))
        }
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw saveFailure("The file could not be created in \(directory.path).")
        }
        var written: Int64 = 0
        do {
            let handle = try FileHandle(forWritingTo: partial)
            defer { try? handle.close() }
            do {
                for try await chunk in body {
                    try handle.write(contentsOf: chunk)
                    written += Int64(chunk.count)
                }
            } catch let error as TransportError {
                try? FileManager.default.removeItem(at: partial)
                throw APIError<Request.Failure>.transport(error)
            }
            try handle.synchronize()
        } catch let error as APIError<Request.Failure> {
            throw error
        } catch {
            try? FileManager.default.removeItem(at: partial)
            if Task.isCancelled { throw .transport(TransportError(.cancelled)) }
            throw saveFailure(String(describing: error))
        }
        // rename(2) replaces the destination in one step, in the same directory; FileManager's
        // replaceItemAt fails on Linux when the destination exists.
        if rename(partial.path, destination.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: partial)
            throw saveFailure(reason)
        }
        return DownloadedFile(fileURL: destination, byteCount: written, status: response.status, headerFields: response.headerFields)
    }
}
