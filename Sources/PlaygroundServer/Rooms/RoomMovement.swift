/// How a class moved between a question's two votes (Peer Instruction: vote alone, discuss, vote
/// again; docs/ROOMS.md, "Two votes"): the first vote's counts and, among the students who
/// answered both, how many went from right or wrong to right or wrong, with the class's
/// normalized change.
struct RoomMovement: Encodable, Sendable, Equatable {
    let firstAnswered: Int
    let firstRight: Int
    let rightToRight: Int
    let wrongToRight: Int
    let rightToWrong: Int
    let wrongToWrong: Int
    /// Hake's normalized gain over the students who answered both votes: (post − pre) / (1 − pre),
    /// `pre` and `post` the fractions right in each — the share of what could be gained that was;
    /// nil when every one of them was right at first, or nobody answered both.
    let normalizedChange: Double?

    /// The movement from the `first` vote's verdicts to the `second`'s (student → right).
    init(first: [Int: Bool], second: [Int: Bool]) {
        firstAnswered = first.count
        firstRight = first.values.filter { $0 }.count
        var moves = (rr: 0, wr: 0, rw: 0, ww: 0)
        for (student, before) in first {
            guard let after = second[student] else { continue }
            switch (before, after) {
            case (true, true): moves.rr += 1
            case (false, true): moves.wr += 1
            case (true, false): moves.rw += 1
            case (false, false): moves.ww += 1
            }
        }
        (rightToRight, wrongToRight, rightToWrong, wrongToWrong) = moves
        let both = Double(moves.rr + moves.wr + moves.rw + moves.ww)
        let pre = Double(moves.rr + moves.rw) / both
        let post = Double(moves.rr + moves.wr) / both
        normalizedChange = both == 0 || pre == 1 ? nil : (post - pre) / (1 - pre)
    }
}
