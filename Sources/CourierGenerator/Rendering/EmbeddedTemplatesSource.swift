/// Writes `EmbeddedTemplates.swift`, the Swift source that compiles `Templates/` into the generator.
///
/// The file is checked in rather than produced by a build plugin so that the generator builds
/// without plugins and the embedded text is reviewable. `TemplateEmbeddingTests` compares it with
/// `Templates/` and, with `COURIER_UPDATE_EMBEDDED_TEMPLATES=1`, rewrites it.
enum EmbeddedTemplatesSource {
    /// The environment variable that makes the embedding test rewrite the file.
    static let updateVariable = "COURIER_UPDATE_EMBEDDED_TEMPLATES"

    /// The complete source of `EmbeddedTemplates.swift` for `templates` (name to text).
    ///
    /// Deterministic: templates are sorted by name, and each text is embedded with
    /// ``SwiftLiteral/multiline(_:indentation:)``, which round-trips any content.
    static func swiftSource(for templates: [String: String]) -> String {
        var entries = ""
        for name in templates.keys.sorted() {
            let literal = SwiftLiteral.multiline(templates[name] ?? "", indentation: "            ")
            entries += "        \(SwiftLiteral.string(name)): \(literal),\n"
        }
        let dictionary = entries.isEmpty ? "[:]" : "[\n" + entries + "    ]"
        return """
            // Generated from Templates/*.mustache. Do not edit.
            // After changing a template, refresh this file with:
            //   \(updateVariable)=1 swift test --filter TemplateEmbeddingTests

            /// The default templates, compiled in so that the generator needs no resource bundle.
            enum EmbeddedTemplates {
                /// Template text by name (the file name without `.mustache`, `/` for subfolders).
                static let all: [String: String] = \(dictionary)
            }

            """
    }
}
