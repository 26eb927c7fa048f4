/// A problem with a template: it cannot be read, does not parse, or cannot be rendered safely.
///
/// The description reads like a compiler diagnostic (`path:line:column: error: message`), so that
/// a user who overrides a template is pointed at the file and line to fix.
package enum TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A template directory does not exist or cannot be listed.
    case unreadableDirectory(path: String, reason: String)
    /// A template file cannot be read, or is not UTF-8.
    case unreadableFile(path: String, reason: String)
    /// A template does not start with the text content-type pragma, which says that values are
    /// written as they are (mustache's default is HTML, where `"` becomes `&quot;`).
    case missingTextPragma(template: String, origin: String)
    /// A template is not valid mustache.
    case syntax(template: String, origin: String, line: Int, column: Int, message: String)
    /// A template includes a partial (`{{> name}}` or `{{< name}}`) that the set does not contain.
    case missingPartial(name: String, template: String, origin: String)
    /// Templates the generator needs are not in the set, for example in a `--templates`
    /// directory that replaces the defaults.
    case missingTemplates(names: [String])
    /// Rendering asked for a template that the set does not contain.
    case unknownTemplate(name: String)
    /// A template names a value that none of the models in scope at that place has, where
    /// mustache would print nothing. `models` are those models, innermost first.
    case unknownName(template: String, origin: String, line: Int, column: Int, name: String, models: [String], suggestion: String?)
    /// A template uses a value in a way its type does not allow: a list printed as text, a
    /// transform that does not apply, `last()` outside a list.
    case invalidUse(template: String, origin: String, line: Int, column: Int, message: String)

    /// The first line every template must have: `{{% CONTENT_TYPE: TEXT }}`.
    static let requiredPragma = "{{% CONTENT_TYPE: TEXT }}"

    /// A diagnostic that names the file (or template) and says how to fix the problem.
    package var description: String {
        switch self {
        case .unreadableDirectory(let path, let reason):
            "\(path): error: cannot read template directory: \(reason)"
        case .unreadableFile(let path, let reason):
            "\(path): error: cannot read template: \(reason)"
        case .missingTextPragma(let template, let origin):
            "\(origin):1:1: error: template '\(template)' must start with the line "
                + "'\(Self.requiredPragma)'; without it, values are HTML-escaped ('\"' becomes '&quot;')"
        case .syntax(let template, let origin, let line, let column, let message):
            "\(origin):\(line):\(column): error: template '\(template)' is not valid mustache: \(message)"
        case .missingPartial(let name, let template, let origin):
            "\(origin): error: template '\(template)' includes partial '\(name)', which is not in the template set"
        case .missingTemplates(let names):
            "error: the template set lacks required templates: \(names.joined(separator: ", "))"
        case .unknownTemplate(let name):
            "error: no template named '\(name)'"
        case .unknownName(let template, let origin, let line, let column, let name, let models, let suggestion):
            "\(origin):\(line):\(column): error: template '\(template)' reads '\(name)', which "
                + (models.isEmpty ? "nothing in scope has" : "\(models.joined(separator: ", ")) \(models.count == 1 ? "does" : "do") not have")
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .invalidUse(let template, let origin, let line, let column, let message):
            "\(origin):\(line):\(column): error: template '\(template)': \(message)"
        }
    }
}
