import Foundation

/// Several fields of one JSON body, read together in a single pass.
///
/// Generated failure mappings that look at more than one field (Stripe's `error.type` then
/// `error.code`, Slack's `ok` and `error`, conditions on body fields) read them all through one
/// ``RawResponse/fields(_:)`` call, so a large or hostile body is scanned once, not once per field.
/// Values read as ``RawResponse/discriminator(at:)`` reads one.
///
/// ```swift
/// let fields = response.fields("error.type", "error.code")
/// switch fields["error.type"] {
/// case "card_error": …
/// }
/// ```
@_spi(Generated) public struct ResponseFields: Sendable {
    private let values: [String: Value]
    /// The scanner's work for this read, for the tests that prove it linear.
    let work: Int

    private struct Value: Sendable {
        var text: String?
        var number: Double?
        var isPresent: Bool
    }

    init(paths: [String], body: Data) {
        var parsed: [(String, [FieldPath.Step])] = []
        for path in paths where !parsed.contains(where: { $0.0 == path }) {
            if let steps = FieldPath.parse(path) { parsed.append((path, steps)) }
        }
        let scanned = DiscriminatorScanner.scan(parsed.map(\.1), in: body)
        var values: [String: Value] = [:]
        for (index, (path, _)) in parsed.enumerated() {
            switch scanned.found[index] {
            case .absent:
                continue
            case .container:
                values[path] = Value(text: nil, number: nil, isPresent: true)
            case .scalar(let range):
                let scalar = DiscriminatorScanner.scalar(in: body, at: range)
                values[path] = Value(text: scalar?.text, number: scalar?.number, isPresent: scalar?.text != nil)
            }
        }
        self.values = values
        self.work = scanned.work
    }

    /// The scalar at `path` as text (numbers and booleans in their JSON spelling), or `nil` when
    /// it is missing, `null`, an object or an array, or was not among the paths read.
    public subscript(path: String) -> String? {
        values[path]?.text
    }

    /// The number at `path`, whether written `2`, `2.0` or `2e0`; `nil` for anything else.
    public func double(_ path: String) -> Double? {
        values[path]?.number
    }

    /// Whether `path` holds something other than `null`: a scalar, an object or an array.
    public func contains(_ path: String) -> Bool {
        values[path]?.isPresent ?? false
    }
}

extension RawResponse {
    /// Reads the fields at `paths` of a JSON body in one pass; see ``discriminator(at:)`` for
    /// the path syntax and ``ResponseFields`` for reading them.
    @_spi(Generated) public func fields(_ paths: String...) -> ResponseFields {
        ResponseFields(paths: paths, body: body)
    }
}
