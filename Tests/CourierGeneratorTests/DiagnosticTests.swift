@testable import CourierGenerator
import Testing

@Suite struct DiagnosticTests {
    @Test func rendersInCompilerFormat() {
        let location = SourceLocation(file: "Specs/x.yaml", line: 12, column: 5)
        #expect(Diagnostic.error("something is wrong", at: location).description == "Specs/x.yaml:12:5: error: something is wrong")
        #expect(Diagnostic.warning("odd", at: location).description == "Specs/x.yaml:12:5: warning: odd")
        #expect(Diagnostic.note("here", at: location).description == "Specs/x.yaml:12:5: note: here")
    }

    @Test func notesFollowTheirDiagnostic() {
        let error = Diagnostic.error("declared twice", at: SourceLocation(file: "a.yaml", line: 9, column: 3),
                                     notes: [.note("first declared here", at: SourceLocation(file: "a.yaml", line: 2, column: 3))])
        #expect(error.renderedLines == ["a.yaml:9:3: error: declared twice", "a.yaml:2:3: note: first declared here"])
    }

    @Test func collectorKeepsWarningsApartAndSortsBySource() {
        var collector = DiagnosticCollector()
        collector.report(.error("second", at: SourceLocation(file: "a.yaml", line: 5, column: 1)))
        collector.report(.warning("first", at: SourceLocation(file: "a.yaml", line: 2, column: 1)))
        #expect(collector.errors.map(\.message) == ["second"])
        #expect(collector.warnings.map(\.message) == ["first"])
        #expect(collector.hasErrors)
        #expect(collector.renderedLines == ["a.yaml:2:1: warning: first", "a.yaml:5:1: error: second"])
    }

    @Test func collectorCapsErrorsAndCountsTheRest() {
        var collector = DiagnosticCollector()
        for line in 1...57 {
            collector.report(.error("problem \(line)", at: SourceLocation(file: "a.yaml", line: line, column: 1)))
        }
        collector.report(.warning("a warning", at: SourceLocation(file: "a.yaml", line: 100, column: 1)))
        #expect(collector.errors.count == 50)
        #expect(collector.errorCount == 57)
        #expect(collector.suppressedErrorCount == 7)
        let lines = collector.renderedLines
        #expect(lines.last == "7 more errors not shown")
        #expect(lines.contains("a.yaml:100:1: warning: a warning"))
        #expect(lines.count == 52)
    }

    @Test func singularSuppressedCount() {
        var collector = DiagnosticCollector(errorLimit: 1)
        collector.report(.error("one", at: .start(of: "a.yaml")))
        collector.report(.error("two", at: SourceLocation(file: "a.yaml", line: 2, column: 1)))
        #expect(collector.renderedLines == ["a.yaml:1:1: error: one", "1 more error not shown"])
    }

    @Test func mergingKeepsTheCapAndDropsRepeats() {
        var first = DiagnosticCollector(errorLimit: 3)
        for line in 1...5 { first.report(.error("e\(line)", at: SourceLocation(file: "a.yaml", line: line, column: 1))) }
        var run = DiagnosticCollector(errorLimit: 3)
        run.report(.error("e1", at: SourceLocation(file: "a.yaml", line: 1, column: 1)))
        run.merge(first)
        #expect(run.errors.map(\.message) == ["e1", "e2", "e3"])
        #expect(run.errorCount == 5)
    }
}
