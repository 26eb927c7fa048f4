/// Which credentials one endpoint sends: those the client applies to every call, none at all
/// (a public endpoint), or the first of several named schemes that the client was given.
public enum AuthenticationRequirement: Sendable, Hashable {
    /// The client's authentication as configured: for named schemes, the service's default.
    case inherited
    /// No credentials, even when the client has some: a public endpoint.
    case none
    /// The first of these named schemes the client was given (``Authentication/schemes(_:default:)``),
    /// in this order of preference; none when it was given none of them.
    case anyOf([String])
}
