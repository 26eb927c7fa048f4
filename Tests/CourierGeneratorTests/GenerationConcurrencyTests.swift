@testable import CourierGenerator
import CourierTestSupport
import Dispatch
import Foundation
import SyntheticSpecs
import Testing

/// Generation shares the concurrency pool instead of holding a thread of it: it runs on an
/// executor one thread wide, and another task on that executor, woken just as rendering
/// begins, must get its turn before the last file is rendered. Rendering that blocked its
/// thread until every file was done (a blocking parallel loop of Dispatch inside a task) would
/// keep that task waiting to the end, as it keeps a pool thread from every other task.
@Suite struct GenerationConcurrencyTests {
    @Test("Another task on the same one-thread executor runs while the files render")
    func renderingDoesNotHoldItsThread() async throws {
        let synthetic = try SyntheticSpecGenerator(SyntheticSpecConfiguration(endpoints: 30, propertiesPerModel: 4)).generate()
        let folder = try TemporaryFolder()
        let path = try folder.write(synthetic.yaml, to: "Synthetic.yaml")
        // Parts of at most four declarations, so that there are many files to render.
        let generator = try Generator(options: GenerationOptions(declarationsPerFile: 4))
        let events = LockedValues<String>()
        let (renderingBegan, begin) = AsyncStream<Void>.makeStream()
        let executor = OneThreadExecutor()

        let results = await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: [GenerationResult].self) { group in
                group.addTask {
                    for await _ in renderingBegan {
                        events.append("other task")
                        break
                    }
                    return []
                }
                group.addTask {
                    let results = await generator.generate(specs: [SpecInput(url: URL(fileURLWithPath: path), displayPath: "Synthetic.yaml")]) { progress in
                        guard case .rendering(let done, let total) = progress.stage else { return }
                        events.append("rendered \(done) of \(total)")
                        if done == 0 { begin.yield() }
                    }
                    begin.finish()
                    return results
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
        }

        let result = try #require(results.first)
        #expect(result.succeeded, "\(result.diagnostics.renderedLines)")
        let files = result.files.count
        #expect(files > 8)
        let order = events.all
        let other = try #require(order.firstIndex(of: "other task"), "\(order)")
        let last = try #require(order.firstIndex(of: "rendered \(files) of \(files)"), "\(order)")
        #expect(other < last, "the other task waited until every file was rendered: \(order)")
    }
}

/// A task executor one thread wide: jobs run one at a time, in the order they arrive, on one
/// serial queue, as on a pool whose every other thread is busy.
final class OneThreadExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "courier.tests.one-thread-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

