extension Task where Failure == Never {
    /// The task's value; when the awaiting test is cancelled (at its time limit) the task is
    /// cancelled too.
    ///
    /// A test that drives a retry loop on a `ManualClock` awaits the loop's own task. Cut off at
    /// its time limit, such a test stops advancing the clock, and a plain `await task.value` then
    /// waits forever for a sleep nobody will end: one starved test on a loaded machine turned into
    /// a suite that never finished. Cancelling the task ends its sleep, so the test fails instead.
    var valueCancellingWithCaller: Success {
        get async {
            await withTaskCancellationHandler { await value } onCancel: { cancel() }
        }
    }
}
