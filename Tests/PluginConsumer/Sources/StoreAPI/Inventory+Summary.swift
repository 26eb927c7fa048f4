// The target's own code beside the generated client. SwiftPM skips a target that has no Swift
// file of its own, so a target whose client comes only from openapi.yaml needs at least this.

extension Inventory {
    /// A line for a status bar: how many pets are available, and whether the store is open.
    public var summary: String {
        "\(available) available, \(status?.rawValue ?? "unknown")"
    }
}
