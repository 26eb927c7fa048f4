import Logging

/// The one notice of a client that sends, without credentials, calls its service expects them on.
extension APIClient {
    /// Logs at debug level, once per client, that `request` goes out without credentials although
    /// its service's spec has `auth` and the endpoint does not say it is public: the client was
    /// made without `auth:`, whose default is ``Authentication/none``.
    func logMissingCredentials<Request: APIRequest>(of request: Request, summary: RequestSummary) {
        guard configuration.expectsAuthentication, configuration.auth.isNone,
              request.authentication != .none else { return }
        let first = missingCredentialsLogged.withLock { logged in
            defer { logged = true }
            return !logged
        }
        guard first else { return }
        configuration.logger.debug(
            "\(summary.operationName) needs credentials, but the client has none: it was made without auth:, which defaults to Authentication.none; requests go out unauthenticated",
            metadata: ["courier.operation": .string(summary.operationName)])
    }
}
