@testable import CourierGenerator
import Testing

@Suite struct ExpressionTests {
    private func type(_ text: String) -> TypeReference? {
        if case .success(let type) = TypeExpression.parse(text) { return type }
        return nil
    }

    private func typeError(_ text: String) -> String? {
        if case .failure(let error) = TypeExpression.parse(text) { return error.message }
        return nil
    }

    @Test func parsesTypes() {
        #expect(type("String") == .primitive(.string))
        #expect(type("Int64?") == .optional(.primitive(.int64)))
        #expect(type("Pet") == .named("Pet"))
        #expect(type("[Pet]") == .array(.named("Pet")))
        #expect(type("[FieldIssue]?") == .optional(.array(.named("FieldIssue"))))
        #expect(type("[String: Int]") == .map(.primitive(.int)))
        #expect(type("[String:[Pet?]]?") == .optional(.map(.array(.optional(.named("Pet"))))))
        #expect(type(" [ [Int] ] ") == .array(.array(.primitive(.int))))
    }

    @Test func rejectsMalformedTypes() {
        #expect(typeError("[Int: Pet]") == "map keys must be String, found 'Int'")
        #expect(typeError("[Pet") == "missing ']' in type")
        #expect(typeError("Pet??") == "a type can be optional only once ('Pet??')")
        #expect(typeError("Pet Dog") == "unexpected 'Dog' after type 'Pet'")
        #expect(typeError("") == "missing type name")
        #expect(typeError("?") == "unexpected '?' where a type name should be")
        #expect(typeError(String(repeating: "[", count: 100_000) + "Int" + String(repeating: "]", count: 100_000))
            == "type is nested more than 32 levels deep")
        #expect(type(String(repeating: "[", count: 32) + "Int" + String(repeating: "]", count: 32)) != nil)
    }

    @Test func parsesFieldPaths() throws {
        let path = try TypeExpression.parseFieldPath("errors[0].code").get()
        #expect(path.components == [.key("errors"), .index(0), .key("code")])
        #expect(path.description == "errors[0].code")
        #expect(try TypeExpression.parseFieldPath("error.code").get().components == [.key("error"), .key("code")])
        #expect(try TypeExpression.parseFieldPath("type").get().components == [.key("type")])
    }

    @Test(arguments: ["", ".code", "code.", "a..b", "errors[x]", "errors[0", "[0].code", "a b", "errors[0]code"])
    func rejectsMalformedFieldPaths(text: String) {
        guard case .failure = TypeExpression.parseFieldPath(text) else {
            Issue.record("'\(text)' should not parse")
            return
        }
    }

    @Test func parsesPathTemplates() throws {
        let template = try TypeExpression.parsePathTemplate("/repos/{owner}/{repo}/issues").get()
        #expect(template.segments == [.literal("/repos/"), .parameter("owner"), .literal("/"), .parameter("repo"), .literal("/issues")])
        #expect(template.parameterNames == ["owner", "repo"])
    }

    @Test(arguments: [
        ("pets", "path 'pets' must start with '/'"),
        ("/pets/{}", "empty '{}' in path '/pets/{}'"),
        ("/pets/{id", "missing '}' in path '/pets/{id'"),
        ("/pets/id}", "'}' without '{' in path '/pets/id}'"),
        ("/pets?limit=1", "path '/pets?limit=1' must not contain '?'; declare query parameters under 'query:'"),
    ])
    func rejectsMalformedPathTemplates(text: String, message: String) {
        guard case .failure(let error) = TypeExpression.parsePathTemplate(text) else {
            Issue.record("'\(text)' should not parse")
            return
        }
        #expect(error.message == message)
    }
}
