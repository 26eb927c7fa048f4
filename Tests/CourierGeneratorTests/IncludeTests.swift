@testable import CourierGenerator
import Foundation
import Testing

@Suite struct IncludeTests {
    static let sharedErrors = """
        description: Errors shared by several services.
        errorSchemas:
          Problem: { code: String, message: String, details: "[FieldIssue]" }
        models:
          FieldIssue: { field: String, message: String }
        """

    @Test func includedSchemasAndModelsAreMerged() throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.sharedErrors, to: "Specs/Shared/Errors.yaml")
        let path = try folder.write("""
            service: Shop
            baseURL: https://shop.example.com
            include: Shared/Errors.yaml
            models:
              Order: { id: String, issues: "[FieldIssue]" }
            endpoints:
              getOrder:
                get: /orders/{id}
                path: { id: String }
                response: Order
                errors:
                  422: { body: Problem, discriminator: "details[0].field", cases: { email: badEmail }, otherwise: invalid }
            """, to: "Specs/Shop.yaml")
        let result = loadValidated(at: URL(fileURLWithPath: path), displayPath: "Specs/Shop.yaml")
        #expect(result.diagnostics.renderedLines == [])
        let spec = try #require(result.spec)
        #expect(spec.includedFiles == ["Specs/Shared/Errors.yaml"])
        #expect(spec.errorSchemas.map(\.name) == ["Problem"])
        #expect(spec.models.map(\.name) == ["FieldIssue", "Order"])
        #expect(spec.errorSchema(named: "Problem")?.location == SourceLocation(file: "Specs/Shared/Errors.yaml", line: 3, column: 3))
    }

    @Test func problemsInIncludedFilesNameThoseFiles() throws {
        let folder = try TemporaryFolder()
        try folder.write("errorSchemas:\n  Problem: { code: Strin }\nmodels:\n  Extra: { a: Int }\n", to: "Specs/Shared/Errors.yaml")
        let path = try folder.write("""
            service: Shop
            baseURL: https://shop.example.com
            include: [Shared/Errors.yaml, Shared/Missing.yaml]
            models:
              Extra: { b: Int }
            """, to: "Specs/Shop.yaml")
        let result = loadValidated(at: URL(fileURLWithPath: path), displayPath: "Specs/Shop.yaml")
        #expect(result.diagnostics.renderedLines == [
            "Specs/Shared/Errors.yaml:2:20: error: type 'Strin' used by property 'code' is not defined; did you mean 'String'?",
            "Specs/Shop.yaml:3:31: error: included file 'Shared/Missing.yaml' does not exist (looked for Specs/Shared/Missing.yaml)",
            "Specs/Shop.yaml:5:3: error: model 'Extra' is already declared as a model",
            "Specs/Shared/Errors.yaml:4:3: note: 'Extra' is first declared here",
        ])
        #expect(result.spec == nil)
    }

    @Test func includeCyclesAreDiagnosed() throws {
        let folder = try TemporaryFolder()
        try folder.write("include: b.yaml\nmodels:\n  A: { id: Int }\n", to: "Specs/Shared/a.yaml")
        try folder.write("include: ../Shared/a.yaml\nmodels:\n  B: { id: Int }\n", to: "Specs/Shared/b.yaml")
        let path = try folder.write("""
            service: Shop
            baseURL: https://shop.example.com
            include: Shared/a.yaml
            """, to: "Specs/Shop.yaml")
        let result = loadValidated(at: URL(fileURLWithPath: path), displayPath: "Specs/Shop.yaml")
        #expect(result.diagnostics.renderedLines == [
            "Specs/Shared/b.yaml:1:10: error: include cycle: Specs/Shared/a.yaml includes Specs/Shared/b.yaml includes Specs/Shared/a.yaml; remove one of these includes",
        ])
    }

    @Test func aFileIncludingItselfIsACycle() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("service: Shop\nbaseURL: https://shop.example.com\ninclude: Shop.yaml\n", to: "Specs/Shop.yaml")
        let result = loadValidated(at: URL(fileURLWithPath: path), displayPath: "Specs/Shop.yaml")
        #expect(result.diagnostics.renderedLines == [
            "Specs/Shop.yaml:3:10: error: include cycle: Specs/Shop.yaml includes Specs/Shop.yaml; remove one of these includes",
        ])
    }

    @Test func diamondIncludesLoadEachFileOnce() throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.sharedErrors, to: "Specs/Shared/Errors.yaml")
        try folder.write("include: Errors.yaml\nmodels:\n  Money: { amount: Int64 }\n", to: "Specs/Shared/Money.yaml")
        let path = try folder.write("""
            service: Shop
            baseURL: https://shop.example.com
            include: [Shared/Errors.yaml, Shared/Money.yaml]
            """, to: "Specs/Shop.yaml")
        let result = loadValidated(at: URL(fileURLWithPath: path), displayPath: "Specs/Shop.yaml")
        #expect(result.diagnostics.renderedLines == [])
        #expect(result.spec?.models.map(\.name) == ["FieldIssue", "Money"])
    }

    @Test func includingAServiceIsAnError() throws {
        let folder = try TemporaryFolder()
        try folder.write("service: Other\nbaseURL: https://other.example.com\n", to: "Specs/Other.yaml")
        let path = try folder.write("service: Shop\nbaseURL: https://shop.example.com\ninclude: Other.yaml\n", to: "Specs/Shop.yaml")
        let result = loadValidated(at: URL(fileURLWithPath: path), displayPath: "Specs/Shop.yaml")
        #expect(result.diagnostics.renderedLines == [
            "Specs/Shop.yaml:3:10: error: included file 'Other.yaml' describes a service; include only shared files of 'errorSchemas' and 'models'",
        ])
    }

    @Test func sharedFileValidatesOnItsOwn() throws {
        let result = loadValidated(contents: Self.sharedErrors, displayPath: "Specs/Shared/Errors.yaml")
        #expect(result.isSharedFile)
        #expect(result.spec == nil)
        #expect(result.diagnostics.renderedLines == [])

        let misspelled = loadValidated(contents: "errorSchemas: {}\nmodel: {}\n", displayPath: "Specs/Shared/Errors.yaml")
        #expect(misspelled.diagnostics.renderedLines == [
            "Specs/Shared/Errors.yaml:2:1: error: unknown key 'model' in the shared file; did you mean 'models'?",
        ])
    }
}

@Suite struct IncludeLimitTests {
    @Test func symlinkLoopsAreCycles() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("service: Shop\nbaseURL: https://shop.example.com\ninclude: loop/Shared.yaml\n", to: "Specs/Shop.yaml")
        try folder.write("include: loop/Shared.yaml\nmodels:\n  A: { id: Int }\n", to: "Specs/Shared.yaml")
        // Specs/loop points back at Specs, so loop/loop/loop/… is the same folder.
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("Specs/loop").path,
                                                   withDestinationPath: folder.url.appendingPathComponent("Specs").path)
        let result = loadValidated(at: URL(fileURLWithPath: path), displayPath: "Specs/Shop.yaml")
        #expect(result.diagnostics.renderedLines == [
            "Specs/loop/Shared.yaml:1:10: error: include cycle: Specs/loop/Shared.yaml includes Specs/loop/loop/Shared.yaml; remove one of these includes",
        ])
    }

    @Test func deeplyNestedIncludesStop() throws {
        let folder = try TemporaryFolder()
        for level in 0..<20 {
            try folder.write("include: f\(level + 1).yaml\nmodels:\n  M\(level): { id: Int }\n", to: "Specs/f\(level).yaml")
        }
        try folder.write("models:\n  Last: { id: Int }\n", to: "Specs/f20.yaml")
        let path = try folder.write("service: Shop\nbaseURL: https://shop.example.com\ninclude: f0.yaml\n", to: "Specs/Shop.yaml")
        let result = loadValidated(at: URL(fileURLWithPath: path), displayPath: "Specs/Shop.yaml")
        #expect(result.diagnostics.renderedLines == ["Specs/f14.yaml:1:10: error: includes nest more than 16 files deep"])
    }
}
