import Scenarios

/// What a person sees of a room (`event: room`, `GET /api/rooms/{rid}`): the teacher the answer
/// before it is revealed and the class's answers; a student their own answer.
struct RoomView: Encodable, Sendable {
    struct Question: Encodable, Sendable {
        let id: Int
        let stream: String
        let from: Double
        let frame: Int
        let frames: Int
        let letters: [String: JSONValue]
        let revealed: Bool
        let truth: String?
        /// The vote: 1, or 2 once asked again (``RoomQuestion/round``).
        let round: Int
        /// The lesson's input rows over the question's frames: what the class predicts from.
        let rows: [RoomQuestion.Row]
    }

    struct You: Encodable, Sendable {
        let name: String
        let answer: String?
        let right: Bool?
        /// In the second vote: the answer given in the first.
        var first: String? = nil
        /// At the reveal: the teacher's note to those whose answer missed what theirs did.
        var note: String? = nil
    }

    struct Class: Encodable, Sendable {
        let answered: Int
        let right: Int
        let wrong: [ClassTally.Group]
        /// The wrong answers by what they missed (``Misconception``), whatever their marbles.
        let missed: [ClassTally.MisconceptionGroup]
        let heat: [Int]
        /// In the second vote: the first's counts and how the class moved since.
        let movement: RoomMovement?
    }

    /// The lessons a room follows, and which it shows now.
    struct Course: Encodable, Sendable {
        struct Lesson: Encodable, Sendable {
            let id: String
            let title: String
        }
        let title: String?
        let lessons: [Lesson]
        let current: Int
    }

    let id: String
    let title: String
    let code: String
    let origin: Room.Origin
    let course: Course?
    let session: String
    let students: Int
    let question: Question?
    let suggested: Room.SuggestedQuestion?
    let you: You?
    let `class`: Class?
    /// The audience view's alone, while a question is asked: how many have answered.
    let answered: Int?
    /// The teacher's alone: the key of the audience view, for the projector (it controls nothing).
    let audienceKey: String?
    /// The teacher closed the door: nobody new joins.
    let locked: Bool
    let ended: Bool
}
