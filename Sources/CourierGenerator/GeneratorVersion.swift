/// The version of the generator, written into every generated file's header.
package enum GeneratorVersion {
    /// The semantic version of this Courier release.
    package static let current = "0.1.0"
}
