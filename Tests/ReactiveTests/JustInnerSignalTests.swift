import Locking
import Reactive
import Testing

/// The flattening operators deliver a `Signal.just` inner signal's value without subscribing to it
/// (RAC keeps `+return:` signals apart, as `RACReturnSignal`). What a subscriber sees must be what
/// subscribing would have given: each script below runs twice, once with `just` inner signals and
/// once with signals that send the same value and complete from a subscribe closure, and the two
/// logs — downstream events and the disposal of every other inner signal — must be equal.
@Suite("Flattening `just` inner signals without subscribing to them")
struct JustInnerSignalTests {
    enum Step {
        /// The outer signal sends a single-value inner signal.
        case single(Int)
        /// The outer signal sends inner signal `index`, a subject of the run's.
        case subject(Int)
        case sendInto(subject: Int, value: Int)
        case complete(subject: Int)
        case fail(subject: Int)
        case completeOuter
        case dispose
    }

    /// Runs `steps` through `strategy` and returns what happened, in order.
    func log(_ strategy: FlattenStrategy, _ steps: [Step], singlesAreJust: Bool) -> [String] {
        let log = Lock<[String]>([])
        let outer = Subject<Signal<Int, TestError>, TestError>()
        let subjects = (0..<4).map { _ in Subject<Int, TestError>() }
        let subscription = outer.signal.flatten(strategy).subscribe(
            Subscriber { event in log.withLock { $0.append("\(event)") } }
        )
        for step in steps {
            switch step {
            case .single(let value):
                if singlesAreJust {
                    outer.sendNext(.just(value))
                } else {
                    outer.sendNext(
                        Signal { subscriber in
                            subscriber.sendNext(value)
                            subscriber.sendCompleted()
                            return nil
                        }
                    )
                }
            case .subject(let index):
                let source = subjects[index].signal
                outer.sendNext(
                    Signal { subscriber in
                        source.subscribe(subscriber)
                        return ActionDisposable { log.withLock { $0.append("inner \(index) disposed") } }
                    }
                )
            case .sendInto(let index, let value): subjects[index].sendNext(value)
            case .complete(let index): subjects[index].sendCompleted()
            case .fail(let index): subjects[index].sendError(TestError(code: index))
            case .completeOuter: outer.sendCompleted()
            case .dispose: subscription.dispose()
            }
        }
        return log.withLock { $0 }
    }

    func expectSameLogs(_ steps: [Step], _ comment: Comment? = nil) {
        for strategy in [FlattenStrategy.merge, .concat, .latest, .concurrent(limit: 2)] {
            let withJust = log(strategy, steps, singlesAreJust: true)
            let subscribed = log(strategy, steps, singlesAreJust: false)
            #expect(withJust == subscribed, "\(strategy) \(comment?.rawValue ?? "")")
        }
    }

    @Test func aSingleAfterARunningInnerDisposesItFirst() {
        let steps: [Step] = [.subject(0), .sendInto(subject: 0, value: 1), .single(2), .sendInto(subject: 0, value: 3)]
        expectSameLogs(steps)
        #expect(
            log(.latest, steps, singlesAreJust: true) == ["next(1)", "inner 0 disposed", "next(2)"],
            "the replaced inner is disposed before the single's value arrives"
        )
    }

    @Test func singlesWaitTheirTurnBehindARunningInner() {
        let steps: [Step] = [
            .subject(0), .single(1), .single(2), .sendInto(subject: 0, value: 0), .complete(subject: 0), .single(3),
            .completeOuter,
        ]
        expectSameLogs(steps)
        #expect(
            log(.concat, steps, singlesAreJust: true)
                == ["next(0)", "next(1)", "next(2)", "inner 0 disposed", "next(3)", "completed"],
            "the waiting singles start as the running inner completes, before its resources go"
        )
    }

    @Test func singlesAfterDisposalOrAnErrorSendNothing() {
        expectSameLogs([.single(1), .dispose, .single(2)])
        expectSameLogs([.subject(0), .single(1), .fail(subject: 0), .single(2)])
    }

    @Test func aJustOfAnOptionalNilIsAValueLikeAnyOther() {
        for strategy in [FlattenStrategy.merge, .concat, .latest, .concurrent(limit: 2)] {
            let recorder = Recorder<Int?, Never>()
            Signal<Int?, Never>.from([nil, 1]).flatMap(strategy) { .just($0) }.subscribe(recorder.subscriber)
            #expect(recorder.events == [.next(nil), .next(1), .completed], "\(strategy)")
        }
    }

    /// Scripts drawn from a fixed seed: any difference between the two runs fails with its seed.
    @Test(arguments: 0..<200)
    func randomScriptsAgree(seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var steps: [Step] = []
        for _ in 0..<12 {
            switch next(10) {
            case 0, 1, 2: steps.append(.single(next(100)))
            case 3, 4: steps.append(.subject(next(4)))
            case 5, 6: steps.append(.sendInto(subject: next(4), value: 100 + next(100)))
            case 7: steps.append(.complete(subject: next(4)))
            case 8: steps.append(next(4) == 0 ? .fail(subject: next(4)) : .completeOuter)
            default: steps.append(next(5) == 0 ? .dispose : .single(next(100)))
            }
        }
        expectSameLogs(steps, "seed \(seed): \(steps)")
    }
}
