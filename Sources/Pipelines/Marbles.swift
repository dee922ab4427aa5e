import MarbleNotation
import Reactive

/// A marble diagram in RxJS's notation, read as the events of a cold signal: `-` is a frame of
/// time, a letter or digit a value in its frame, `(ab)` values in one frame, `|` completion, `#` an
/// error; spaces are ignored. Every character but a space takes a frame, as in RxJS (`(ab)` four).
struct MarbleDiagram: Equatable {
    /// An event and the frame it comes in.
    enum Marble: Equatable {
        case value(Character, frame: Int)
        case completed(frame: Int)
        case failed(frame: Int)
    }

    let marbles: [Marble]

    /// The longest diagram accepted, in characters.
    static let maximumLength = 1_000

    /// Reads `text` through the one reader of the notation (``Marbles/parse(_:values:)``, whose
    /// values here are ASCII letters and digits), or says what is wrong with it.
    init(_ text: String) throws(MarbleError) {
        guard text.count <= Self.maximumLength else { throw MarbleError("a diagram has at most \(Self.maximumLength) characters") }
        let entries: [Marbles.Entry]
        do {
            entries = try Marbles.parse(text) { $0.isASCII && ($0.isLetter || $0.isNumber) }
        } catch {
            throw MarbleError(error.message)
        }
        marbles = entries.map { entry in
            switch entry.symbol {
            case "|": .completed(frame: entry.frame)
            case "#": .failed(frame: entry.frame)
            default: .value(entry.symbol, frame: entry.frame)
            }
        }
    }
}

/// A `marbles(…)` source of a program: its frame and what each of its letters sends (when that
/// is fixed), so that a drawing of the program's streams can use the same frame and letters.
public struct MarbleSource: Sendable {
    /// The time one character of the diagram takes.
    public let frame: Duration
    /// Each letter of the diagram and its value, in the order they appear (repeats included).
    public let letters: [(Character, Value)]
}

/// What is wrong with a marble diagram.
struct MarbleError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension Builder {
    /// `marbles("-a-b--c|", a: 1, b: 2, frame: 100ms)`: a cold signal whose times count from its
    /// subscription. A letter without a value is itself as a string, a digit itself as a number.
    /// A letter's value may be a diagram itself (`x: marbles("-1-2|")`): its text, which
    /// `marbles($0)` inside a flattening turns into the inner signal, so flattening operators can
    /// be drawn. The diagram may be any expression giving text; one that is not a literal is read
    /// at each subscription, and one that cannot be read fails the signal (`invalid_marbles`).
    /// `usage` is how a call is written, for messages (the source table's).
    mutating func marbles(_ arguments: Arguments, usage: String) throws(BuildError) -> SignalMaker {
        guard let first = arguments.list.first, first.label == nil else {
            throw BuildError(message: "`marbles` takes a diagram first", range: arguments.range, hint: "write `\(usage)`")
        }
        var frame: Duration = .milliseconds(100)
        var values: [Character: @Sendable ([Evaluator.Scope]) throws(PipelineFailure) -> Value] = [:]
        for (index, argument) in arguments.list.enumerated().dropFirst() {
            guard let label = argument.label else {
                throw BuildError(
                    message: "`marbles` takes one diagram, then labeled values",
                    range: argument.value.range,
                    hint: "write `\(usage)`"
                )
            }
            if label == "frame" {
                frame = try arguments.duration(index)
            } else if label.count == 1, let letter = label.first, letter.isLetter {
                values[letter] = try nestedDiagram(argument.value) ?? valueArgument(arguments, index)
            } else {
                throw BuildError(
                    message: "`\(label):` is not a letter of the diagram or `frame:`",
                    range: argument.value.range,
                    hint: "write `\(usage)`"
                )
            }
        }
        let scheduler = self.scheduler
        let given = values
        let frameLength = frame
        let budget = self.budget
        guard case .string(let text, let textRange) = first.value else {
            // A diagram computed at run time: read at each subscription.
            let diagramText = valueArgument(arguments, 0)
            return { scopes in
                Signal { subscriber in
                    do throws(PipelineFailure) {
                        guard case .string(let text) = try diagramText(scopes) else {
                            throw PipelineFailure(code: "invalid_marbles", message: "`marbles` needs text: a diagram such as \"-a-b|\"")
                        }
                        let diagram: MarbleDiagram
                        do throws(MarbleError) {
                            diagram = try MarbleDiagram(text)
                        } catch {
                            throw PipelineFailure(code: "invalid_marbles", message: "the marble diagram is not valid: \(error.message)")
                        }
                        return Self.play(
                            diagram.marbles,
                            values: given,
                            frame: frameLength,
                            scopes: scopes,
                            on: scheduler,
                            budget: budget,
                            to: subscriber
                        )
                    } catch {
                        subscriber.sendError(error)
                        return nil
                    }
                }
            }
        }
        let marbles = try readSource(text, at: textRange, hint: "write `\(usage)`", frame: frame, values: values)
        return { scopes in
            Signal { subscriber in
                Self.play(marbles, values: given, frame: frameLength, scopes: scopes, on: scheduler, budget: budget, to: subscriber)
            }
        }
    }

    /// A letter's value written as a diagram, `marbles("-1-2|")`: its text (checked now), or `nil`
    /// when the value is anything else.
    private mutating func nestedDiagram(
        _ expression: Expression
    ) throws(BuildError) -> (@Sendable ([Evaluator.Scope]) throws(PipelineFailure) -> Value)? {
        guard case .call(.name("marbles", _), let arguments, _) = expression else { return nil }
        guard arguments.count == 1, arguments[0].label == nil, case .string(let text, let range) = arguments[0].value else {
            throw BuildError(
                message: "a diagram as a value is `marbles(\"…\")` with its text alone",
                range: expression.range,
                hint: "write `x: marbles(\"-1-2|\")`, and `marbles($0)` where it is flattened"
            )
        }
        // Its letters are drawn as themselves where it is flattened (at the default frame).
        _ = try readSource(text, at: range, hint: "write `x: marbles(\"-1-2|\")`", frame: .milliseconds(100), values: [:])
        return { _ in .string(text) }
    }

    /// Reads the diagram `text` of a `marbles(…)` source (an error at `range` with `hint` when it
    /// is not one) and records the source, for drawings to use its frame and its letters' values:
    /// a letter `values` does not give is itself (a digit a number), and one whose value needs a
    /// closure's parameters (a diagram inside a flattening) has no fixed value.
    private mutating func readSource(
        _ text: String,
        at range: SourceRange,
        hint: String,
        frame: Duration,
        values: [Character: @Sendable ([Evaluator.Scope]) throws(PipelineFailure) -> Value]
    ) throws(BuildError) -> [MarbleDiagram.Marble] {
        let diagram: MarbleDiagram
        do throws(MarbleError) {
            diagram = try MarbleDiagram(text)
        } catch {
            throw BuildError(message: "the marble diagram is not valid: \(error.message)", range: range, hint: hint)
        }
        let letters = diagram.marbles.compactMap { marble -> (Character, Value)? in
            guard case .value(let letter, _) = marble else { return nil }
            guard let given = values[letter] else {
                return (letter, letter.wholeNumberValue.map { .number(Double($0)) } ?? .string(String(letter)))
            }
            return (try? given([])).map { (letter, $0) }
        }
        marbleSources.append(MarbleSource(frame: frame, letters: letters))
        return diagram.marbles
    }

    /// Schedules each marble's event on `scheduler`, its frames counted from now. Each scheduled
    /// event is a step of the program's budget, so a flattening that plays diagrams by the
    /// hundred thousand is halted like any other runaway program.
    private static func play(
        _ marbles: [MarbleDiagram.Marble],
        values given: [Character: @Sendable ([Evaluator.Scope]) throws(PipelineFailure) -> Value],
        frame frameLength: Duration,
        scopes: [Evaluator.Scope],
        on scheduler: any Scheduler,
        budget: StepBudget,
        to subscriber: Subscriber<Value, PipelineFailure>
    ) -> any Disposable {
        let timers = CompoundDisposable()
        subscriber.add(timers)
        for marble in marbles {
            guard budget.spend() else { break }
            let event: Event<Value, PipelineFailure>
            let index: Int
            switch marble {
            case .value(let character, let frame):
                index = frame
                if let value = given[character] {
                    do throws(PipelineFailure) {
                        event = .next(try value(scopes))
                    } catch {
                        event = .error(error)
                    }
                } else if let digit = character.wholeNumberValue {
                    event = .next(.number(Double(digit)))
                } else {
                    event = .next(.string(String(character)))
                }
            case .completed(let frame):
                index = frame
                event = .completed
            case .failed(let frame):
                index = frame
                event = .error(PipelineFailure(code: "failure", message: "the diagram's `#` in frame \(frame)"))
            }
            timers.add(scheduler.schedule(after: frameLength * index) { subscriber.send(event) })
        }
        return timers
    }
}
