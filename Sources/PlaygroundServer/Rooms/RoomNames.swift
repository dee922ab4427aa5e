/// How a room keeps its students' names apart: each name once, the second `Ada` as `Ada (2)`.
extension Room {
    /// `name`, or `NAME (k)` with the first suffix not taken: each name's next suffix is kept, so
    /// the suffixes tried for it, over all joins, are those taken by people who chose them.
    static func unique(_ name: String, in state: inout State) -> String {
        guard state.names.contains(name) else { return name }
        var suffix = state.nextSuffix[name, default: 2]
        while state.names.contains("\(name) (\(suffix))") { suffix += 1 }
        state.nextSuffix[name] = suffix + 1
        return "\(name) (\(suffix))"
    }
}
