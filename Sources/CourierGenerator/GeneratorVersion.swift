/// The version of the generator, written into every generated file's header.
public enum GeneratorVersion {
    /// The semantic version of this Courier release.
    public static let current = "0.1.0"
}
