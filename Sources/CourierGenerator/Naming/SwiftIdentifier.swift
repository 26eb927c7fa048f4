/// A Swift identifier derived from a name written in a spec.
///
/// Spec names follow the wire (`get-user`, `documentation_url`, `x-request-id`, `2fa`, `@type`);
/// Swift names follow the API Design Guidelines. Conversion splits the name into words at
/// punctuation and case changes, then joins them in camel case:
///
/// - `get-user`, `get_user` and `getUser` all become `getUser`;
/// - acronyms are uniformly upper-cased after the first word (`x-request-id` becomes `xRequestID`,
///   `documentation_url` becomes `documentationURL`, `user_ids` becomes `userIDs`) and uniformly
///   lower-cased as the first word of a member name (`url_path` becomes `urlPath`);
/// - a leading digit gets an underscore (`2fa` becomes `_2fa`);
/// - punctuation only separates words (`@type` becomes `type`).
///
/// Keywords stay valid identifiers: `default`, `class`, `self` and `Type` are accepted, and
/// ``escaped`` wraps them in backticks for use in generated source.
package struct SwiftIdentifier: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The identifier without backticks, for example `default` or `getUser`.
    package let name: String

    /// Creates an identifier from text that is already a Swift identifier.
    package init(verbatim name: String) {
        self.name = name
    }

    /// The lowerCamelCase identifier for a property, enum case, parameter or function named
    /// `specName` in a spec.
    package init(memberNamed specName: String) {
        self.name = NameWords.camelCased(specName, capitalizingFirst: false)
    }

    /// The UpperCamelCase identifier for a type named `specName` in a spec.
    package init(typeNamed specName: String) {
        self.name = NameWords.camelCased(specName, capitalizingFirst: true)
    }

    /// Whether the identifier must be written in backticks wherever it is declared or used.
    var needsEscaping: Bool { SwiftKeywords.needingBackticks.contains(name) }

    /// The identifier as it must be written in source: in backticks when it is a keyword.
    var escaped: String { needsEscaping ? "`\(name)`" : name }

    /// Whether the spec name had no letters or digits, so that `name` is only a placeholder (`_`).
    var isPlaceholder: Bool { name == "_" }

    /// The identifier without backticks.
    package var description: String { name }

    /// Orders by name.
    package static func < (lhs: SwiftIdentifier, rhs: SwiftIdentifier) -> Bool { lhs.name < rhs.name }
}
