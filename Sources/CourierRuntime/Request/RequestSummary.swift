import HTTPTypes

/// What a call is, in terms safe to log and show: never a filled-in path, query or header.
public struct RequestSummary: Sendable, Hashable {
    /// The operation's name, such as `getUser`.
    public var operationName: String
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path template, such as `/users/{id}`.
    public var pathTemplate: String
    /// The host the call goes to, such as `api.example.com:8443`.
    public var host: String

    /// Creates a summary.
    public init(operationName: String, method: HTTPRequest.Method, pathTemplate: String, host: String) {
        self.operationName = operationName
        self.method = method
        self.pathTemplate = pathTemplate
        self.host = host
    }
}
