@testable import CourierGenerator
import Foundation
import Testing

/// Courier overlays over OpenAPI documents: what they add, and every name they use checked
/// against the document at the overlay's own `file:line:column`. The whole-file output of an
/// overlay is pinned by the `OpenAPIOverlay` reference.
@Suite struct OverlayTests {
    static let document = """
        openapi: 3.0.3
        info: { title: Tiny }
        servers: [{ url: https://tiny.example.com }]
        paths:
          /items:
            get:
              operationId: list-items
              tags: [items]
              responses:
                "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/item" } } } } }
                "404": { $ref: "#/components/responses/problem" }
            post:
              operationId: create-item
              tags: [items]
              responses:
                "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/item" } } } }
                "404": { $ref: "#/components/responses/problem" }
          /admin:
            delete:
              tags: [admin]
              responses: { "204": { description: ok } }
        components:
          responses:
            problem:
              description: A problem.
              content: { application/json: { schema: { $ref: "#/components/schemas/problem" } } }
          schemas:
            item: { type: object, required: [id], properties: { id: { type: string } } }
            problem:
              type: object
              properties:
                kind: { type: string, enum: [missing, gone] }
                detail: { type: string }
        """

    /// Loads `overlay` beside ``document``, as validation and generation both do.
    func load(_ overlay: String, document: String = OverlayTests.document) throws -> SpecLoadResult {
        let folder = try TemporaryFolder()
        try folder.write(document, to: "api/openapi.yaml")
        let url = URL(fileURLWithPath: try folder.write(overlay, to: "Tiny.courier.yaml"))
        return loadValidated(at: url, displayPath: "Specs/Tiny.courier.yaml")
    }

    @Test func everyNameIsCheckedAgainstTheDocumentAtTheOverlaysLine() throws {
        let result = try load("""
            overlay: api/openapi.yaml
            filter:
              operations: [list-items, create-itme]
              tags: [itmes]
            names:
              operations: { list-item: listItems }
              schemas: { Item: Thing }
            operations:
              create-items:
                retry: false
            """)
        #expect(result.diagnostics.renderedLines == [
            "Specs/Tiny.courier.yaml:3:28: error: the document has no operation 'create-itme'; did you mean 'create-item'?",
            "Specs/Tiny.courier.yaml:4:10: error: no operation of the document has the tag 'itmes'; did you mean 'items'?",
            "Specs/Tiny.courier.yaml:6:28: error: the document has no operation 'list-item'; did you mean 'list-items'?",
            "Specs/Tiny.courier.yaml:7:20: error: the document has no schema 'Item' under components/schemas; did you mean 'item'?",
            "Specs/Tiny.courier.yaml:9:3: error: the document has no operation 'create-items'; did you mean 'create-item'?",
        ])
    }

    @Test func theOverlaysOwnMistakesAreParseErrors() throws {
        let result = try load("""
            overlay: api/openapi.yaml
            acces: internal
            exclude: { paths: [admin] }
            names:
              operations: { list-items: list-items }
            operations:
              list-items:
                get: /elsewhere
            """)
        #expect(result.diagnostics.renderedLines == [
            "Specs/Tiny.courier.yaml:2:1: error: unknown key 'acces' in the overlay; did you mean 'access'?",
            "Specs/Tiny.courier.yaml:3:20: error: path pattern 'admin' in 'exclude' must start with '/' (or '*'), as the document's paths do",
            "Specs/Tiny.courier.yaml:5:29: error: 'list-items' is not a Swift method name; write it as 'listItems'",
            "Specs/Tiny.courier.yaml:8:5: error: unknown key 'get' in operation 'list-items'",
        ])
    }

    @Test func aMissingOrWrongDocumentIsAnErrorAtOverlay() throws {
        let missing = try load("overlay: api/absent.yaml\n")
        #expect(missing.diagnostics.renderedLines == [
            "Specs/Tiny.courier.yaml:1:10: error: cannot read the OpenAPI document 'api/absent.yaml': no such file",
        ])
        let folder = try TemporaryFolder()
        try folder.write("service: NotOpenAPI\nbaseURL: https://x.example.com\nendpoints: {}\n", to: "api/openapi.yaml")
        let url = URL(fileURLWithPath: try folder.write("overlay: api/openapi.yaml\n", to: "Tiny.courier.yaml"))
        let wrong = loadValidated(at: url, displayPath: "Specs/Tiny.courier.yaml")
        #expect(wrong.diagnostics.renderedLines == [
            "Specs/Tiny.courier.yaml:1:10: error: 'api/openapi.yaml' is not an OpenAPI document (it has no top-level 'openapi' or "
                + "'swagger' key); an overlay extends an OpenAPI or Swagger 2.0 document",
        ])
    }

    @Test func filtersNamesErrorsAndHintsApply() throws {
        let result = try load("""
            overlay: api/openapi.yaml
            service: Catalog
            access: internal
            exclude: { tags: [admin] }
            names:
              operations: { list-items: items }
              schemas: { item: Item }
            defaults:
              timeout: 12
            operations:
              create-item:
                idempotencyKey: true
                errors:
                  404: { case: shelfMissing, message: The shelf is gone. }
              list-items:
                retry: { maxAttempts: 5 }
            """)
        #expect(result.diagnostics.renderedLines == [])
        let spec = try #require(result.spec)
        #expect(spec.name == "Catalog")
        #expect(spec.access == .internal)
        #expect(spec.endpoints.map(\.name) == ["items", "createItem"])
        #expect(spec.models.map(\.name).contains("Item"))
        #expect(spec.defaultResilience.timeout == 12)
        let items = try #require(spec.endpoints.first)
        #expect(items.resilience.retry == .custom(RetryPolicySpec(maxAttempts: 5)))
        let create = try #require(spec.endpoints.last)
        #expect(create.resilience.idempotencyKey != nil)
        // The rename keeps the body the document gave 404, and the overlay's message.
        let notFound = try #require(create.effectiveErrors.first { $0.status == .exact(404) })
        #expect(notFound.bodySchema == "Problem")
        guard case .single(let errorCase) = notFound.outcome else {
            Issue.record("expected a single case, found \(notFound.outcome)")
            return
        }
        #expect(errorCase.name == "shelfMissing")
        #expect(errorCase.message == "The shelf is gone.")
        // The endpoint the overlay did not touch keeps the document's case.
        #expect(items.effectiveErrors.first { $0.status == .exact(404) }?.allCases.map(\.name) == ["problem"])
    }

    @Test func anOperationLeftOutByTheFilterIsAWarningNotAnError() throws {
        let result = try load("""
            overlay: api/openapi.yaml
            filter: { paths: ["/items"] }
            operations:
              deleteAdmin: { timeout: 3 }
            """)
        #expect(result.diagnostics.renderedLines == [
            "Specs/Tiny.courier.yaml:4:3: warning: operation 'deleteAdmin' is left out by 'filter' or 'exclude'; what the overlay says of it is not used",
        ])
        #expect(result.spec?.endpoints.map(\.name) == ["listItems", "createItem"])
    }

    @Test func inferredErrorCasesDiscriminateOnTheEnumField() throws {
        let result = try load("""
            overlay: api/openapi.yaml
            inferErrorCases: true
            """)
        #expect(result.diagnostics.renderedLines == [])
        let spec = try #require(result.spec)
        let mapping = try #require(spec.endpoints.first?.effectiveErrors.first { $0.status == .exact(404) })
        guard case .discriminated(let discriminator) = mapping.outcome else {
            Issue.record("expected a discriminated mapping, found \(mapping.outcome)")
            return
        }
        #expect(discriminator.source == .bodyField(FieldPath(components: [.key("kind")])))
        #expect(discriminator.cases.map(\.value) == ["missing", "gone"])
        #expect(discriminator.cases.map(\.errorCase.name) == ["missing", "gone"])
        #expect(discriminator.fallback.name == "problem")
    }

    /// docs/OpenAPI.md says an overlay mapping without `body` keeps the document's error schema:
    /// so it does when it discriminates on a body field or reads its message from one. Where the
    /// document gives the status no body, that is the error a spec's mapping without one gets.
    @Test func aMappingWithoutBodyThatReadsTheBodyInheritsTheDocumentsSchema() throws {
        let result = try load("""
            overlay: api/openapi.yaml
            operations:
              list-items:
                errors:
                  404:
                    discriminator: kind
                    message: { field: detail, fallback: Not there. }
                    cases: { missing: itemMissing, gone: itemGone }
                    otherwise: notFound
              create-item:
                errors:
                  404: { case: notFound, message: { field: detail, fallback: Not there. } }
            """)
        #expect(result.diagnostics.renderedLines == [])
        let spec = try #require(result.spec)
        let listed = try #require(spec.endpoints.first { $0.name == "listItems" }?.effectiveErrors.first { $0.status == .exact(404) })
        #expect(listed.bodySchema == "Problem")
        #expect(listed.allCases.map(\.name) == ["itemMissing", "itemGone", "notFound"])
        #expect(listed.allCases.map(\.bodySchema) == ["Problem", "Problem", "Problem"])
        #expect(listed.allCases.map(\.messageField?.description) == ["detail", "detail", "detail"])
        let created = try #require(spec.endpoints.first { $0.name == "createItem" }?.effectiveErrors.first { $0.status == .exact(404) })
        #expect(created.bodySchema == "Problem")

        let bodiless = try load("""
            overlay: api/openapi.yaml
            operations:
              list-items:
                errors:
                  410: { discriminator: kind, cases: { gone: itemGone }, otherwise: gone }
            """)
        #expect(bodiless.diagnostics.renderedLines == [
            "Specs/Tiny.courier.yaml:5:7: error: the error mapping for 410 discriminates on a body field, so it needs 'body' to name the error schema (the document gives this status no body to take)",
        ])
    }

    @Test func speakeasyRetriesBecomeRetryHints() throws {
        let document = Self.document
            .replacingOccurrences(of: "paths:\n", with: "x-speakeasy-retries:\n  strategy: backoff\n"
                                      + "  backoff: { initialInterval: 500, maxInterval: 60000 }\npaths:\n")
            .replacingOccurrences(of: "      operationId: create-item\n",
                                  with: "      operationId: create-item\n      x-speakeasy-retries: { strategy: none }\n")
        #expect(document.contains("x-speakeasy-retries: { strategy: none }"))
        let result = try load("overlay: api/openapi.yaml\n", document: document)
        #expect(result.diagnostics.renderedLines == [])
        let spec = try #require(result.spec)
        #expect(spec.defaultResilience.retry == .custom(RetryPolicySpec(baseDelay: 0.5, maxDelay: 60)))
        #expect(spec.endpoints.first { $0.name == "createItem" }?.resilience.retry == .disabled)
    }

    @Test func pathPatternsMatchInLinearTime() {
        #expect(OperationFilter.path("/repos/a/b/issues", matches: "/repos/*/issues"))
        #expect(OperationFilter.path("/repos/a/b/issues", matches: "/repos/*"))
        #expect(!OperationFilter.path("/users/a", matches: "/repos/*"))
        #expect(OperationFilter.path("/x", matches: "*"))
        #expect(!OperationFilter.path("/x/y", matches: "/x"))
        // A pattern that makes naive backtracking exponential.
        let hostile = String(repeating: "*a", count: 40) + "*b"
        #expect(!OperationFilter.path("/" + String(repeating: "a", count: 4_000), matches: hostile))
    }

    /// Generates the GitHub example spec, which exercises every template (outcomes, headers,
    /// pages), with `line` added at its top level.
    func generateGitHubExample(with line: String) throws -> GenerationResult {
        var text = try String(contentsOf: packageRoot.appendingPathComponent("Specs/GitHub.yaml"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\nbaseURL:", with: "\n\(line)\nbaseURL:")
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(text, to: "GitHub.yaml"))
        return try Generator().generate(specAt: url, displayPath: "GitHub.yaml")
    }

    /// Every declaration of every generated file takes the spec's access level; none is left
    /// `public`. The GitHub example spec exercises every template (outcomes, headers, pages).
    @Test(arguments: [AccessLevel.package, .internal])
    func theAccessLevelReachesEveryDeclaration(access: AccessLevel) throws {
        let result = try generateGitHubExample(with: "access: \(access.rawValue)")
        #expect(result.succeeded, "\(result.diagnostics.renderedLines)")
        #expect(result.files.count >= 4)
        for (name, file) in result.files {
            let publicLines = file.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("public ") }
            #expect(publicLines.isEmpty, "\(name) still declares: \(publicLines.prefix(3))")
            #expect(file.contains("\(access.rawValue) "))
        }
    }

    /// `equality:` decides what every struct, union, response enum and response field struct
    /// adopts; string enums stay `Hashable` under every choice (they hash their raw value). The
    /// GitHub example spec has every kind of declaration.
    @Test(arguments: ModelEquality.allCases)
    func equalityReachesEveryModelAndResponseType(equality: ModelEquality) throws {
        let result = try generateGitHubExample(with: "equality: \(equality.rawValue)")
        #expect(result.succeeded, "\(result.diagnostics.renderedLines)")
        func declarations(inFilesNamed part: String) -> [Substring] {
            result.files.filter { $0.key.contains(part) }.values.flatMap { $0.split(separator: "\n") }
                .filter { $0.hasPrefix("public struct ") || $0.hasPrefix("public enum ") || $0.hasPrefix("public indirect enum ") }
        }
        let models = declarations(inFilesNamed: "Models")
        let stringEnums = models.filter { $0.contains("RawRepresentable") }
        let others = models.filter { !$0.contains("RawRepresentable") }
            + declarations(inFilesNamed: "Requests").filter { $0.contains("ResponseDecodable") || $0.contains("Headers:") }
        #expect(!stringEnums.isEmpty && others.count > 10)
        #expect(stringEnums.allSatisfy { $0.contains(", Hashable,") })
        for line in others {
            switch equality {
            case .hashable: #expect(line.contains("Hashable") && !line.contains("Equatable"), "\(line)")
            case .equatable: #expect(line.contains("Equatable") && !line.contains("Hashable"), "\(line)")
            case .none: #expect(!line.contains("Equatable") && !line.contains("Hashable"), "\(line)")
            }
        }
        #expect(others.contains { $0.contains("ResponseDecodable") }, "the spec has a response enum")
    }

    @Test func anOverlayChoosesEqualityAndAWrongValueNamesTheChoices() throws {
        let hashable = try load("overlay: api/openapi.yaml\nequality: hashable\n")
        #expect(hashable.diagnostics.renderedLines == [])
        #expect(hashable.spec?.equality == .hashable)
        let unsaid = try load("overlay: api/openapi.yaml\n")
        #expect(unsaid.spec?.equality == .equatable)
        let wrong = try load("overlay: api/openapi.yaml\nequality: comparable\n")
        #expect(wrong.diagnostics.renderedLines.contains { $0.contains(":2:11: error:") && $0.contains("equatable") && $0.contains("hashable") },
                "\(wrong.diagnostics.renderedLines)")
    }

    @Test func externalTypesAreUsedByNameAndChecked() throws {
        let good = loadSpec("""
            service: Shop
            baseURL: https://shop.example.com
            models:
              PostalAddress: external
              Order: { id: String, shipping: PostalAddress? }
            endpoints:
              getOrder: { get: /order, response: Order }
            """)
        #expect(good.lines == [])
        #expect(good.spec?.externalTypes == ["PostalAddress"])
        #expect(good.spec?.models.map(\.name) == ["Order"])

        let bad = loadSpec("""
            service: Shop
            baseURL: https://shop.example.com
            models:
              Foundation.Decimal: external
              Problem: external
            errorSchemas:
              Problem: { message: String }
            endpoints:
              getOrder: { get: /order, response: Order }
            """)
        #expect(bad.lines.contains {
            $0.hasPrefix("Specs/x.yaml:4:3: error: the external type 'Foundation.Decimal' must be a Swift type name as written")
        })
        #expect(bad.lines.contains { $0.hasPrefix("Specs/x.yaml:5:3: error: external type 'Problem' is already declared as an error schema") })

        let overlay = try load("""
            overlay: api/openapi.yaml
            types: { itme: Item, problem: "Kit.Problem" }
            """)
        #expect(overlay.diagnostics.renderedLines == [
            "Specs/Tiny.courier.yaml:2:16: error: the document has no schema 'itme' under components/schemas; did you mean 'item'?",
            "Specs/Tiny.courier.yaml:2:31: error: the external type 'Kit.Problem' must be a Swift type name as written (such as 'User'); "
                + "for a type of another module, declare a typealias in the app",
        ])
    }
}
