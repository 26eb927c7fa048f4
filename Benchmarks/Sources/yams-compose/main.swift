import Foundation
import Yams

// Composes each YAML (or JSON) file named on the command line into Yams nodes, as Courier's
// reader does before it can do anything else: with the basic resolver, which leaves every scalar
// a string (resolving each scalar's type, Yams' default, costs several times more and is work
// Courier never asks for).
for path in CommandLine.arguments.dropFirst() {
    do {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let node = try Yams.compose(yaml: text, .basic) else {
            FileHandle.standardError.write(Data("\(path): empty document\n".utf8))
            exit(1)
        }
        print("\(path): \(node.mapping?.count ?? 0) top-level keys")
    } catch {
        FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
        exit(1)
    }
}
