@testable import CourierGenerator
import Foundation
import SyntheticSpecs
import Testing

/// The synthetic spec generator behind `courier synthesize` and the benchmarks: its specs must
/// validate cleanly, hold exactly the requested sizes, and be byte-identical run to run.
@Suite struct SyntheticSpecTests {
    private func load(_ configuration: SyntheticSpecConfiguration) throws -> (SyntheticSpec, SpecLoadResult) {
        let synthetic = try SyntheticSpecGenerator(configuration).generate()
        let result = SpecLoader().loadSpec(contents: synthetic.yaml, displayPath: "Synthetic.yaml")
        return (synthetic, result)
    }

    @Test(arguments: [
        SyntheticSpecConfiguration(endpoints: 60),
        SyntheticSpecConfiguration(endpoints: 23, models: 11, propertiesPerModel: 45, errorMappingsPerEndpoint: 7, seed: 9),
        SyntheticSpecConfiguration(endpoints: 3, models: 1, propertiesPerModel: 1, errorMappingsPerEndpoint: 0),
        SyntheticSpecConfiguration(endpoints: 12, models: 3, propertiesPerModel: 3,
                                   errorMappingsPerEndpoint: SyntheticSpecConfiguration.maximumErrorMappingsPerEndpoint),
        // More object models than resource nouns, and more endpoints than resources: numbered names and versions.
        SyntheticSpecConfiguration(endpoints: 500, models: 60, propertiesPerModel: 4, errorMappingsPerEndpoint: 2, seed: 3),
    ])
    func validatesWithTheRequestedSizes(configuration: SyntheticSpecConfiguration) throws {
        let (synthetic, result) = try load(configuration)
        #expect(result.diagnostics.renderedLines == [])
        let spec = try #require(result.spec)

        #expect(spec.endpoints.count == configuration.endpoints)
        let declared = spec.models.filter { $0.synthesizedForEndpoint == nil }
        #expect(declared.count == configuration.models)
        #expect(declared.filter(\.isStringEnum).count == synthetic.enumModelCount)
        #expect(synthetic.objectModelCount + synthetic.enumModelCount == configuration.models)
        #expect(spec.models.count - declared.count == synthetic.inlineBodyCount)
        for model in declared where !model.isStringEnum {
            #expect(model.properties.count == configuration.propertiesPerModel, "\(model.name)")
        }
        for endpoint in spec.endpoints {
            #expect(endpoint.errors.count == configuration.errorMappingsPerEndpoint, "\(endpoint.name)")
        }
        #expect(spec.errorSchemas.count == 3)
        #expect(synthetic.lineCount == synthetic.yaml.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
    }

    @Test func coversTheFeaturesOfRealSpecs() throws {
        let (_, result) = try load(SyntheticSpecConfiguration(endpoints: 100))
        let spec = try #require(result.spec)
        let parameters = spec.endpoints.flatMap(\.parameters)
        for placement in [ParameterSpec.Placement.path, .query, .header] {
            #expect(parameters.contains { $0.placement == placement }, "no \(placement) parameter")
        }
        #expect(parameters.contains { $0.defaultValue != nil })
        #expect(spec.endpoints.contains { $0.body != nil })
        #expect(spec.models.contains { $0.synthesizedForEndpoint != nil })
        #expect(spec.models.contains { $0.isRecursive })
        #expect(spec.models.contains { $0.isStringEnum })
        #expect(!spec.defaultErrors.isEmpty)
        let mappings = spec.endpoints.flatMap(\.errors)
        #expect(mappings.contains { $0.status.description.hasSuffix("XX") })
        #expect(mappings.contains { $0.allCases.count > 1 }, "no discriminated mapping")
        let types = spec.models.flatMap(\.properties).map { "\($0.type)" }
        #expect(types.contains { $0.hasPrefix("[String:") })
        #expect(types.contains { $0.hasPrefix("[") && !$0.hasPrefix("[String:") })
        #expect(spec.endpoints.contains { $0.path.parameterNames.count == 2 }, "no nested resource")
    }

    @Test func sameInputsGiveTheSameBytes() throws {
        let configuration = SyntheticSpecConfiguration(endpoints: 200, propertiesPerModel: 12, errorMappingsPerEndpoint: 4, seed: 42)
        let first = try SyntheticSpecGenerator(configuration).generate().yaml
        let second = try SyntheticSpecGenerator(configuration).generate().yaml
        #expect(first == second)
        var reseeded = configuration
        reseeded.seed = 43
        #expect(try SyntheticSpecGenerator(reseeded).generate().yaml != first)
    }

    @Test func editingAnEndpointChangesOnlyThatEndpoint() throws {
        let configuration = SyntheticSpecConfiguration(endpoints: 50)
        var edited = configuration
        edited.editedEndpoint = 17
        let (original, originalResult) = try load(configuration)
        let (changed, changedResult) = try load(edited)
        #expect(changedResult.diagnostics.renderedLines == [])
        let before = try #require(originalResult.spec)
        let after = try #require(changedResult.spec)
        #expect(after.endpoints[17].queryParameters.count == before.endpoints[17].queryParameters.count + 1)
        #expect(after.endpoints[17].description != before.endpoints[17].description)

        // Apart from the comment that records the options, the texts differ only inside the
        // edited endpoint's block.
        func withoutEndpoint(_ name: String, _ yaml: String) -> [Substring] {
            var lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            guard let start = lines.firstIndex(of: "  \(name):"[...]) else { return Array(lines) }
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("  ") && !$0.hasPrefix("   ") } ?? lines.endIndex
            lines.removeSubrange(start..<end)
            return Array(lines)
        }
        let name = before.endpoints[17].name
        #expect(withoutEndpoint(name, original.yaml) == withoutEndpoint(name, changed.yaml))
        #expect(withoutEndpoint(name, original.yaml).count < original.lineCount - 5)
    }

    /// `courier synthesize --openapi` writes the same API as an OpenAPI document, so that other
    /// generators can be measured on it: Courier must read it cleanly and find the same
    /// operations, paths, parameters, models and error statuses as in the Courier spec.
    @Test(arguments: [
        SyntheticSpecConfiguration(endpoints: 60),
        SyntheticSpecConfiguration(endpoints: 23, models: 11, propertiesPerModel: 45, errorMappingsPerEndpoint: 7, seed: 9),
        SyntheticSpecConfiguration(endpoints: 12, models: 3, propertiesPerModel: 3,
                                   errorMappingsPerEndpoint: SyntheticSpecConfiguration.maximumErrorMappingsPerEndpoint),
        SyntheticSpecConfiguration(endpoints: 500, models: 60, propertiesPerModel: 4, errorMappingsPerEndpoint: 2, seed: 3),
    ])
    func theOpenAPITwinDescribesTheSameAPI(configuration: SyntheticSpecConfiguration) throws {
        let (_, courierResult) = try load(configuration)
        let courier = try #require(courierResult.spec)
        let twin = try SyntheticSpecGenerator(configuration).generate(.openAPI)
        #expect(twin.yaml.hasPrefix("# A synthetic OpenAPI document: courier synthesize --openapi --endpoints \(configuration.endpoints) "))
        let result = SpecLoader().loadSpec(contents: twin.yaml, displayPath: "Synthetic.openapi.yaml")
        #expect(result.diagnostics.renderedLines == [])
        let openAPI = try #require(result.spec)

        // The document groups operations by path, so they come in another order.
        #expect(openAPI.endpoints.map(\.name).sorted() == courier.endpoints.map(\.name).sorted())
        let twins = Dictionary(openAPI.endpoints.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for written in courier.endpoints {
            let read = try #require(twins[written.name])
            #expect(read.method == written.method, "\(read.name)")
            #expect(read.path.template == written.path.template, "\(read.name)")
            #expect(read.parameters.map(\.name).sorted() == written.parameters.map(\.name).sorted(), "\(read.name)")
            #expect((read.body == nil) == (written.body == nil), "\(read.name)")
            // Discriminated mappings are one response each in OpenAPI; the statuses are the same.
            let statuses = { (endpoint: EndpointSpec) in Set(endpoint.effectiveErrors.map(\.status.description)) }
            #expect(statuses(read) == statuses(written), "\(read.name)")
        }
        let declared = { (spec: ServiceSpec) in Set(spec.models.filter { $0.synthesizedForEndpoint == nil }.map(\.name)) }
        #expect(declared(courier).isSubset(of: declared(openAPI)))
        for model in courier.models where model.synthesizedForEndpoint == nil {
            let twinModel = try #require(openAPI.models.first { $0.name == model.name })
            #expect(twinModel.properties.map(\.jsonKey) == model.properties.map(\.jsonKey), "\(model.name)")
        }
        #expect(Set(openAPI.errorSchemas.map(\.name)) == Set(courier.errorSchemas.map(\.name)))
        #expect(try SyntheticSpecGenerator(configuration).generate(.openAPI).yaml == twin.yaml)
    }

    @Test func rejectsSizesItCannotGenerate() {
        let cases: [(SyntheticSpecConfiguration, String)] = [
            (SyntheticSpecConfiguration(endpoints: 0), "endpoints must be at least 1, not 0"),
            (SyntheticSpecConfiguration(endpoints: 5, models: 0), "models must be at least 1, not 0"),
            (SyntheticSpecConfiguration(endpoints: 5, propertiesPerModel: 0), "properties per model must be at least 1, not 0"),
            (SyntheticSpecConfiguration(endpoints: 5, errorMappingsPerEndpoint: 99),
             "error mappings per endpoint must be from 0 to \(SyntheticSpecConfiguration.maximumErrorMappingsPerEndpoint), not 99"),
            (SyntheticSpecConfiguration(endpoints: 5, editedEndpoint: 5), "edited endpoint must be from 0 to 4, not 5"),
            (SyntheticSpecConfiguration(serviceName: "my-service", endpoints: 5),
             "the service name 'my-service' must start with an upper-case letter and hold only ASCII letters and digits"),
        ]
        for (configuration, message) in cases {
            #expect(throws: SyntheticSpecError.self) { try SyntheticSpecGenerator(configuration).generate() }
            do {
                _ = try SyntheticSpecGenerator(configuration).generate()
            } catch {
                #expect(error.description == message)
            }
        }
    }
}
