/// Which media types the reader takes as JSON: `application/json` and `+json` types by their
/// names, AWS's `application/x-amz-json-<version>` as the JSON it is, and, with a warning, another
/// `application/…` type the document gives an object schema when no other reading fits.
extension OpenAPIReader {
    /// Whether a media type's essence names JSON the way RFC 6839 does: `application/json` or a
    /// structured `+json` type. The spec format reads these as JSON without `coding: json`.
    static func isJSONMediaType(_ essence: String) -> Bool {
        essence == RequestBodySpec.json || essence.hasSuffix("+json")
    }

    /// Whether a media type's essence is one of AWS's JSON protocols, `application/x-amz-json-1.0`
    /// or `-1.1`: JSON under a vendor name, which the spec writes with `coding: json`.
    static func isVendorJSONMediaType(_ essence: String) -> Bool {
        let prefix = "application/x-amz-json-"
        guard essence.hasPrefix(prefix) else { return false }
        let version = essence.dropFirst(prefix.count)
        return !version.isEmpty && version.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }

    /// Whether a media type is JSON by its name: ``isJSONMediaType(_:)`` or ``isVendorJSONMediaType(_:)``.
    static func isJSONNamed(_ essence: String) -> Bool {
        isJSONMediaType(essence) || isVendorJSONMediaType(essence)
    }

    /// Subtypes that name a structured format other than JSON, or a stream of JSON values rather
    /// than one: an object schema under one of these describes the data, not JSON bytes.
    private static let otherStructures = ["xml", "yaml", "yml", "proto", "cbor", "msgpack", "avro", "bson", "thrift",
                                          "ndjson", "jsonl", "json-seq", "octet-stream", "x-www-form-urlencoded"]

    /// Whether a media type that is not JSON by name may still be read as JSON when its schema
    /// is an object: an `application/…` type (no wildcard) whose subtype names no other structure.
    static func mayBeJSON(_ essence: String) -> Bool {
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "application", !essence.contains("*") else { return false }
        return !otherStructures.contains { parts[1].contains($0) }
    }

    /// Whether a media type's schema describes an object: `properties`, `type: object` or an
    /// `allOf`, after references. Binary content (`format: binary`) is bytes whatever it says.
    mutating func isObjectSchema(_ schema: OpenAPIDocument.Located?) -> Bool {
        guard let schema, !isBinary(schema), let (resolved, _) = document.resolve(schema, reach: .schema) else { return false }
        return document.child(resolved, "properties") != nil || document.string(resolved, "type") == "object"
            || document.child(resolved, "allOf") != nil
    }

    /// How a body under `essence` is coded: `nil` for `application/json` and `+json` types (or a
    /// body that is not JSON), `.json` for a vendor type read as JSON. A type read as JSON only
    /// because of its object schema is a warning, since the document never says it is JSON.
    mutating func vendorJSONCoding(_ essence: String, mediaType: String, schema: OpenAPIDocument.Located?, what: String,
                                   at located: OpenAPIDocument.Located) -> MediaCoding? {
        if Self.isJSONMediaType(essence) { return nil }
        if Self.isVendorJSONMediaType(essence) { return .json }
        guard Self.mayBeJSON(essence), isObjectSchema(schema) else { return nil }
        document.warning("\(what) is '\(mediaType)' with an object schema; Courier reads no other format into a model, so it takes "
                         + "the body as JSON under that media type (contentType: { type: \(mediaType), coding: json })", at: located)
        return .json
    }
}
