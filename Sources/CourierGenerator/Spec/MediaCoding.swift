/// How a body is coded when its media type alone does not say (`coding:` in the mapping form of
/// `contentType:`, such as `{ type: application/x-amz-json-1.0, coding: json }`).
///
/// Courier knows a JSON body by its media type, `application/json` or a `+json` type; AWS's JSON
/// protocols and a few other services name a JSON body with a vendor type that says neither, so
/// the spec says it instead.
enum MediaCoding: String, CaseIterable, Hashable, Sendable {
    /// JSON, with the service's `coding:` (key style, dates), exactly as under `application/json`.
    case json
}

extension MediaCoding {
    /// Whether a media type's subtype mentions JSON without being a type Courier reads as JSON
    /// already: `application/x-amz-json-1.0`, `text/x-json`. Such a type is likely JSON under
    /// another name, so a diagnostic that refuses a model under it suggests `coding: json` instead
    /// of `Data`.
    static func mentionsJSON(_ contentType: String) -> Bool {
        let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .filter { !$0.isWhitespace }.lowercased()
        guard let subtype = essence.split(separator: "/", maxSplits: 1).dropFirst().first else { return false }
        return subtype.contains("json")
    }
}
