import Foundation
import Yams

// Composes each YAML (or JSON) file named on the command line into Yams nodes, as every YAML
// reader must before it can do anything else: the floor a generator's time is compared with.
for path in CommandLine.arguments.dropFirst() {
    do {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let node = try Yams.compose(yaml: text) else {
            FileHandle.standardError.write(Data("\(path): empty document\n".utf8))
            exit(1)
        }
        print("\(path): \(node.mapping?.count ?? 0) top-level keys")
    } catch {
        FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
        exit(1)
    }
}
