/// Form and text bodies, several content types, and query parameter styles.
extension SpecValidator {
    /// Whether `type` names a model with fields (an object, an `allOf`, a union of objects) or is
    /// a string-keyed map: what a form body or a `deepObject` parameter can spell as named fields.
    func hasFields(_ type: TypeReference) -> Bool {
        switch type {
        case .map: return true
        case .named(let name):
            guard let model = modelsByName[name] else { return true }  // reported as unknown elsewhere
            return !model.isEnum
        default: return false
        }
    }

    /// A body is JSON, a model as a form, text as UTF-8, or bytes sent as they are; nothing else
    /// has an encoder, and JSON must never go out under another content type.
    mutating func checkBodyEncoding(_ body: RequestBodySpec, what: String) {
        if let style = body.formStyle, !(body.isForm && !body.isRaw) {
            _ = style
            error("the body of \(what) has 'form', which applies only to a model sent as "
                  + "'application/x-www-form-urlencoded'; its content type is '\(body.contentType)' and its type '\(body.type)'",
                  at: body.location)
        }
        if body.mediaCoding != nil, body.isMultipart || body.essence == "application/x-www-form-urlencoded" {
            // Either the media type or `coding` would decide how the body goes out; they disagree.
            error("the body of \(what) is a form ('\(body.contentType)'), which Courier encodes as form fields, so it has no 'coding'; "
                  + "write the media type alone", at: body.location)
            return
        }
        if body.isStreamed, body.isJSON || body.isForm || body.essence.hasPrefix("text/") {
            error("the body of \(what) is 'Binary', sent as it is; give it the content type of its bytes, such as "
                  + "'application/octet-stream' or 'image/png' (it is '\(body.contentType)')", at: body.location)
            return
        }
        if !body.files.isEmpty && !body.isMultipart {
            error("the body of \(what) has 'files', which a 'multipart/form-data' body sends; its content type is '\(body.contentType)'",
                  at: body.location)
            return
        }
        if body.isMultipart {
            if !body.isFilesOnly && (!hasFields(body.type.nonOptional) || body.type.isOptional) {
                error("the body of \(what) is a multipart form of type '\(body.type)'; its fields come from a model "
                      + "(leave out 'type' for a form of files only)", at: body.location)
            }
            return
        }
        guard body.contentType != RequestBodySpec.json else { return }
        guard RequestBodySpec.isMediaType(body.contentType) else {
            error("the body of \(what) has content type '\(body.contentType)', which is not a media type such as 'application/octet-stream'",
                  at: body.location)
            return
        }
        if body.isJSON || body.type.nonOptional == .primitive(.data) || body.isStreamed { return }
        if body.isForm {
            if !hasFields(body.type.nonOptional) {
                error("the body of \(what) is a form ('\(body.contentType)') of type '\(body.type)'; a form is named fields, "
                      + "so its type must be a model or a map (or Data, sent as it is)", at: body.location)
            }
            return
        }
        if body.essence.hasPrefix("text/") {
            if body.type.nonOptional != .primitive(.string) {
                error("the body of \(what) is text ('\(body.contentType)') of type '\(body.type)'; text bodies are String (or Data, sent as it is)",
                      at: body.location)
            } else if let charset = body.charset, charset != "utf-8", charset != "utf8" {
                error("the body of \(what) has charset '\(charset)'; text bodies are sent as UTF-8, so write 'charset=utf-8' or no charset",
                      at: body.location)
            }
            return
        }
        if MediaCoding.mentionsJSON(body.contentType) {
            error("the body of \(what) has content type '\(body.contentType)' and type '\(body.type)'; Courier does not take "
                  + "'\(body.contentType)' for JSON by its name: if it is JSON, write contentType: { type: \(body.contentType), coding: json } "
                  + "(or send 'Data', as it is)", at: body.location)
            return
        }
        error("the body of \(what) has content type '\(body.contentType)' and type '\(body.type)'; Courier encodes JSON "
              + "('\(RequestBodySpec.json)' or '…+json'), forms ('application/x-www-form-urlencoded', from a model) and text "
              + "('text/…', from String), so send other content types as 'Data' (type: Data)",
              at: body.location)
    }

    /// `contentTypes:`: each entry is a body of its own, and the generated enum needs one distinct
    /// case name per entry.
    mutating func checkVariants(of body: RequestBodySpec, what: String) {
        var seen: [String: BodyVariantSpec] = [:]
        for variant in body.variants {
            checkReference(variant.type, at: variant.location, usage: "a content type of the body of \(what)")
            if variant.type.isOptional {
                error("a content type of the body of \(what) has optional type '\(variant.type)'; the caller picks a case, so each case carries a value",
                      at: variant.location)
            }
            checkBodyEncoding(variant.asBody, what: what)
            if variant.asBody.isJSON && variant.contentType != RequestBodySpec.json {
                error("a content type of the body of \(what) is '\(variant.contentType)'; among several content types JSON is sent as "
                      + "'\(RequestBodySpec.json)' only", at: variant.location)
            }
            guard let name = variant.effectiveCaseName else {
                error("the body of \(what) accepts '\(variant.contentType)', for which Courier has no case name; name it with 'case:'",
                      at: variant.location)
                continue
            }
            let identifier = SwiftIdentifier(memberNamed: name)
            if let earlier = seen[identifier.name] {
                error("the body of \(what) has two content types with case name '\(identifier.name)' ('\(earlier.contentType)' and "
                      + "'\(variant.contentType)'); name one with 'case:'", at: variant.location)
            } else {
                seen[identifier.name] = variant
            }
        }
    }

    /// `style:` and `explode:` only where they mean something: on query parameters, `explode` and
    /// the delimited styles on arrays, `deepObject` on models, maps and lists (a list's items go
    /// out as `expand[]=a&expand[]=b`, which servers that take `deepObject` lists read).
    mutating func checkParameterStyle(_ parameter: ParameterSpec) {
        guard let style = parameter.style else { return }
        let what = "\(parameter.placement.rawValue) parameter '\(parameter.name)'"
        guard parameter.placement == .query else {
            error("\(what) has 'style' or 'explode'; only query parameters take them (a \(parameter.placement.rawValue) list is always "
                  + "comma-separated)", at: style.location)
            return
        }
        let type = parameter.type.nonOptional
        let isArray: Bool
        if case .array = type { isArray = true } else { isArray = false }
        switch style.style {
        case .deepObject?:
            if !hasFields(type) && !isArray {
                error("\(what) has style 'deepObject' but type '\(parameter.type)'; deepObject sends a model's fields "
                      + "(filter[status]=open) or a list's items (expand[]=a), so its type must be a model, a map or a list",
                      at: style.location)
            } else if style.explode == false {
                error("\(what) has style 'deepObject' with 'explode: false'; deepObject always sends one item per field", at: style.location)
            } else if parameter.defaultValue != nil {
                error("\(what) has style 'deepObject' and a 'default'; a model has no literal to default to, so make it optional instead",
                      at: parameter.location)
            }
        case .spaceDelimited?, .pipeDelimited?:
            if !isArray {
                error("\(what) has style '\(style.style?.rawValue ?? "")' but type '\(parameter.type)'; delimited styles join "
                      + "the elements of a list", at: style.location)
            } else if style.explode == true {
                error("\(what) has style '\(style.style?.rawValue ?? "")' with 'explode: true'; a delimited style joins the elements "
                      + "into one item, so it cannot also repeat the name", at: style.location)
            }
        case .form?, nil:
            if style.explode != nil && !isArray {
                error("\(what) has 'explode' but type '\(parameter.type)'; explode says how a list is sent, and a single value "
                      + "is always one item", at: style.location)
            }
        }
    }
}
