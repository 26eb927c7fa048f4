@testable import CourierGenerator
import CourierTestSupport
import Foundation
import Testing

/// What `Generator` tells a progress handler, and the files it says it read (what
/// `courier generate --watch` watches).
@Suite struct GenerationProgressTests {
    @Test func eachSpecReportsItsStagesInOrderAndEverySpecFinishes() async throws {
        let folder = try TemporaryFolder()
        let specs = try ["A", "B", "C"].map { name in
            let path = try folder.write("""
                service: \(name)
                baseURL: https://\(name.lowercased()).example.com
                models:
                  Item: { id: String }
                endpoints:
                  getItem: { get: /items/{id}, path: { id: String }, response: Item }
                """, to: "\(name).yaml")
            return SpecInput(url: URL(fileURLWithPath: path), displayPath: "\(name).yaml")
        }
        let broken = try folder.write("service: Broken\nbaseURL: 12\n", to: "Broken.yaml")
        let inputs = specs + [SpecInput(url: URL(fileURLWithPath: broken), displayPath: "Broken.yaml")]
        let reports = LockedValues<GenerationProgress>()
        let results = try await Generator().generate(specs: inputs, progress: { reports.append($0) })
        let all = reports.all

        #expect(Set(all.map(\.specCount)) == [4])
        for (index, input) in inputs.enumerated() {
            let stages = all.filter { $0.specPath == input.displayPath }.map(\.stage)
            #expect(all.filter { $0.specPath == input.displayPath }.allSatisfy { $0.specIndex == index })
            guard results[index].succeeded else {
                #expect(stages == [.reading, .validating, .finished], "\(input.displayPath)")
                continue
            }
            let files = results[index].files.count
            #expect(files == 4)
            let rendering = (0...files).map { GenerationProgress.Stage.rendering(done: $0, total: files) }
            #expect(stages == [.reading, .validating, .translating] + rendering + [.finished], "\(input.displayPath)")
        }
    }

    @Test func aResultListsEveryFileGenerationReadIncludingAMissingOne() async throws {
        let folder = try TemporaryFolder()
        try folder.write("errorSchemas:\n  Problem: { code: String }\n", to: "Specs/Shared/Errors.yaml")
        let spec = try folder.write("""
            service: Shop
            baseURL: https://shop.example.com
            include: [Shared/Errors.yaml, Shared/Missing.yaml]
            """, to: "Specs/Shop.yaml")
        let overlay = try folder.write("overlay: api/openapi.yaml\nservice: Store\n", to: "Specs/Store.yaml")
        try folder.write("""
            openapi: 3.1.0
            info: { title: Store, version: "1" }
            servers: [{ url: "https://store.example.com" }]
            paths:
              /pets:
                get:
                  operationId: listPets
                  responses:
                    "200":
                      description: ok
                      content: { application/json: { schema: { $ref: "schemas/pet.yaml#/Pet" } } }
            """, to: "Specs/api/openapi.yaml")
        try folder.write("Pet: { type: object, properties: { name: { type: string } } }\n", to: "Specs/api/schemas/pet.yaml")
        let results = try await Generator().generate(specs: [
            SpecInput(url: URL(fileURLWithPath: spec), displayPath: "Specs/Shop.yaml"),
            SpecInput(url: URL(fileURLWithPath: overlay), displayPath: "Specs/Store.yaml"),
        ])
        let root = folder.url.resolvingSymlinksInPath().path
        #expect(results[0].sourceFiles.map(\.path) == ["Specs/Shop.yaml", "Specs/Shared/Errors.yaml", "Specs/Shared/Missing.yaml"]
            .map { root + "/" + $0 })
        #expect(results[1].diagnostics.renderedLines == [])
        #expect(results[1].sourceFiles.map(\.path) == ["Specs/Store.yaml", "Specs/api/openapi.yaml", "Specs/api/schemas/pet.yaml"]
            .map { root + "/" + $0 })
    }
}

