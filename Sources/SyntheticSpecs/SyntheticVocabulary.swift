/// The words synthetic specs are made of. Names are drawn from fixed lists, never from the
/// random generator, so that a name never depends on the seed and never collides.
enum SyntheticVocabulary {
    /// Resource nouns for object models: singular, plural. None ends in a digit, so a noun plus
    /// a numeric suffix is always unambiguous.
    static let resources: [(singular: String, plural: String)] = [
        ("Account", "Accounts"), ("Invoice", "Invoices"), ("Customer", "Customers"), ("Order", "Orders"),
        ("Product", "Products"), ("Shipment", "Shipments"), ("Warehouse", "Warehouses"), ("Payment", "Payments"),
        ("Refund", "Refunds"), ("Subscription", "Subscriptions"), ("Coupon", "Coupons"), ("Review", "Reviews"),
        ("Article", "Articles"), ("Comment", "Comments"), ("Project", "Projects"), ("Ticket", "Tickets"),
        ("Team", "Teams"), ("Member", "Members"), ("Webhook", "Webhooks"), ("Report", "Reports"),
        ("Address", "Addresses"), ("Vendor", "Vendors"), ("Contract", "Contracts"), ("Device", "Devices"),
        ("Session", "Sessions"), ("Booking", "Bookings"), ("Room", "Rooms"), ("Playlist", "Playlists"),
        ("Track", "Tracks"), ("Album", "Albums"), ("Course", "Courses"), ("Lesson", "Lessons"),
        ("Repository", "Repositories"), ("Branch", "Branches"), ("Deployment", "Deployments"), ("Incident", "Incidents"),
        ("Policy", "Policies"), ("Dataset", "Datasets"), ("Pipeline", "Pipelines"), ("Notebook", "Notebooks"),
    ]

    /// Nouns for string enum models. Disjoint from ``resources``.
    static let enumNames: [String] = [
        "Status", "Visibility", "Priority", "Tier", "Channel", "Region", "Currency", "Category",
        "Severity", "Stage", "Frequency", "Language", "Theme", "Role", "Plan", "Carrier",
    ]

    /// Raw values for enums, each with a distinct Swift case name, in the spellings servers use.
    static let enumValues: [String] = [
        "active", "archived", "pending_review", "in-progress", "draft", "published", "suspended", "deleted",
        "low", "medium", "high", "critical", "daily", "weekly", "monthly", "yearly",
        "eu-west", "us-east", "ap-south", "PRIVATE", "public", "internal", "standard", "other",
    ]

    /// Property names with the scalar type such a property usually has, in camel case so that
    /// `snake_case` coding gives realistic JSON keys. `type` is a Swift keyword in some
    /// positions; generated code must cope with it.
    static let properties: [(name: String, type: String)] = [
        ("name", "String"), ("title", "String"), ("createdAt", "Date"), ("updatedAt", "Date"),
        ("displayName", "String"), ("email", "String"), ("amount", "Double"), ("quantity", "Int"),
        ("currencyCode", "String"), ("notes", "String"), ("isActive", "Bool"), ("score", "Double"),
        ("ratio", "Double"), ("homepageUrl", "URL"), ("externalId", "String"), ("tags", "[String]"),
        ("metadata", "[String: String]"), ("type", "String"), ("slug", "String"), ("version", "Int"),
        ("ownerId", "Int64"), ("expiresAt", "Date"), ("sortOrder", "Int"), ("label", "String"),
        ("summary", "String"), ("locale", "String"), ("rank", "Int"), ("weight", "Double"),
        ("width", "Int"), ("height", "Int"), ("duration", "Double"), ("startsAt", "Date"),
        ("endsAt", "Date"), ("checksum", "Data"), ("timezone", "String"), ("phone", "String"),
        ("website", "URL"), ("iconUrl", "URL"), ("color", "String"), ("revision", "Int64"),
    ]

    /// One error mapping an endpoint can declare: its status key and its YAML body (a case name,
    /// or block lines indented relative to the status key).
    struct ErrorMapping {
        let status: String
        let lines: [String]
    }

    /// Realistic mappings, each with its own case names. A case name keeps the same body in every
    /// mapping and in the defaults, as validation requires.
    static let errorMappings: [ErrorMapping] = [
        ErrorMapping(status: "400", lines: ["case: badRequest", "body: Problem"]),
        ErrorMapping(status: "404", lines: ["case: notFound", "body: Problem", "message: The resource does not exist."]),
        ErrorMapping(status: "409", lines: ["case: conflict", "body: ServiceError", "message: The resource was changed by someone else."]),
        ErrorMapping(status: "422", lines: [
            "description: The request was understood but a field is invalid.",
            "body: ErrorList",
            "discriminator: \"errors[0].code\"",
            "cases:",
            "  missing_field: missingField",
            "  already_exists: { case: alreadyExists, message: Something with that name exists already. }",
            "otherwise: invalid",
        ]),
        ErrorMapping(status: "403", lines: [
            "body: Problem",
            "discriminator: { header: x-quota-remaining }",
            "cases:",
            "  \"0\": { case: quotaExhausted, message: The monthly quota is used up. }",
            "otherwise: forbidden",
        ]),
        ErrorMapping(status: "4XX", lines: ["case: clientError", "body: Problem", "description: Any other client error."]),
        ErrorMapping(status: "402", lines: [
            "body: ServiceError",
            "discriminator: error.code",
            "cases:",
            "  card_declined: cardDeclined",
            "  insufficient_funds: insufficientFunds",
            "otherwise: paymentRequired",
        ]),
        ErrorMapping(status: "410", lines: ["case: gone", "message: The resource was removed for good."]),
        ErrorMapping(status: "412", lines: ["case: preconditionFailed", "body: Problem"]),
        ErrorMapping(status: "413", lines: ["case: payloadTooLarge"]),
        ErrorMapping(status: "415", lines: ["case: unsupportedMediaType"]),
        ErrorMapping(status: "423", lines: ["case: locked", "body: ServiceError"]),
        ErrorMapping(status: "503", lines: ["case: unavailable", "body: Problem", "message: The service is down for maintenance."]),
        ErrorMapping(status: "408", lines: ["case: requestTimeout"]),
        ErrorMapping(status: "406", lines: ["case: notAcceptable"]),
        ErrorMapping(status: "451", lines: ["case: unavailableForLegalReasons", "body: Problem"]),
        ErrorMapping(status: "502", lines: ["case: badGateway"]),
        ErrorMapping(status: "504", lines: ["case: gatewayTimeout"]),
        ErrorMapping(status: "411", lines: ["case: lengthRequired"]),
        ErrorMapping(status: "414", lines: ["case: uriTooLong"]),
        ErrorMapping(status: "416", lines: ["case: rangeNotSatisfiable", "body: Problem"]),
        ErrorMapping(status: "424", lines: ["case: failedDependency", "body: ServiceError"]),
        ErrorMapping(status: "428", lines: ["case: preconditionRequired", "body: Problem"]),
        ErrorMapping(status: "431", lines: ["case: headersTooLarge"]),
        ErrorMapping(status: "501", lines: ["case: notImplemented", "body: Problem"]),
        ErrorMapping(status: "507", lines: ["case: insufficientStorage", "body: ServiceError"]),
    ]

    /// Whether `text` is an ASCII name of letters and digits starting with a letter.
    static func isPlainName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// `text` with its first letter lower-cased (`Invoice` gives `invoice`).
    static func lowerFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
