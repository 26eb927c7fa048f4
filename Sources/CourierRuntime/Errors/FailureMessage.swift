import Foundation
import HTTPTypes

/// The sentence a documented failure shows the user, in the order a spec asks for: the
/// server's own words from a body field, else the spec's fixed text, else a sentence naming
/// the status.
///
/// Generated failure enums implement `LocalizedError.errorDescription` with it, so that
/// `failure.localizedDescription` never falls back to Foundation's placeholder ("The
/// operation could not be completed. (… error 10.)"), on Apple platforms or on Linux:
///
/// ```swift
/// public var errorDescription: String? {
///     switch self {
///     // message: { field: error.message, fallback: "The card was declined." }
///     case .cardDeclined(let body):
///         FailureMessage.text(for: body, field: "error.message", fallback: "The card was declined.")
///     // message: "This product is no longer sold." (no payload needed)
///     case .productNotFound: "This product is no longer sold."
///     // no message, a body
///     case .conflict(let body): FailureMessage.text(for: body)
///     // no message, no body, status 404
///     case .notFound: FailureMessage.statusSentence(404)
///     // no message, no body, 5XX
///     case .serverError: FailureMessage.statusSentence(in: 500...599)
///     }
/// }
/// ```
@_spi(Generated) public enum FailureMessage {
    /// The longest server text shown, in characters; a longer one is cut and marked, so that
    /// a hostile or verbose body cannot fill the user's screen.
    public static let maximumServerTextLength = 500

    /// The message for a failure: the server's text at `field` in `body` when there is one,
    /// else `fallback`, else ``statusSentence(_:)`` for `status`, else a generic sentence.
    ///
    /// - Parameters:
    ///   - field: A field path such as `error.message` or `errors[0].detail` (see
    ///     ``RawResponse/discriminator(at:)``), or `nil` when the spec names none.
    ///   - body: The response body.
    ///   - fallback: The spec's fixed text, if any.
    ///   - status: The response status, if known.
    public static func text(field: String?, in body: Data, fallback: String?, status: HTTPResponse.Status?) -> String {
        if let field, let text = serverText(at: field, in: body) {
            return text
        }
        if let fallback, !fallback.isEmpty {
            return fallback
        }
        if let status {
            return statusSentence(status)
        }
        return genericSentence
    }

    /// The server's text at a field path: a scalar that is not `null` and not blank, trimmed,
    /// cut at ``maximumServerTextLength``; `nil` otherwise, and for a body that is not JSON.
    ///
    /// The body is read in one pass, as discriminators are, so a large or hostile body costs
    /// time linear in its length.
    public static func serverText(at field: String, in body: Data) -> String? {
        guard let steps = FieldPath.parse(field),
              let text = DiscriminatorScanner.scalarText(at: steps, in: body)?.trimmingCharacters(in: .whitespacesAndNewlines),
              !text.isEmpty
        else { return nil }
        guard text.count > maximumServerTextLength else { return text }
        return String(text.prefix(maximumServerTextLength)) + "…"
    }

    /// A sentence naming the status, such as "The server answered 404 Not Found.", with the
    /// standard reason phrase from Courier's own table (never the server's, which is its own
    /// text), or just the code for a status without one.
    ///
    /// A success status only reaches here for a failure reported inside it (Slack's
    /// `{"ok": false}` in a 200), where "The server answered 200 OK." would read as a success.
    public static func statusSentence(_ status: HTTPResponse.Status) -> String {
        if (200..<300).contains(status.code) {
            let reason = StatusText.reason(for: status.code).map { " \($0)" } ?? ""
            return "The server reported a failure in its \(status.code)\(reason) answer."
        }
        guard let reason = StatusText.reason(for: status.code) else {
            return "The server answered with status \(status.code)."
        }
        return "The server answered \(status.code) \(reason)."
    }

    /// A sentence for a failure known only by a range of statuses, such as a generated case
    /// for `5XX` that carries no response: "The server answered with an error (5XX)."
    public static func statusSentence(in codes: ClosedRange<Int>) -> String {
        if codes.count == 1 {
            return statusSentence(HTTPResponse.Status(code: codes.lowerBound))
        }
        let low = codes.lowerBound, high = codes.upperBound
        if low % 100 == 0, high == low + 99 {
            return "The server answered with an error (\(low / 100)XX)."
        }
        return "The server answered with an error (\(low)–\(high))."
    }

    /// The sentence when nothing at all is known.
    public static let genericSentence = "The server could not complete the request."

    /// The spec's text for a localization key: the app's translation of `key` in `bundle`
    /// (a String Catalog or `.strings` table compiled into the app), else `fallback`, the
    /// spec's own text, which is what Linux and an app without the key show.
    ///
    /// A spec's `message: { key: errors.notFound, fallback: "Not found." }` becomes
    /// `FailureMessage.localized("errors.notFound", fallback: "Not found.")`.
    ///
    /// `Bundle.localizedString(forKey:value:table:)` rather than `String(localized:)`: it
    /// takes a key known only at run time, needs no OS version floor, and exists on Linux,
    /// where it returns `fallback` for a key no table has.
    public static func localized(_ key: String, fallback: String, bundle: Bundle = .main) -> String {
        let text = bundle.localizedString(forKey: key, value: fallback, table: nil)
        // An app's table may map the key to an empty string; an empty message helps no one.
        return text.isEmpty ? fallback : text
    }
}

extension FailureMessage {
    /// The message for a failure that carries an error body: the server's text at `field`
    /// when present, else `fallback`, else a sentence naming the body's response status.
    ///
    /// A static function rather than a method of ``ErrorBody``, whose dynamic members are the
    /// schema's: a method named `message` would hide a schema's own `message` from
    /// `body.message`.
    @_spi(Generated) public static func text<Schema>(for body: ErrorBody<Schema>, field: String? = nil, fallback: String? = nil) -> String {
        text(field: field, in: body.raw, fallback: fallback, status: body.responseStatus)
    }
}
