import Dispatch
import Locking
import Reactive
import Testing

@testable import Pipelines

/// `deliver(on: scheduler)` and `subscribe(on: scheduler)`, RAC's `deliverOn:` and `subscribeOn:`,
/// over the program's two named schedulers: each event is delivered under the name of the
/// scheduler that delivered it (read as ``NamedScheduler/currentName`` when it is reported).
@Suite("Pipeline language: deliverOn and subscribeOn")
struct SchedulerHopTests {
    /// Each report of `text`'s run, with the scheduler name current when it was made.
    func run(_ text: String, sending values: [Value] = []) throws -> [(stream: String, report: ReportWithoutID, thread: String?)] {
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let clock = TestScheduler()
        let session = NamedScheduler(clock, name: "session")
        let reports = Lock<[(stream: String, report: ReportWithoutID, thread: String?)]>([])
        let interpreter = try Interpreter(program: program, scheduler: session) { stream, report in
            reports.withLock { $0.append((stream, ReportWithoutID(report), NamedScheduler.currentName)) }
        }
        for (index, value) in values.enumerated() {
            session.schedule(after: .milliseconds(100 * (index + 1))) { interpreter.send(.next(value), to: "x") }
        }
        clock.advance(by: .seconds(1))
        interpreter.stop()
        return reports.withLock { $0 }
    }

    func threads(of stream: String, in reports: [(stream: String, report: ReportWithoutID, thread: String?)]) -> [String?] {
        reports.filter {
            if $0.stream == stream, case .event(.next) = $0.report { return true }
            return false
        }.map(\.thread)
    }

    @Test func deliverOnMovesEachEventToTheNamedScheduler() throws {
        let reports = try run(
            """
            input x: number
            there = x.map { $0 * 2 }.deliver(on: background)
            back = there.deliver(on: session)
            """,
            sending: [1, 2]
        )
        #expect(threads(of: "there", in: reports) == ["background", "background"])
        #expect(threads(of: "back", in: reports) == ["session", "session"])
        let values = reports.filter { $0.stream == "back" }.compactMap { entry -> Value? in
            if case .event(.next(let value)) = entry.report { return value }
            return nil
        }
        #expect(values == [2, 4])
    }

    @Test func subscribeOnMakesTheSubscriptionAndItsWorkOnTheScheduler() throws {
        let reports = try run(
            """
            work = just("done").subscribe(on: background)
            """
        )
        #expect(threads(of: "work", in: reports) == ["background"])
        // The stream itself is subscribed where the program starts; what it reads, on the queue.
        let subscribed = reports.first { $0.stream == "work" && $0.report == .subscribed }
        #expect(subscribed != nil && subscribed?.thread != "background")
    }

    /// A loop that hops to the background queue at each turn runs as many tiny pieces of work,
    /// which readings every few steps would never span: each piece is measured on its own.
    @Test func workHandedToTheBackgroundQueueIsChargedToTheProgram() throws {
        let (program, _) = PipelineLanguage.parse("x = just(1).subscribe(on: background).repeat().map { $0 + 1 }")
        let ended = DispatchSemaphore(value: 0)
        let failure = Lock<PipelineFailure?>(nil)
        // Steps enough for minutes; CPU time for a twentieth of a second.
        let limits = StepBudget.Limits(capacity: 1e12, perSecond: 1e12, cpuCapacity: 0.05, cpuPerSecond: 0.001)
        let interpreter = try Interpreter(
            program: program,
            // As the server has them: each piece of work on either thread is a piece of its own.
            scheduler: RunLoopScheduler(name: "test.session"),
            background: NamedScheduler(QueueScheduler(label: "test.background"), name: "background"),
            limits: limits
        ) { stream, event in
            guard stream == "x", case .error(let error) = event else { return }
            failure.withLock { $0 = error }
            ended.signal()
        }
        let halted = ended.wait(timeout: .now() + 10) == .success
        interpreter.stop()
        #expect(halted, "the loop was still running after 10 s")
        #expect(failure.withLock { $0?.code } == "budget_exceeded")
        #expect(failure.withLock { $0?.message.contains("CPU") == true || $0?.message.contains("thread's time") == true })
    }

    /// RAC's spelling (`deliverOn(background)`) is the same operator: programs written with it run.
    @Test func racsSpellingIsTheSameOperator() throws {
        let reports = try run(
            """
            input x: number
            there = x.deliverOn(background)
            work = just("done").subscribeOn(background)
            """,
            sending: [1]
        )
        #expect(threads(of: "there", in: reports) == ["background"])
        #expect(threads(of: "work", in: reports) == ["background"])
        for (text, message) in [
            ("input x: text\ny = x.deliver(background)", "`deliver` takes (on:), not (_)"),
            ("input x: text\ny = x.deliverOn(on: background)", "`deliverOn` takes (_), not (on:)"),
        ] {
            let (program, diagnostics) = PipelineLanguage.parse(text)
            let all = diagnostics + Interpreter.validate(program)
            #expect(all.contains { $0.severity == .error && $0.message.contains(message) }, "\(text): \(all.map(\.message))")
        }
    }

    @Test func onlyTheProgramsSchedulersAreNamedAndOnlyThere() {
        for (text, message) in [
            ("input x: text\ny = x.deliver(on: mainThread)", "unknown name `mainThread`"),
            ("input x: text\ny = x.deliver(on: x)", "`deliver` needs a scheduler here: `session` or `background`"),
            ("input x: text\ny = x.deliverOn(\"background\")", "`deliverOn` needs a scheduler here"),
            ("input x: text\ny = background", "background"),
            ("input background: text\ny = background.map { $0 }", "background"),
        ] {
            let (program, diagnostics) = PipelineLanguage.parse(text)
            let all = diagnostics + Interpreter.validate(program)
            #expect(all.contains { $0.severity == .error && $0.message.contains(message) }, "\(text): \(all.map(\.message))")
        }
    }
}
