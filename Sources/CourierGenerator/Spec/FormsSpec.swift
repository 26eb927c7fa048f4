import Foundation

/// How a form body spells nested objects and arrays (`form:` under `body:`).
struct FormStyleSpec: Hashable, Sendable {
    /// `objects:`: `metadata[order_id]` or `metadata.order_id`.
    enum Objects: String, CaseIterable, Hashable, Sendable {
        /// `metadata[order_id]`, the default.
        case brackets
        /// `metadata.order_id`.
        case dots
    }

    /// `arrays:`: how scalar elements are named; elements that are objects are always indexed.
    enum Arrays: String, CaseIterable, Hashable, Sendable {
        /// `expand[]=a`, the default.
        case brackets
        /// `expand[0]=a`.
        case indexed
        /// `expand=a&expand=b`.
        case repeated
        /// `expand=a,b`.
        case comma
    }

    /// How nested objects are named.
    var objects: Objects
    /// How array elements are named.
    var arrays: Arrays

    /// Creates a style; the defaults are Stripe's bracket style.
    init(objects: Objects = .brackets, arrays: Arrays = .brackets) {
        self.objects = objects
        self.arrays = arrays
    }
}

/// One of the content types an endpoint accepts (`contentTypes:` under `body:`); the caller
/// picks one through a generated enum.
struct BodyVariantSpec: Hashable, Sendable, SourceLocated {
    /// The value's type.
    var type: TypeReference
    /// The media type sent as `Content-Type`.
    var contentType: String
    /// How the body is coded when the spec says so (`coding:`); `nil` to go by the media type.
    var mediaCoding: MediaCoding?
    /// How a form variant spells nested values.
    var formStyle: FormStyleSpec?
    /// The enum case name as written (`case:`), if any.
    var caseName: String?
    /// Where the variant is written.
    var location: SourceLocation

    /// Creates a variant.
    init(type: TypeReference, contentType: String = RequestBodySpec.json, formStyle: FormStyleSpec? = nil,
                caseName: String? = nil, location: SourceLocation) {
        self.type = type
        self.contentType = contentType
        self.formStyle = formStyle
        self.caseName = caseName
        self.location = location
    }

    /// The variant as a single body, so that one set of rules checks and encodes both.
    var asBody: RequestBodySpec {
        var body = RequestBodySpec(type: type, contentType: contentType, formStyle: formStyle, location: location)
        body.mediaCoding = mediaCoding
        return body
    }

    /// The case name: the one written, else one derived from a known content type (`json`,
    /// `form`, `text`, `csv`…), else `nil` (the validator asks for `case:`).
    var effectiveCaseName: String? {
        if let caseName { return caseName }
        let body = asBody
        if body.isJSON && body.essence == RequestBodySpec.json { return "json" }
        if body.isForm { return "form" }
        let essence = body.essence
        if essence.hasPrefix("text/") {
            let subtype = String(essence.dropFirst("text/".count))
            return subtype == "plain" ? "text" : SwiftIdentifier(memberNamed: subtype).name
        }
        if essence == "application/octet-stream" { return "binary" }
        return nil
    }
}

/// How a query parameter is written (`style:` and `explode:`), by OpenAPI's names.
struct ParameterStyleSpec: Hashable, Sendable, SourceLocated {
    /// `style:`.
    enum Style: String, CaseIterable, Hashable, Sendable {
        /// `ids=1&ids=2`, or `ids=1,2` with `explode: false`; the default.
        case form
        /// `tags=a%20b`.
        case spaceDelimited
        /// `tags=a|b`.
        case pipeDelimited
        /// `filter[status]=open`, for a model.
        case deepObject
    }

    /// The style written, if any.
    var style: Style?
    /// `explode:` as written, if any.
    var explode: Bool?
    /// Where `style:` or `explode:` is written.
    var location: SourceLocation

    /// Creates a style.
    init(style: Style?, explode: Bool?, location: SourceLocation) {
        self.style = style
        self.explode = explode
        self.location = location
    }

    /// Whether an array is sent as one item whose elements are joined: `explode: false`,
    /// `spaceDelimited` or `pipeDelimited`.
    var joinsElements: Bool {
        switch style {
        case .spaceDelimited?, .pipeDelimited?: true
        case .deepObject?: false
        case .form?, nil: explode == false
        }
    }
}

extension RequestBodySpec {
    /// The media type without parameters, lowercased.
    var essence: String {
        contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .filter { !$0.isWhitespace }.lowercased()
    }

    /// Whether the content type is `application/x-www-form-urlencoded`.
    var isForm: Bool { essence == "application/x-www-form-urlencoded" }

    /// Whether the body is a model sent as form fields (not `Data` sent as it is).
    var isFormFields: Bool { isForm && !isRaw && variants.isEmpty }

    /// Whether the body is a `String` sent as UTF-8 text under a `text/…` content type (not JSON
    /// under a text type, which `coding: json` makes it).
    var isText: Bool {
        !isJSON && essence.hasPrefix("text/") && type.nonOptional == .primitive(.string) && variants.isEmpty
    }

    /// The charset the content type names, lowercased, if it names one.
    var charset: String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
            }
        }
        return nil
    }
}
