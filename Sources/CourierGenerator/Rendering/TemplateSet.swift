import Foundation

/// The mustache templates the generator renders with, by name.
///
/// A template's name is its file name without `.mustache`, with `/` for subfolders
/// (`models/struct`); partials refer to other templates by that name (`{{> header}}`).
///
/// The defaults are compiled into the generator (``builtIn``), so it needs no resource bundle
/// and works wherever its binary is copied. Users replace the whole set with a directory
/// (``init(contentsOf:)``, for `--templates DIR`) or single templates by name
/// (``register(contentsOf:named:)`` on a copy of ``builtIn``).
///
/// Every template must start with the line `{{% CONTENT_TYPE: TEXT }}`. Courier's engine
/// (``TemplateCompiler``) writes values as they are; the line says so, and keeps a template
/// meaning the same to any other mustache engine, whose default is to HTML-escape values.
/// ``TemplateRenderer`` rejects a template without it with ``TemplateError/missingTextPragma(template:origin:)``
/// naming the file, rather than adding it silently: adding a line would shift the line numbers in
/// the user's own parse errors, and an explicit first line keeps the template self-explanatory.
package struct TemplateSet: Sendable, Equatable {
    /// One template's text and where it came from.
    package struct Template: Sendable, Equatable {
        /// The mustache source.
        package var text: String
        /// Where the text came from (a file path), used in diagnostics.
        package var origin: String

        /// A template with the given text and origin.
        init(text: String, origin: String) {
            self.text = text
            self.origin = origin
        }
    }

    /// The file extension of template files.
    package static let fileExtension = "mustache"

    /// The templates by name.
    package private(set) var templates: [String: Template]

    /// An empty set.
    package init() {
        self.templates = [:]
    }

    /// A set of the given templates.
    package init(templates: [String: Template]) {
        self.templates = templates
    }

    /// The default templates, compiled into the generator from the package's `Templates/` folder.
    package static var builtIn: TemplateSet {
        var set = TemplateSet()
        for (name, text) in EmbeddedTemplates.all {
            set.register(text, named: name, origin: "Templates/\(name).\(fileExtension)")
        }
        return set
    }

    /// The templates in `directory` and its subfolders (every `*.mustache` file).
    ///
    /// - Throws: ``TemplateError/unreadableDirectory(path:reason:)`` when the directory cannot be
    ///   listed, ``TemplateError/unreadableFile(path:reason:)`` when a template cannot be read.
    package init(contentsOf directory: URL) throws(TemplateError) {
        self.init()
        let fileManager = FileManager()
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unreadableDirectory(path: directory.path, reason: "no such directory")
        }
        let relativePaths: [String]
        do {
            relativePaths = try fileManager.subpathsOfDirectory(atPath: directory.path)
        } catch {
            throw .unreadableDirectory(path: directory.path, reason: error.localizedDescription)
        }
        let suffix = "." + Self.fileExtension
        for relativePath in relativePaths.sorted() where relativePath.hasSuffix(suffix) {
            let file = directory.appendingPathComponent(relativePath)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            try register(contentsOf: file, named: String(relativePath.dropLast(suffix.count)))
        }
    }

    /// The names of all templates, sorted.
    package var names: [String] {
        templates.keys.sorted()
    }

    /// The text of the template called `name`, if the set has one.
    package func text(named name: String) -> String? {
        templates[name]?.text
    }

    /// Adds `text` as the template `name`, replacing any template of that name.
    package mutating func register(_ text: String, named name: String, origin: String) {
        templates[name] = Template(text: text, origin: origin)
    }

    /// Adds the template in `file`, replacing any template of the same name.
    ///
    /// - Parameter name: The template's name; by default the file name without `.mustache`.
    /// - Throws: ``TemplateError/unreadableFile(path:reason:)`` when the file cannot be read or is
    ///   not UTF-8.
    package mutating func register(contentsOf file: URL, named name: String? = nil) throws(TemplateError) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadableFile(path: file.path, reason: error.localizedDescription)
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw .unreadableFile(path: file.path, reason: "not valid UTF-8")
        }
        // Editors on some platforms write a byte order mark; it would otherwise be rendered
        // into every generated file and hide the pragma on the first line.
        if text.unicodeScalars.first == "\u{FEFF}" {
            text.unicodeScalars.removeFirst()
        }
        let templateName = name ?? file.deletingPathExtension().lastPathComponent
        register(text, named: templateName, origin: file.path)
    }

    /// This set with the templates of `overrides` replacing those of the same name.
    func merging(_ overrides: TemplateSet) -> TemplateSet {
        TemplateSet(templates: templates.merging(overrides.templates) { _, override in override })
    }

    /// Whether `text` starts with the text content-type pragma on a line of its own.
    ///
    /// Spaces and tabs are allowed where mustache allows them (`{{%CONTENT_TYPE:TEXT}}`).
    static func startsWithTextPragma(_ text: String) -> Bool {
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" }
        let compact = firstLine.filter { $0 != " " && $0 != "\t" && $0 != "\r" }
        return compact == "{{%CONTENT_TYPE:TEXT}}"
    }
}
