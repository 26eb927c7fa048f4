import BookshelfAPI
@testable import CourierGenerator
import CourierRuntime
import CourierTestSupport
import DiscordAPI
import Foundation
import GitHubAPI
import MarketplaceAPI
import OpenAIAPI
import QiitaAPI
import SlackAPI
import StripeAPI
import Testing

/// Every model of every example service round-trips through its own `Codable`: a value decoded
/// from a response encodes and decodes back to itself, read-only properties included, so that
/// an app can cache it. Only a request leaves read-only properties out.
///
/// The JSON comes from each spec, not from hand-written samples: every property of every model
/// (with every optional set, and again with none set), every union variant, in the dates and
/// keys the spec declares. The types are listed per service, and a check against the spec
/// keeps the list complete.
@Suite("Example models round-trip through Codable")
struct ModelRoundTripTests {
    /// One example service: its spec, its client's coding and its generated model types by
    /// Swift name.
    struct Service: Sendable, CustomTestStringConvertible {
        var name: String
        var coding: JSONCoding
        var types: [String: any RoundTripping.Type]
        var testDescription: String { name }
    }

    static let services: [Service] = [
        Service(name: "Bookshelf", coding: BookshelfClient().client.configuration.coding, types: [
            "Author": BookshelfAPI.Author.self, "Book": Book.self, "NewBook": NewBook.self, "PageLinks": PageLinks.self,
            "PageMeta": PageMeta.self, "BookPage": BookPage.self, "Review": Review.self, "NewReview": NewReview.self,
            "LaravelError": LaravelError.self, "Genre": Genre.self, "BookSort": BookSort.self,
        ]),
        Service(name: "Discord", coding: DiscordClient().client.configuration.coding, types: [
            "Gateway": Gateway.self, "TextChannel": TextChannel.self, "VoiceChannel": VoiceChannel.self,
            "ThreadChannel": ThreadChannel.self, "ThreadMetadata": ThreadMetadata.self, "ModifyChannel": ModifyChannel.self,
            "Author": DiscordAPI.Author.self, "Message": DiscordAPI.Message.self, "NewMessage": NewMessage.self,
            "DiscordError": DiscordError.self, "DiscordRateLimit": DiscordRateLimit.self, "ChannelType": ChannelType.self,
            "Channel": Channel.self,
        ]),
        Service(name: "GitHub", coding: GitHubClient().client.configuration.coding, types: [
            "ValidationIssue": ValidationIssue.self, "User": GitHubAPI.User.self, "ContributorActivity": ContributorActivity.self,
            "WeekActivity": WeekActivity.self, "License": License.self, "Repository": Repository.self,
            "NewRepository": NewRepository.self, "Label": Label.self, "Issue": GitHubAPI.Issue.self, "NewIssue": NewIssue.self,
            "IssueUpdate": IssueUpdate.self, "LockIssueBody": LockIssueBody.self, "GitHubError": GitHubError.self,
            "UserType": UserType.self, "RepositoryAffiliation": RepositoryAffiliation.self, "RepositorySort": RepositorySort.self,
            "IssueState": IssueState.self, "IssueStateFilter": IssueStateFilter.self, "LockReason": LockReason.self,
        ]),
        Service(name: "Marketplace", coding: MarketplaceClient(xAPIKey: "k").client.configuration.coding, types: [
            "FieldIssue": FieldIssue.self, "Money": Money.self, "Category": Category.self, "Product": Product.self,
            "Address": MarketplaceAPI.Address.self, "OrderLine": OrderLine.self, "Order": Order.self, "NewOrder": NewOrder.self,
            "NewOrderLine": NewOrderLine.self, "OrderPage": OrderPage.self, "Health": Health.self,
            "PlatformError": PlatformError.self, "OrderStatus": OrderStatus.self,
        ]),
        Service(name: "OpenAI", coding: OpenAIClient().client.configuration.coding, types: [
            "ErrorDetail": ErrorDetail.self, "ChatMessage": ChatMessage.self, "ChatRequest": ChatRequest.self,
            "ChatChoice": ChatChoice.self, "ChatCompletion": ChatCompletion.self, "ChunkDelta": ChunkDelta.self,
            "ChunkChoice": ChunkChoice.self, "ChatCompletionChunk": ChatCompletionChunk.self, "FileObject": FileObject.self,
            "FileUpload": FileUpload.self, "UploadPart": UploadPart.self, "FileList": FileList.self,
            "OpenAIError": OpenAIError.self, "ChatRole": ChatRole.self, "FilePurpose": FilePurpose.self,
        ]),
        Service(name: "Qiita", coding: QiitaClient().client.configuration.coding, types: [
            "User": QiitaAPI.User.self, "Tagging": Tagging.self, "Item": Item.self, "NewItem": NewItem.self,
            "Comment": QiitaAPI.Comment.self, "Tag": QiitaAPI.Tag.self, "PostCommentBody": PostCommentBody.self, "QiitaError": QiitaError.self,
        ]),
        Service(name: "Slack", coding: SlackClient().client.configuration.coding, types: [
            "ResponseMetadata": ResponseMetadata.self, "PostMessageRequest": PostMessageRequest.self,
            "Message": SlackAPI.Message.self, "PostMessageResponse": PostMessageResponse.self, "Conversation": Conversation.self,
            "ConversationInfoResponse": ConversationInfoResponse.self, "ConversationListResponse": ConversationListResponse.self,
            "SlackError": SlackError.self,
        ]),
        Service(name: "Stripe", coding: StripeClient().client.configuration.coding, types: [
            "StripeObject": StripeObject.self, "ChargeRequest": ChargeRequest.self, "Charge": Charge.self,
            "Customer": Customer.self, "NewCustomer": NewCustomer.self, "Address": StripeAPI.Address.self,
            "TaxIDData": TaxIDData.self, "CreatedFilter": CreatedFilter.self, "CustomerList": CustomerList.self,
            "DeletedCustomer": DeletedCustomer.self, "Card": Card.self, "BankAccount": BankAccount.self,
            "PaymentSourceList": PaymentSourceList.self, "Event": Event.self, "EventData": EventData.self,
            "StripeError": StripeError.self, "ExpandableCustomer": ExpandableCustomer.self, "PaymentSource": PaymentSource.self,
        ]),
    ]

    static let specsFolder = TestEnvironment.repositoryRoot.appendingPathComponent("Specs")

    static func spec(of service: Service) throws -> ServiceSpec {
        let loaded = SpecLoader().loadSpec(at: specsFolder.appendingPathComponent("\(service.name).yaml"))
        #expect(loaded.diagnostics.renderedLines == [])
        return try #require(loaded.spec)
    }

    @Test("The list of types holds every model and error schema of the spec", arguments: services)
    func everyModelIsListed(service: Service) throws {
        let spec = try Self.spec(of: service)
        let names = Set(spec.models.map(\.swiftName.name) + spec.errorSchemas.map(\.swiftName.name))
        #expect(Set(service.types.keys) == names)
    }

    @Test("Every model decodes from JSON the spec describes and round-trips through its own Codable", arguments: services)
    func everyModelRoundTrips(service: Service) throws {
        let spec = try Self.spec(of: service)
        let samples = SampleJSON.Builder(spec: spec)
        var checked = 0
        for (name, type) in service.types.sorted(by: { $0.key < $1.key }) {
            for (variant, json) in samples.samples(ofTypeNamed: name) {
                let what = "\(service.name).\(name) (\(variant))"
                do {
                    #expect(try type.roundTrips(Data(json.text.utf8), coding: service.coding), "\(what) changed: \(json.text)")
                } catch {
                    Testing.Issue.record("\(what): \(error)\n\(json.text)")
                }
                checked += 1
            }
        }
        #expect(checked >= service.types.count)
    }

    @Test("A request body and form fields still leave read-only properties out")
    func requestsLeaveReadOnlyOut() throws {
        let charge = Charge(id: "ch_1", object: "charge", amount: 5, currency: "usd", paid: true, captured: true,
                            status: "succeeded", metadata: [:], livemode: false, created: Date(timeIntervalSince1970: 0))
        let coding = StripeClient().client.configuration.coding
        // The value itself keeps them.
        let stored = try JSONSerialization.jsonObject(with: coding.makeEncoder().encode(charge)) as? [String: Any]
        #expect(stored?["id"] as? String == "ch_1")
        #expect(stored?["created"] != nil)
        // A request leaves them out.
        let sent = try JSONSerialization.jsonObject(with: coding.makeRequestEncoder().encode(charge)) as? [String: Any]
        #expect(sent.map { Set($0.keys) } == Set(["amount", "currency", "paid", "captured", "status", "metadata"]))
        let fields = try FormEncoder(coding: coding).pairs(charge).map(\.name)
        #expect(!fields.contains("id") && !fields.contains("object") && !fields.contains("created") && fields.contains("amount"))
    }
}

/// A generated model type, opened from the list by its protocol.
protocol RoundTripping: Codable, Equatable, Sendable {}

extension RoundTripping {
    /// Whether a value decoded from `json` encodes (as a value, not a request) and decodes back
    /// to an equal value.
    static func roundTrips(_ json: Data, coding: JSONCoding) throws -> Bool {
        let decoded = try coding.makeDecoder().decode(Self.self, from: json)
        let again = try coding.makeDecoder().decode(Self.self, from: coding.makeEncoder().encode(decoded))
        return decoded == again
    }
}

extension Book: RoundTripping {}
extension BookshelfAPI.Author: RoundTripping {}
extension NewBook: RoundTripping {}
extension PageLinks: RoundTripping {}
extension PageMeta: RoundTripping {}
extension BookPage: RoundTripping {}
extension Review: RoundTripping {}
extension NewReview: RoundTripping {}
extension LaravelError: RoundTripping {}
extension Genre: RoundTripping {}
extension BookSort: RoundTripping {}
extension Gateway: RoundTripping {}
extension TextChannel: RoundTripping {}
extension VoiceChannel: RoundTripping {}
extension ThreadChannel: RoundTripping {}
extension ThreadMetadata: RoundTripping {}
extension ModifyChannel: RoundTripping {}
extension DiscordAPI.Author: RoundTripping {}
extension DiscordAPI.Message: RoundTripping {}
extension NewMessage: RoundTripping {}
extension DiscordError: RoundTripping {}
extension DiscordRateLimit: RoundTripping {}
extension ChannelType: RoundTripping {}
extension Channel: RoundTripping {}
extension ValidationIssue: RoundTripping {}
extension GitHubAPI.User: RoundTripping {}
extension ContributorActivity: RoundTripping {}
extension WeekActivity: RoundTripping {}
extension License: RoundTripping {}
extension Repository: RoundTripping {}
extension NewRepository: RoundTripping {}
extension Label: RoundTripping {}
extension GitHubAPI.Issue: RoundTripping {}
extension NewIssue: RoundTripping {}
extension IssueUpdate: RoundTripping {}
extension LockIssueBody: RoundTripping {}
extension GitHubError: RoundTripping {}
extension UserType: RoundTripping {}
extension RepositoryAffiliation: RoundTripping {}
extension RepositorySort: RoundTripping {}
extension IssueState: RoundTripping {}
extension IssueStateFilter: RoundTripping {}
extension LockReason: RoundTripping {}
extension FieldIssue: RoundTripping {}
extension Money: RoundTripping {}
extension Category: RoundTripping {}
extension Product: RoundTripping {}
extension MarketplaceAPI.Address: RoundTripping {}
extension OrderLine: RoundTripping {}
extension Order: RoundTripping {}
extension NewOrder: RoundTripping {}
extension NewOrderLine: RoundTripping {}
extension OrderPage: RoundTripping {}
extension Health: RoundTripping {}
extension PlatformError: RoundTripping {}
extension OrderStatus: RoundTripping {}
extension ErrorDetail: RoundTripping {}
extension ChatMessage: RoundTripping {}
extension ChatRequest: RoundTripping {}
extension ChatChoice: RoundTripping {}
extension ChatCompletion: RoundTripping {}
extension ChunkDelta: RoundTripping {}
extension ChunkChoice: RoundTripping {}
extension ChatCompletionChunk: RoundTripping {}
extension FileObject: RoundTripping {}
extension FileUpload: RoundTripping {}
extension UploadPart: RoundTripping {}
extension FileList: RoundTripping {}
extension OpenAIError: RoundTripping {}
extension ChatRole: RoundTripping {}
extension FilePurpose: RoundTripping {}
extension QiitaAPI.User: RoundTripping {}
extension Tagging: RoundTripping {}
extension Item: RoundTripping {}
extension NewItem: RoundTripping {}
extension QiitaAPI.Comment: RoundTripping {}
extension QiitaAPI.Tag: RoundTripping {}
extension PostCommentBody: RoundTripping {}
extension QiitaError: RoundTripping {}
extension ResponseMetadata: RoundTripping {}
extension PostMessageRequest: RoundTripping {}
extension SlackAPI.Message: RoundTripping {}
extension PostMessageResponse: RoundTripping {}
extension Conversation: RoundTripping {}
extension ConversationInfoResponse: RoundTripping {}
extension ConversationListResponse: RoundTripping {}
extension SlackError: RoundTripping {}
extension StripeObject: RoundTripping {}
extension ChargeRequest: RoundTripping {}
extension Charge: RoundTripping {}
extension Customer: RoundTripping {}
extension NewCustomer: RoundTripping {}
extension StripeAPI.Address: RoundTripping {}
extension TaxIDData: RoundTripping {}
extension CreatedFilter: RoundTripping {}
extension CustomerList: RoundTripping {}
extension DeletedCustomer: RoundTripping {}
extension Card: RoundTripping {}
extension BankAccount: RoundTripping {}
extension PaymentSourceList: RoundTripping {}
extension Event: RoundTripping {}
extension EventData: RoundTripping {}
extension StripeError: RoundTripping {}
extension ExpandableCustomer: RoundTripping {}
extension PaymentSource: RoundTripping {}

/// A JSON value written for a test, in the spelling a server would send.
indirect enum SampleJSON {
    case string(String)
    case number(String)
    case bool(Bool)
    case array([SampleJSON])
    case object([(String, SampleJSON)])

    /// The JSON text.
    var text: String {
        switch self {
        case .string(let text):
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        case .number(let text): return text
        case .bool(let value): return value ? "true" : "false"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .object(let members): return "{" + members.map { "\"\($0.0)\": \($0.1.text)" }.joined(separator: ", ") + "}"
        }
    }

    /// Builds JSON for the models of one spec from their declarations.
    struct Builder {
        var spec: ServiceSpec

        /// Samples of the type with this Swift name, each named: an object with every optional
        /// property set and one with none set; one per variant of a union; one for an enum.
        func samples(ofTypeNamed name: String) -> [(String, SampleJSON)] {
            if let schema = spec.errorSchemas.first(where: { $0.swiftName.name == name }) {
                return [("every field", object(schema.properties, filled: true, visiting: [])),
                        ("required fields", object(schema.properties, filled: false, visiting: []))]
            }
            guard let model = spec.models.first(where: { $0.swiftName.name == name }) else { return [] }
            switch model.kind {
            case .object(let properties):
                return [("every field", object(properties, filled: true, visiting: [model.name])),
                        ("required fields", object(properties, filled: false, visiting: [model.name]))]
            case .union(let union):
                return union.variants.map { variant in
                    ("variant \(variant.swiftName.name)", self.variant(variant, of: union, visiting: [model.name]))
                }
            case .stringEnum, .numberEnum, .composition:
                return [("value", value(of: .named(model.name), visiting: []) ?? .object([]))]
            }
        }

        func object(_ properties: [PropertySpec], filled: Bool, visiting: Set<String>) -> SampleJSON {
            var members: [(String, SampleJSON)] = []
            for property in properties where filled || property.isRequired {
                guard let value = value(of: property.type.nonOptional, dates: property.dates, visiting: visiting) else { continue }
                members.append((property.jsonKey, value))
            }
            return .object(members)
        }

        func variant(_ variant: UnionVariantSpec, of union: UnionSpec, visiting: Set<String>) -> SampleJSON {
            let sample = value(of: variant.type, visiting: visiting) ?? .object([])
            guard let discriminator = union.discriminator, let tag = variant.tags.first, case .object(var members) = sample else {
                return sample
            }
            let tagValue: SampleJSON = switch tag {
            case .string(let text): .string(text)
            case .integer(let number): .number(String(number))
            }
            members.removeAll { $0.0 == discriminator.property }
            members.append((discriminator.property, tagValue))
            return .object(members)
        }

        /// A value of `type`; `nil` where a model would contain itself without end, which an
        /// optional property then leaves out (a required one cannot, by validation).
        func value(of type: TypeReference, dates: PropertyDateFormat? = nil, visiting: Set<String>) -> SampleJSON? {
            switch type {
            case .optional(let wrapped):
                return value(of: wrapped, dates: dates, visiting: visiting)
            case .array(let element):
                return .array(value(of: element, visiting: visiting).map { [$0] } ?? [])
            case .map(let element):
                return .object(value(of: element, visiting: visiting).map { [("key", $0)] } ?? [])
            case .primitive(let primitive):
                return Self.value(of: primitive, dates: dates, serviceDates: spec.coding.dates)
            case .named(let name):
                if visiting.contains(name) { return nil }
                if let schema = spec.errorSchemas.first(where: { $0.name == name }) {
                    return object(schema.properties, filled: true, visiting: visiting)
                }
                guard let model = spec.models.first(where: { $0.name == name }) else { return nil }
                switch model.kind {
                case .object(let properties):
                    return object(properties, filled: true, visiting: visiting.union([name]))
                case .stringEnum(let cases):
                    return .string(cases.first?.value ?? "")
                case .numberEnum(_, let cases):
                    return .number(cases.first?.value ?? "0")
                case .union(let union):
                    return union.variants.first.map { variant($0, of: union, visiting: visiting.union([name])) }
                case .composition:
                    return nil
                }
            }
        }

        /// 2024-05-01T12:00:00Z in each format, a whole second so that every format keeps it.
        static func value(of primitive: PrimitiveType, dates: PropertyDateFormat?,
                          serviceDates: CodingSpec.DateStrategy) -> SampleJSON? {
            switch primitive {
            case .string: return .string("text")
            case .int, .int64: return .number("7")
            case .double: return .number("1.5")
            case .bool: return .bool(true)
            case .url: return .string("https://example.com/a")
            case .data: return .string("AAEC")
            case .json: return .object([("k", .array([.number("1"), .string("x"), .bool(false)]))])
            case .date:
                switch dates ?? PropertyDateFormat(rawValue: serviceDates.rawValue) ?? .iso8601 {
                case .iso8601: return .string("2024-05-01T12:00:00Z")
                case .iso8601WithFractionalSeconds: return .string("2024-05-01T12:00:00.250Z")
                case .epochSeconds: return .number("1714564800")
                case .date: return .string("2024-05-01")
                }
            default:
                return nil
            }
        }
    }
}
