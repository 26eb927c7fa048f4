/// `1 file`, `2 files`: a count and a noun that takes a plain `s`, for the summaries the
/// generator and the CLI print.
package func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
