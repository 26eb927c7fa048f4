import CourierRuntime
import Testing

/// Runs a client call that must fail and returns its typed error; records an issue (and returns
/// `nil`) when the call succeeds.
func failure<Failure, Value>(
    of call: () async throws(APIError<Failure>) -> Value,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> APIError<Failure>? {
    do throws(APIError<Failure>) {
        let value = try await call()
        Issue.record("expected a failure, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
