/// How far generating one spec has come, reported to a ``Generator/generate(specs:progress:)``
/// caller as it happens, so that a long run (thousands of endpoints, or many specs) can show it.
///
/// The generator only reports; drawing (a terminal line, a log) is the caller's business.
package struct GenerationProgress: Sendable, Equatable {
    /// The stages of one spec, in the order they are reported.
    package enum Stage: Sendable, Equatable {
        /// Reading the spec and the files it includes or refers to.
        case reading
        /// Validating the whole service.
        case validating
        /// Deciding names and types for every generated declaration.
        case translating
        /// Rendering the Swift files: `done` of `total` rendered so far.
        case rendering(done: Int, total: Int)
        /// Done with this spec, successfully or with diagnostics.
        case finished
    }

    /// The spec's path as the caller named it (``SpecInput/displayPath``).
    package var specPath: String
    /// The spec's position in the run, from 0.
    var specIndex: Int
    /// How many specs the run has.
    package var specCount: Int
    /// Where the spec is.
    package var stage: Stage

    /// A progress report.
    package init(specPath: String, specIndex: Int, specCount: Int, stage: Stage) {
        self.specPath = specPath
        self.specIndex = specIndex
        self.specCount = specCount
        self.stage = stage
    }
}

/// Receives ``GenerationProgress`` reports. Called from several threads at once when specs or
/// files are generated in parallel, but each spec's reports arrive in order; keep it quick.
package typealias GenerationProgressHandler = @Sendable (GenerationProgress) -> Void
