/// A directed graph of model names, for finding recursion without recursing: specs can chain
/// thousands of models, which would overflow the stack of a recursive search.
struct ReferenceGraph {
    /// The nodes in declaration order.
    let nodes: [String]
    /// The targets of each node's edges.
    let edges: [String: [String]]

    /// The strongly connected components (Tarjan's algorithm, iteratively).
    func stronglyConnectedComponents() -> [[String]] {
        var index = 0
        var indices: [String: Int] = [:]
        var lowLinks: [String: Int] = [:]
        var onStack = Set<String>()
        var stack: [String] = []
        var components: [[String]] = []

        for root in nodes where indices[root] == nil {
            // Each frame is a node and the position of the next edge to follow.
            var frames: [(node: String, nextEdge: Int)] = [(root, 0)]
            indices[root] = index
            lowLinks[root] = index
            index += 1
            stack.append(root)
            onStack.insert(root)

            while let frame = frames.last {
                let targets = edges[frame.node] ?? []
                if frame.nextEdge < targets.count {
                    frames[frames.count - 1].nextEdge += 1
                    let target = targets[frame.nextEdge]
                    if indices[target] == nil {
                        indices[target] = index
                        lowLinks[target] = index
                        index += 1
                        stack.append(target)
                        onStack.insert(target)
                        frames.append((target, 0))
                    } else if onStack.contains(target), let targetIndex = indices[target] {
                        lowLinks[frame.node] = min(lowLinks[frame.node] ?? targetIndex, targetIndex)
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last, let low = lowLinks[frame.node] {
                    lowLinks[parent.node] = min(lowLinks[parent.node] ?? low, low)
                }
                if lowLinks[frame.node] == indices[frame.node] {
                    var component: [String] = []
                    while let member = stack.popLast() {
                        onStack.remove(member)
                        component.append(member)
                        if member == frame.node { break }
                    }
                    components.append(component)
                }
            }
        }
        return components
    }

    /// The nodes that lie on a cycle: members of a component with several nodes, or with an edge to itself.
    func nodesOnCycles() -> Set<String> {
        var result = Set<String>()
        for component in stronglyConnectedComponents() {
            if component.count > 1 {
                result.formUnion(component)
            } else if let only = component.first, edges[only]?.contains(only) == true {
                result.insert(only)
            }
        }
        return result
    }

    /// A shortest cycle from `start` back to itself, staying inside `allowed`, as the list of
    /// nodes visited (starting with `start`); `nil` when there is none.
    func cycle(through start: String, within allowed: Set<String>) -> [String]? {
        var parents: [String: String] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for target in edges[node] ?? [] where allowed.contains(target) {
                if target == start {
                    var path = [node]
                    while let parent = parents[path[0]] { path.insert(parent, at: 0) }
                    return path
                }
                if parents[target] == nil && target != start {
                    parents[target] = node
                    queue.append(target)
                }
            }
        }
        return nil
    }
}
