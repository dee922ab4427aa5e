import Foundation

/// A room's questions: the teacher asks and reveals, students answer, on the room's state under
/// its lock (``Room``). Apart from the room's people and streams because asking is its own job:
/// what a question may be is ``RoomQuestion``'s, how answers add up is ``ClassTally``'s.
extension Room {
    /// Why an answer or a question was refused.
    enum QuestionRefusal: Error {
        case noQuestion
        case revealed
        case wrongQuestion
        case rateExceeded
        case ended
        case invalid(RoomQuestion.AnswerError)
        /// The question is in its second vote already.
        case secondRound
    }

    /// The next question's number.
    func takeQuestionNumber() -> Int {
        state.withLock { state in
            defer { state.nextQuestion += 1 }
            return state.nextQuestion
        }
    }

    /// Asks `question` (replacing any other): every student sees it at once.
    func ask(_ question: RoomQuestion) -> Bool {
        state.withLock { state in
            guard !state.isEnded else { return false }
            archiveQuestion(&state)
            state.question = question
            state.tally = ClassTally(frames: question.frames)
            state.firstRound = nil
            state.lastActivity = .now
            changed(&state, students: true)
            return true
        }
    }

    /// Asks the question again, as its second vote: the first vote's answers are kept apart
    /// (``State/firstRound``), nobody has answered the second yet, and nothing is revealed — the
    /// class talked it over (Peer Instruction). Once only, before the reveal.
    func askAgain() -> Result<RoomQuestion, QuestionRefusal> {
        state.withLock { state in
            guard !state.isEnded else { return .failure(.ended) }
            guard let question = state.question else { return .failure(.noQuestion) }
            guard !question.isRevealed else { return .failure(.revealed) }
            guard question.round == 1 else { return .failure(.secondRound) }
            state.firstRound = state.tally
            state.tally = ClassTally(frames: question.frames)
            state.question!.round = 2
            state.lastActivity = .now
            changed(&state, students: true)
            return .success(state.question!)
        }
    }

    /// Sets (or, with `nil`, takes back) the teacher's note to the students whose wrong answer to
    /// the question asked missed `group`: they read it at the reveal, at once if it is out.
    func note(_ note: String?, for group: Misconception) -> Result<Void, QuestionRefusal> {
        state.withLock { state in
            guard !state.isEnded else { return .failure(.ended) }
            guard state.question != nil else { return .failure(.noQuestion) }
            state.question!.notes[group] = note
            state.lastActivity = .now
            changed(&state, students: state.question!.isRevealed)
            return .success(())
        }
    }

    /// Reveals the question's answer: students see it over theirs, and answer no more.
    func reveal() -> Result<RoomQuestion, QuestionRefusal> {
        state.withLock { state in
            guard !state.isEnded else { return .failure(.ended) }
            guard state.question != nil else { return .failure(.noQuestion) }
            state.question!.isRevealed = true
            state.lastActivity = .now
            changed(&state, students: true)
            return .success(state.question!)
        }
    }

    /// `student`'s answer to question `number`: whether it is right is known, but said only at the reveal.
    func answer(_ marbles: String, to number: Int, from student: Int) -> Result<Void, QuestionRefusal> {
        state.withLock { state in
            guard !state.isEnded else { return .failure(.ended) }
            guard let question = state.question else { return .failure(.noQuestion) }
            guard question.id == number else { return .failure(.wrongQuestion) }
            guard !question.isRevealed else { return .failure(.revealed) }
            let events: [LessonRuns.Read]
            switch question.read(marbles) {
            case .failure(let error): return .failure(.invalid(error))
            case .success(let read): events = read
            }
            let now = ContinuousClock.now
            guard state.students[student]?.answers.take(at: now) == true else { return .failure(.rateExceeded) }
            state.tally.set(student, marbles: marbles, events: events, truth: question.truthEvents, sources: question.sources)
            state.lastActivity = now
            changed(&state, students: false, only: student)
            return .success(())
        }
    }

    /// Keeps the question asked, with its answers, for the report (it is being replaced), letting
    /// the oldest go past ``RoomReport/maximumBytes``.
    func archiveQuestion(_ state: inout State) {
        guard let question = state.question else { return }
        let kept = RoomReport.question(question, first: state.firstRound, tally: state.tally, names: state.students.mapValues(\.name))
        state.reported.append(kept)
        state.reportedBytes += kept.bytes
        while state.reportedBytes > RoomReport.maximumBytes, !state.reported.isEmpty {
            state.reportedBytes -= state.reported.removeFirst().bytes
            state.reportDropped += 1
        }
    }

    /// The report: every question kept, and the one asked now as it stands.
    var report: RoomReport {
        state.withLock { state in
            let names = state.students.mapValues(\.name)
            let now = state.question.map { RoomReport.question($0, first: state.firstRound, tally: state.tally, names: names) }
            return RoomReport(title: title, questions: state.reported + (now.map { [$0] } ?? []), dropped: state.reportDropped)
        }
    }
}
