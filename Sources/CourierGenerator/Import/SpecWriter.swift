import Foundation

/// Writes a validated ``ServiceSpec`` as a Courier spec: the file `courier import` makes of an
/// OpenAPI document (or of an overlay over one), for a person to keep and edit.
///
/// Generating from the written spec gives the same client as generating from what was read; the
/// import's round-trip test holds it to that. What the writer cannot write yet (a `rateLimit`,
/// error conditions and nested discriminators, which only a spec or an overlay can hold, never
/// an OpenAPI document) is never dropped: it is a ``problems`` entry, and `courier import`
/// refuses to write a file that would say less.
struct SpecWriter {
    let spec: ServiceSpec
    private var yaml = YAMLText()
    /// What the spec holds that the format cannot express, in words; empty when the file is exact.
    private(set) var problems: [String] = []
    /// The YAML anchor of each block of response header fields that several endpoints declare
    /// alike (train-travel's `Cache-Control` and `RateLimit`, on five endpoints), by the block's
    /// ``headerKey(_:)``: written in full once with `&name`, then `*name`, so the spec says it once.
    private var headerAnchors: [String: String] = [:]
    /// The anchors already written in full.
    private var writtenAnchors: Set<String> = []

    init(spec: ServiceSpec) {
        self.spec = spec
    }

    /// The spec's text, with `header` as its opening comment and `modeline` (a comment line
    /// naming the schema editors check the file against) after it.
    mutating func write(header: String, modeline: String? = nil) -> String {
        yaml = YAMLText()
        problems = []
        yaml.comment(header)
        if let modeline { yaml.line(modeline) }
        yaml.blank()
        writeService()
        writeDefaults()
        writeErrorSchemas()
        writeModels()
        nameHeaderAnchors()
        writeEndpoints()
        return yaml.text
    }

    /// A block of response header fields as text to compare: two endpoints declaring the same
    /// fields, types and descriptions have the same key.
    private static func headerKey(_ headers: [ResponseHeaderSpec]) -> String {
        headers.map { "\($0.name)\u{1}\($0.type.description)\u{1}\($0.description ?? "")" }.joined(separator: "\u{0}")
    }

    /// Names an anchor for each block of response header fields that more than one endpoint
    /// declares: after its fields while they are few (`cacheControlRateLimitHeaders`), else
    /// `responseHeaders`, numbered when taken.
    private mutating func nameHeaderAnchors() {
        headerAnchors = [:]
        writtenAnchors = []
        var counts: [String: Int] = [:]
        var order: [(key: String, headers: [ResponseHeaderSpec])] = []
        for endpoint in spec.endpoints where endpoint.response.stream == nil && !endpoint.response.headers.isEmpty {
            let key = Self.headerKey(endpoint.response.headers)
            if counts[key] == nil { order.append((key, endpoint.response.headers)) }
            counts[key, default: 0] += 1
        }
        var taken: Set<String> = []
        for (key, headers) in order where counts[key, default: 0] > 1 {
            let words = headers.count <= 3 ? headers.map(\.name).joined(separator: " ") + " headers" : "response headers"
            var base = SwiftIdentifier(memberNamed: words).name
            // An anchor is letters and digits here, whatever the header names hold.
            base = String(base.filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
            if base.isEmpty { base = "responseHeaders" }
            var candidate = base
            var number = 2
            while !taken.insert(candidate).inserted {
                candidate = base + String(number)
                number += 1
            }
            headerAnchors[key] = candidate
        }
    }

    // MARK: The service

    private mutating func writeService() {
        yaml.field("service", spec.name, depth: 0)
        if let description = spec.description { yaml.field("description", description, depth: 0) }
        yaml.field("baseURL", spec.baseURL.absoluteString, depth: 0)
        if spec.access != .public { yaml.field("access", spec.access.rawValue, depth: 0) }
        if !spec.generatesFake { yaml.field("fake", raw: "false", depth: 0) }
        if spec.equality != .equatable { yaml.field("equality", spec.equality.rawValue, depth: 0) }
        if !spec.headers.isEmpty {
            yaml.open("headers", depth: 0)
            for header in spec.headers {
                expectDerived(header.swiftName, SwiftIdentifier(memberNamed: header.name), "header '\(header.name)'")
                if let value = header.value, !header.isSecret, header.description == nil {
                    yaml.field(header.name, value, depth: 1)
                } else {
                    yaml.open(header.name, depth: 1)
                    if let value = header.value { yaml.field("value", value, depth: 2) }
                    if header.isSecret { yaml.field("secret", raw: "true", depth: 2) }
                    if let description = header.description { yaml.field("description", description, depth: 2) }
                }
            }
        }
        if let schemes = spec.authSchemes {
            yaml.open("auth", depth: 0)
            yaml.open("schemes", depth: 1)
            for scheme in schemes.schemes {
                expectDerived(scheme.swiftName, SwiftIdentifier(memberNamed: scheme.name), "auth scheme '\(scheme.name)'")
                writeAuth(scheme.auth, key: scheme.name, depth: 2)
            }
            if schemes.defaultSchemes != schemes.schemes.map(\.name) {
                yaml.field("default", raw: YAMLText.list(schemes.defaultSchemes), depth: 1)
            }
        } else if let auth = spec.auth {
            writeAuth(auth, key: "auth", depth: 0)
        }
        // The format's default (`asIs`, `iso8601`, what every OpenAPI document reads as) goes unsaid.
        if spec.coding != CodingSpec() {
            yaml.field("coding", raw: "{ keys: \(spec.coding.keys.rawValue), dates: \(spec.coding.dates.rawValue) }", depth: 0)
        }
        if spec.rateLimit != nil {
            problems.append("the service's rateLimit fields")
        }
    }

    private mutating func writeAuth(_ auth: AuthSpec, key: String, depth: Int) {
        var fields: [(String, String)] = []
        switch auth.scheme {
        case .bearer:
            if let header = auth.headerName, header != "Authorization" { fields.append(("header", header)) }
            if auth.word != "Bearer" { fields.append(("word", auth.word)) }
        case .basic:
            break
        case .apiKey:
            let placement = auth.keyPlacement ?? (auth.queryName != nil ? .query : .header)
            fields.append(("in", placement.rawValue))
            fields.append(("name", (placement == .query ? auth.queryName : auth.headerName) ?? ""))
        }
        if let description = auth.description { fields.append(("description", description)) }
        if fields.isEmpty {
            yaml.field(key, auth.scheme.rawValue, depth: depth)
            return
        }
        yaml.open(key, depth: depth)
        yaml.field("scheme", auth.scheme.rawValue, depth: depth + 1)
        for (name, value) in fields { yaml.field(name, value, depth: depth + 1) }
    }

    private mutating func writeDefaults() {
        let hints = spec.defaultResilience
        guard !spec.defaultErrors.isEmpty || hints.timeout != nil || hints.retry != nil || hints.breaker != nil else { return }
        yaml.blank()
        yaml.open("defaults", depth: 0)
        if hints.idempotencyKey != nil { problems.append("an idempotency key under 'defaults'") }
        writeResilience(hints, depth: 1)
        if !spec.defaultErrors.isEmpty {
            yaml.open("errors", depth: 1)
            for mapping in spec.defaultErrors { writeErrorMapping(mapping, depth: 2) }
        }
    }

    // MARK: Error schemas and models

    private mutating func writeErrorSchemas() {
        guard !spec.errorSchemas.isEmpty else { return }
        yaml.blank()
        yaml.open("errorSchemas", depth: 0)
        for schema in spec.errorSchemas {
            expectDerived(schema.swiftName, SwiftIdentifier(typeNamed: schema.name), "error schema '\(schema.name)'")
            let shape: (String, String)? = switch schema.shape {
            case .object: nil
            case .wrapped(let key): ("wrappedIn", key)
            case .array(let key): ("arrayIn", key)
            }
            writeObject(name: schema.name, description: schema.description, properties: schema.properties, extra: shape, depth: 1)
        }
    }

    private mutating func writeModels() {
        guard !spec.models.isEmpty || !spec.externalTypes.isEmpty else { return }
        yaml.blank()
        yaml.open("models", depth: 0)
        for name in spec.externalTypes { yaml.field(name, "external", depth: 1) }
        let merged = Dictionary(spec.mergedModels.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for model in spec.models {
            expectDerived(model.swiftName, SwiftIdentifier(typeNamed: model.name), "model '\(model.name)'")
            if let group = merged[model.name] {
                // Why one model serves several places, where a person editing it would ask.
                yaml.comment("One model for \(group.locations.count) alike inline schemas: "
                             + group.locations.map(\.description).joined(separator: ", "), depth: 1)
            }
            switch model.kind {
            case .object(let properties):
                writeObject(name: model.name, description: model.description, properties: properties, extra: nil, depth: 1)
            case .stringEnum(let cases):
                writeEnum(model, cases: cases, rawType: nil)
            case .numberEnum(let rawType, let cases):
                writeEnum(model, cases: cases, rawType: rawType)
            case .union(let union):
                writeUnion(model, union)
            case .composition:
                // Validation flattens compositions into objects; none reaches a ServiceSpec.
                problems.append("model '\(model.name)', a composition that was not flattened")
            }
        }
    }

    /// An object: the shorthand (every key a property) when it reads back the same, else the
    /// long form with `properties:`.
    private mutating func writeObject(name: String, description: String?, properties: [PropertySpec], extra: (String, String)?,
                                      depth: Int) {
        let reserved: Set<String> = ["properties", "enum", "oneOf", "allOf", "description", "wrappedIn", "arrayIn"]
        let names = properties.map(propertyKey)
        let shorthand = description == nil && extra == nil && !names.contains(where: reserved.contains)
        if properties.isEmpty && shorthand {
            yaml.field(name, raw: "{}", depth: depth)
            return
        }
        yaml.open(name, depth: depth)
        var propertyDepth = depth + 1
        if !shorthand {
            if let description { yaml.field("description", description, depth: depth + 1) }
            if let (key, value) = extra { yaml.field(key, value, depth: depth + 1) }
            if properties.isEmpty {
                yaml.field("properties", raw: "{}", depth: depth + 1)
                return
            }
            yaml.open("properties", depth: depth + 1)
            propertyDepth = depth + 2
        }
        for property in properties { writeProperty(property, owner: name, depth: propertyDepth) }
    }

    /// The key a property is written under: its name, unless its Swift name is not the one the
    /// name gives (GitHub's `+1` is `plus1`), in which case the Swift name, with `json:`.
    private func propertyKey(_ property: PropertySpec) -> String {
        SwiftIdentifier(memberNamed: property.name) == property.swiftName ? property.name : property.swiftName.name
    }

    private mutating func writeProperty(_ property: PropertySpec, owner: String, depth: Int) {
        let key = propertyKey(property)
        expectDerived(property.swiftName, SwiftIdentifier(memberNamed: key), "property '\(property.name)' of '\(owner)'")
        var fields: [(String, String, quoted: Bool)] = []
        if property.jsonKey != key { fields.append(("json", property.jsonKey, true)) }
        if let description = property.description { fields.append(("description", description, true)) }
        if let dates = property.dates { fields.append(("dates", dates.rawValue, true)) }
        if property.isNullable { fields.append(("nullable", "true", false)) }
        if let value = property.defaultValue { fields.append(("default", literal(value), false)) }
        if property.isReadOnly { fields.append(("readOnly", "true", false)) }
        if fields.isEmpty {
            yaml.field(key, property.type.description, depth: depth)
            return
        }
        yaml.open(key, depth: depth)
        yaml.field("type", property.type.description, depth: depth + 1)
        for (name, value, quoted) in fields {
            if quoted { yaml.field(name, value, depth: depth + 1) } else { yaml.field(name, raw: value, depth: depth + 1) }
        }
    }

    private mutating func writeEnum(_ model: ModelSpec, cases: [EnumCaseSpec], rawType: PrimitiveType?) {
        yaml.open(model.name, depth: 1)
        if let description = model.description { yaml.field("description", description, depth: 2) }
        if let rawType { yaml.field("type", rawType.rawValue, depth: 2) }
        let plain = rawType == nil && cases.allSatisfy { $0.description == nil && $0.swiftName == SwiftIdentifier(memberNamed: $0.value) }
        if plain {
            yaml.field("enum", raw: YAMLText.list(cases.map(\.value)), depth: 2)
            return
        }
        yaml.open("enum", depth: 2)
        for item in cases {
            // A number is written unquoted, which is what makes the enum a number enum.
            var parts = ["value: " + (rawType == nil ? YAMLText.flowScalar(item.value) : item.value)]
            if rawType != nil || item.swiftName != SwiftIdentifier(memberNamed: item.value) {
                parts.append("case: " + YAMLText.flowScalar(caseName(item.swiftName, "value '\(item.value)' of '\(model.name)'")))
            }
            if let description = item.description { parts.append("description: " + YAMLText.flowScalar(description)) }
            yaml.line("- { " + parts.joined(separator: ", ") + " }", depth: 3)
        }
    }

    private mutating func writeUnion(_ model: ModelSpec, _ union: UnionSpec) {
        yaml.open(model.name, depth: 1)
        if let description = model.description { yaml.field("description", description, depth: 2) }
        yaml.open("oneOf", depth: 2)
        for variant in union.variants {
            let derived = UnionVariantSpec(type: variant.type, location: variant.location).swiftName
            var parts = ["type: " + YAMLText.flowScalar(variant.type.description)]
            if variant.swiftName != derived {
                parts.append("case: " + YAMLText.flowScalar(caseName(variant.swiftName, "a variant of '\(model.name)'")))
            }
            if let description = variant.description { parts.append("description: " + YAMLText.flowScalar(description)) }
            yaml.line("- { " + parts.joined(separator: ", ") + " }", depth: 3)
        }
        if let discriminator = union.discriminator {
            if discriminator.mapping.isEmpty {
                yaml.field("discriminator", discriminator.property, depth: 2)
            } else {
                yaml.open("discriminator", depth: 2)
                yaml.field("property", discriminator.property, depth: 3)
                yaml.open("mapping", depth: 3)
                for entry in discriminator.mapping {
                    // A plain integer key is what makes the values integers when no variant says.
                    let key = entry.isPlainInteger ? entry.value : YAMLText.key(entry.value)
                    yaml.line(key + ": " + YAMLText.scalar(entry.variant), depth: 4)
                }
            }
        }
    }

    // MARK: Endpoints

    private mutating func writeEndpoints() {
        guard !spec.endpoints.isEmpty else { return }
        yaml.blank()
        yaml.open("endpoints", depth: 0)
        for (index, endpoint) in spec.endpoints.enumerated() {
            if index > 0 { yaml.blank() }
            writeEndpoint(endpoint)
        }
    }

    private mutating func writeEndpoint(_ endpoint: EndpointSpec) {
        expectDerived(endpoint.swiftName, SwiftIdentifier(memberNamed: endpoint.name), "endpoint '\(endpoint.name)'")
        yaml.open(endpoint.name, depth: 1)
        if let description = endpoint.description { yaml.field("description", description, depth: 2) }
        if endpoint.path.template.contains("?") || endpoint.path.template.contains("#") {
            problems.append("the path '\(endpoint.path.template)' of '\(endpoint.name)', which holds a query or fragment")
        }
        yaml.field(endpoint.method.specKey, endpoint.path.template, depth: 2)
        if let auth = endpoint.auth {
            switch auth.choice {
            case .none: yaml.field("auth", "none", depth: 2)
            case .anyOf(let names) where names.count == 1: yaml.field("auth", names[0], depth: 2)
            case .anyOf(let names): yaml.field("auth", raw: YAMLText.list(names), depth: 2)
            }
        }
        for (placement, key) in [(ParameterSpec.Placement.path, "path"), (.query, "query"), (.header, "headers")] {
            let parameters = endpoint.parameters.filter { $0.placement == placement }
            guard !parameters.isEmpty else { continue }
            yaml.open(key, depth: 2)
            for parameter in parameters { writeParameter(parameter, endpoint: endpoint.name) }
        }
        if let body = endpoint.body { writeBody(body, endpoint: endpoint.name) }
        writeResponse(endpoint.response, endpoint: endpoint.name)
        if !endpoint.errors.isEmpty {
            yaml.open("errors", depth: 2)
            for mapping in endpoint.errors { writeErrorMapping(mapping, depth: 3) }
        }
        if let key = endpoint.resilience.idempotencyKey {
            if key.headerName == IdempotencyKeySpec().headerName {
                yaml.field("idempotencyKey", raw: "true", depth: 2)
            } else {
                yaml.field("idempotencyKey", raw: "{ header: \(YAMLText.flowScalar(key.headerName)) }", depth: 2)
            }
        }
        writeResilience(endpoint.resilience.differing(from: spec.defaultResilience), depth: 2)
        if let pagination = endpoint.pagination { writePagination(pagination) }
    }

    private mutating func writeParameter(_ parameter: ParameterSpec, endpoint: String) {
        expectDerived(parameter.swiftName, SwiftIdentifier(memberNamed: parameter.name),
                      "\(parameter.placement.rawValue) parameter '\(parameter.name)' of '\(endpoint)'")
        var fields: [(String, String)] = []
        if let value = parameter.defaultValue { fields.append(("default", literal(value))) }
        if parameter.isSecret { fields.append(("secret", "true")) }
        if let style = parameter.style {
            if let name = style.style { fields.append(("style", name.rawValue)) }
            if let explode = style.explode { fields.append(("explode", explode ? "true" : "false")) }
        }
        if let description = parameter.description { fields.append(("description", YAMLText.scalar(description))) }
        if fields.isEmpty {
            yaml.field(parameter.name, parameter.type.description, depth: 3)
            return
        }
        yaml.open(parameter.name, depth: 3)
        yaml.field("type", parameter.type.description, depth: 4)
        for (name, value) in fields { yaml.field(name, raw: value, depth: 4) }
    }

    private mutating func writeBody(_ body: RequestBodySpec, endpoint: String) {
        if !body.variants.isEmpty {
            yaml.open("body", depth: 2)
            if let description = body.description { yaml.field("description", description, depth: 3) }
            yaml.open("contentTypes", depth: 3)
            for variant in body.variants {
                var parts = ["type: " + YAMLText.flowScalar(variant.type.description)]
                if variant.contentType != RequestBodySpec.json {
                    parts.append("contentType: " + contentTypeValue(variant.contentType, coding: variant.mediaCoding, inFlow: true))
                }
                if let style = variant.formStyle { parts.append("form: " + formStyle(style)) }
                if let name = variant.caseName { parts.append("case: " + YAMLText.flowScalar(name)) }
                yaml.line("- { " + parts.joined(separator: ", ") + " }", depth: 4)
            }
            return
        }
        let plain = body.contentType == RequestBodySpec.json && body.description == nil && body.formStyle == nil && body.files.isEmpty
        if plain {
            yaml.field("body", body.type.description, depth: 2)
            return
        }
        yaml.open("body", depth: 2)
        if !body.isFilesOnly { yaml.field("type", body.type.description, depth: 3) }
        if body.contentType != RequestBodySpec.json {
            yaml.field("contentType", raw: contentTypeValue(body.contentType, coding: body.mediaCoding, inFlow: false), depth: 3)
        }
        if let style = body.formStyle { yaml.field("form", raw: formStyle(style), depth: 3) }
        if let description = body.description { yaml.field("description", description, depth: 3) }
        if !body.files.isEmpty {
            yaml.open("files", depth: 3)
            for file in body.files {
                expectDerived(file.swiftName, SwiftIdentifier(memberNamed: file.name), "file '\(file.name)' of '\(endpoint)'")
                var fields: [(String, String)] = []
                if file.isOptional { fields.append(("optional", "true")) }
                if let description = file.description { fields.append(("description", YAMLText.scalar(description))) }
                if let contentType = file.contentType { fields.append(("contentType", YAMLText.scalar(contentType))) }
                if fields.isEmpty && file.headers.isEmpty {
                    yaml.field(file.name, raw: "{}", depth: 4)
                    continue
                }
                yaml.open(file.name, depth: 4)
                for (name, value) in fields { yaml.field(name, raw: value, depth: 5) }
                if !file.headers.isEmpty {
                    yaml.open("headers", depth: 5)
                    for header in file.headers {
                        if let description = header.description {
                            yaml.open(header.name, depth: 6)
                            yaml.field("type", header.type.description, depth: 7)
                            yaml.field("description", description, depth: 7)
                        } else {
                            yaml.field(header.name, header.type.description, depth: 6)
                        }
                    }
                }
            }
        }
    }

    /// A `contentType:` value as YAML: the media type, or `{ type: …, coding: json }` when the spec
    /// says how a body under it is coded, which the media type alone would not tell the reader.
    private func contentTypeValue(_ contentType: String, coding: MediaCoding?, inFlow: Bool) -> String {
        guard let coding else { return inFlow ? YAMLText.flowScalar(contentType) : YAMLText.scalar(contentType) }
        return "{ type: \(YAMLText.flowScalar(contentType)), coding: \(coding.rawValue) }"
    }

    private func formStyle(_ style: FormStyleSpec) -> String {
        "{ objects: \(style.objects.rawValue), arrays: \(style.arrays.rawValue) }"
    }

    private mutating func writeResponse(_ response: ResponseSpec, endpoint: String) {
        if !response.outcomes.isEmpty {
            yaml.open("response", depth: 2)
            for outcome in response.outcomes {
                let simple = outcome.contentType == nil && outcome.description == nil && !outcome.hasExplicitCase
                if simple, let body = outcome.body {
                    yaml.status(String(outcome.status), YAMLText.scalar(body.description), depth: 3)
                    continue
                }
                var parts: [String] = []
                if let body = outcome.body { parts.append("body: " + YAMLText.flowScalar(body.description)) }
                if let contentType = outcome.contentType {
                    parts.append("contentType: " + contentTypeValue(contentType, coding: outcome.mediaCoding, inFlow: true))
                }
                if outcome.hasExplicitCase {
                    parts.append("case: " + YAMLText.flowScalar(caseName(outcome.caseName, "status \(outcome.status) of '\(endpoint)'")))
                }
                if let description = outcome.description { parts.append("description: " + YAMLText.flowScalar(description)) }
                yaml.status(String(outcome.status), "{ " + parts.joined(separator: ", ") + " }", depth: 3)
            }
            writeResponseHeaders(response.headers, endpoint: endpoint)
            return
        }
        // Values are YAML as written, so that a content type may be a `{ type:, coding: }` mapping.
        var fields: [(String, String)] = []
        switch response.stream {
        case .bytes(let contentType)?:
            fields = [("body", "Binary"), ("contentType", YAMLText.scalar(contentType))]
        case .events(let type)?:
            fields = [("events", YAMLText.scalar(type.description))]
        case .lines(let type, let contentType)?:
            fields = [("lines", YAMLText.scalar(type.description)), ("contentType", YAMLText.scalar(contentType))]
        case .parts(let type, let contentType)?:
            fields = (type.map { [("body", YAMLText.scalar($0.description))] } ?? []) + [("contentType", YAMLText.scalar(contentType))]
        case nil:
            if let body = response.body { fields.append(("body", YAMLText.scalar(body.description))) }
            if let contentType = response.contentType {
                fields.append(("contentType", contentTypeValue(contentType, coding: response.mediaCoding, inFlow: false)))
            }
        }
        let defaultStatus = response.body == nil && response.stream == nil ? 204 : 200
        if response.status != defaultStatus { fields.insert(("status", String(response.status)), at: 0) }
        if let description = response.description { fields.append(("description", YAMLText.scalar(description))) }
        if fields.isEmpty && response.headers.isEmpty { return }
        if fields.count == 1, fields[0].0 == "body", response.headers.isEmpty {
            yaml.field("response", raw: fields[0].1, depth: 2)
            return
        }
        yaml.open("response", depth: 2)
        for (name, value) in fields { yaml.field(name, raw: value, depth: 3) }
        writeResponseHeaders(response.headers, endpoint: endpoint)
    }

    private mutating func writeResponseHeaders(_ headers: [ResponseHeaderSpec], endpoint: String) {
        guard !headers.isEmpty else { return }
        if let anchor = headerAnchors[Self.headerKey(headers)] {
            for header in headers {
                expectDerived(header.swiftName, ResponseHeaderSpec(name: header.name, type: header.type, location: header.location).swiftName,
                              "response header '\(header.name)' of '\(endpoint)'")
            }
            if writtenAnchors.contains(anchor) {
                yaml.field("headers", raw: "*" + anchor, depth: 3)
                return
            }
            writtenAnchors.insert(anchor)
            yaml.field("headers", raw: "&" + anchor, depth: 3)
        } else {
            yaml.open("headers", depth: 3)
        }
        for header in headers {
            expectDerived(header.swiftName, ResponseHeaderSpec(name: header.name, type: header.type, location: header.location).swiftName,
                          "response header '\(header.name)' of '\(endpoint)'")
            if let description = header.description {
                yaml.open(header.name, depth: 4)
                yaml.field("type", header.type.description, depth: 5)
                yaml.field("description", description, depth: 5)
            } else {
                yaml.field(header.name, header.type.description, depth: 4)
            }
        }
    }

    // MARK: Errors

    private mutating func writeErrorMapping(_ mapping: ErrorMappingSpec, depth: Int) {
        // `404`, `4XX` and `default` read back as the same status keys unquoted.
        let key = mapping.status.description
        if !mapping.conditions.isEmpty || mapping.when != nil {
            problems.append("the conditions of the error mapping for \(key)")
        }
        switch mapping.outcome {
        case .single(let errorCase):
            if mapping.bodySchema == nil, errorCase.description == nil, !hasMeaning(errorCase) {
                yaml.status(key, YAMLText.scalar(errorCase.name), depth: depth)
                return
            }
            yaml.status(key, nil, depth: depth)
            yaml.field("case", errorCase.name, depth: depth + 1)
            if let body = mapping.bodySchema { yaml.field("body", body, depth: depth + 1) }
            writeMeaning(errorCase, depth: depth + 1)
            if let description = errorCase.description { yaml.field("description", description, depth: depth + 1) }
        case .discriminated(let discriminator):
            yaml.status(key, nil, depth: depth)
            if let body = mapping.bodySchema { yaml.field("body", body, depth: depth + 1) }
            if let description = discriminator.fallback.description { yaml.field("description", description, depth: depth + 1) }
            switch discriminator.source {
            case .bodyField(let path): yaml.field("discriminator", path.description, depth: depth + 1)
            case .header(let name): yaml.field("discriminator", raw: "{ header: \(YAMLText.flowScalar(name)) }", depth: depth + 1)
            }
            yaml.open("cases", depth: depth + 1)
            for entry in discriminator.cases {
                if entry.nested != nil {
                    problems.append("the nested discriminator of the error mapping for \(key)")
                    continue
                }
                let errorCase = entry.errorCase
                if errorCase.description == nil, !hasMeaning(errorCase) {
                    yaml.field(entry.value, errorCase.name, depth: depth + 2)
                } else {
                    yaml.open(entry.value, depth: depth + 2)
                    yaml.field("case", errorCase.name, depth: depth + 3)
                    writeMeaning(errorCase, depth: depth + 3)
                    if let description = errorCase.description { yaml.field("description", description, depth: depth + 3) }
                }
            }
            let fallback = discriminator.fallback
            if hasMeaning(fallback) {
                yaml.open("otherwise", depth: depth + 1)
                yaml.field("case", fallback.name, depth: depth + 2)
                writeMeaning(fallback, depth: depth + 2)
            } else {
                yaml.field("otherwise", fallback.name, depth: depth + 1)
            }
        }
    }

    private func hasMeaning(_ errorCase: ErrorCaseSpec) -> Bool {
        errorCase.message != nil || errorCase.messageField != nil || errorCase.messageKey != nil || errorCase.retryable != nil
    }

    private mutating func writeMeaning(_ errorCase: ErrorCaseSpec, depth: Int) {
        if errorCase.messageField != nil || errorCase.messageKey != nil {
            yaml.open("message", depth: depth)
            if let field = errorCase.messageField { yaml.field("field", field.description, depth: depth + 1) }
            if let fallback = errorCase.message { yaml.field("fallback", fallback, depth: depth + 1) }
            if let key = errorCase.messageKey { yaml.field("key", key, depth: depth + 1) }
        } else if let message = errorCase.message {
            yaml.field("message", message, depth: depth)
        }
        if let retryable = errorCase.retryable { yaml.field("retryable", raw: retryable ? "true" : "false", depth: depth) }
    }

    // MARK: Hints and pages

    private mutating func writeResilience(_ hints: ResilienceHints, depth: Int) {
        if let timeout = hints.timeout { yaml.field("timeout", raw: number(timeout), depth: depth) }
        switch hints.retry {
        case .disabled?: yaml.field("retry", raw: "false", depth: depth)
        case .custom(let retry)?:
            var parts: [String] = []
            if let value = retry.maxAttempts { parts.append("maxAttempts: \(value)") }
            if let value = retry.baseDelay { parts.append("baseDelay: \(number(value))") }
            if let value = retry.maxDelay { parts.append("maxDelay: \(number(value))") }
            if retry.retriesNonIdempotent { parts.append("nonIdempotent: true") }
            yaml.field("retry", raw: "{ " + parts.joined(separator: ", ") + " }", depth: depth)
        case nil: break
        }
        switch hints.breaker {
        case .disabled?: yaml.field("breaker", raw: "false", depth: depth)
        case .custom(let breaker)?:
            var parts: [String] = []
            if let value = breaker.failureThreshold { parts.append("failureThreshold: \(value)") }
            if let value = breaker.failureRate { parts.append("failureRate: \(number(value))") }
            if let value = breaker.minimumCalls { parts.append("minimumCalls: \(value)") }
            if let value = breaker.window { parts.append("window: \(number(value))") }
            if let value = breaker.resetAfter { parts.append("resetAfter: \(number(value))") }
            if let value = breaker.successesToClose { parts.append("successesToClose: \(value)") }
            yaml.field("breaker", raw: "{ " + parts.joined(separator: ", ") + " }", depth: depth)
        case nil: break
        }
    }

    private mutating func writePagination(_ pagination: PaginationSpec) {
        func total(_ source: PaginationSpec.TotalSource?) -> String {
            switch source {
            case .field(let path)?: ", total: " + YAMLText.flowScalar(path.description)
            case .header(let name)?: ", total: { header: \(YAMLText.flowScalar(name)) }"
            case nil: ""
            }
        }
        let style: String
        switch pagination.style {
        case .link:
            if pagination.items.isEmpty {
                yaml.field("paginate", "link", depth: 2)
                return
            }
            problems.append("link pagination with 'items'")
            return
        case .cursor(let parameter, let source, let hasMore):
            let from = switch source {
            case .field(let path): path.description
            case .lastItem(let member): "lastItem." + member
            }
            style = "cursor: { param: \(YAMLText.flowScalar(parameter)), from: \(YAMLText.flowScalar(from))"
                + (hasMore.map { ", hasMore: " + YAMLText.flowScalar($0.description) } ?? "") + " }"
        case .page(let parameter, let source):
            style = "page: { param: \(YAMLText.flowScalar(parameter))\(total(source)) }"
        case .offset(let parameter, let source):
            style = "offset: { param: \(YAMLText.flowScalar(parameter))\(total(source)) }"
        }
        yaml.open("paginate", depth: 2)
        yaml.line(style, depth: 3)
        if !pagination.items.isEmpty { yaml.field("items", pagination.items.joined(separator: "."), depth: 3) }
    }

    // MARK: Scalars

    private func literal(_ value: LiteralValue) -> String {
        switch value {
        case .string(let text): YAMLText.scalar(text)
        case .integer(let number): String(number)
        case .number(let number): self.number(number)
        case .boolean(let flag): flag ? "true" : "false"
        }
    }

    /// A number as the spec writes it: `30`, not `30.0`.
    private func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A `case:` name, noting one that would not read back as the same Swift name.
    private mutating func caseName(_ identifier: SwiftIdentifier, _ what: String) -> String {
        expectDerived(identifier, SwiftIdentifier(memberNamed: identifier.name), what)
        return identifier.name
    }

    /// Notes a name the format cannot give: one whose Swift name is not the one it derives.
    private mutating func expectDerived(_ actual: SwiftIdentifier, _ derived: SwiftIdentifier, _ what: String) {
        if actual != derived {
            problems.append("\(what): its Swift name '\(actual.name)' is not the one the format derives ('\(derived.name)')")
        }
    }
}

extension ResilienceHints {
    /// The hints less those `defaults` already gives: validation merged the defaults into each
    /// endpoint (``merged(withDefaults:)``, a hint at a time), so a hint equal to the default's
    /// reads back the same when left out, and an imported spec says it once.
    func differing(from defaults: ResilienceHints) -> ResilienceHints {
        var result = self
        if timeout == defaults.timeout { result.timeout = nil }
        if retry == defaults.retry { result.retry = nil }
        if breaker == defaults.breaker { result.breaker = nil }
        return result
    }
}
