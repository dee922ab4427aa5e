import Testing

@testable import Reactive

@Suite("Channel and Property (RACChannel, RAC(), RACObserve)")
struct BindingTests {
    @Test func channelTerminalsHearOnlyTheOtherSide() {
        let channel = Channel<String, TestError>()
        let leading = Recorder<String, TestError>()
        let following = Recorder<String, TestError>()
        channel.leading.signal.subscribe(leading.subscriber)
        channel.following.signal.subscribe(following.subscriber)
        channel.leading.sendNext("from leading")
        channel.following.sendNext("from following")
        #expect(leading.values == ["from following"])
        #expect(following.values == ["from leading"])
    }

    @Test func followingSideReplaysTheLatestLeadingValue() {
        let channel = Channel<Int, Never>()
        channel.leading.sendNext(1)
        channel.leading.sendNext(2)
        let late = Recorder<Int, Never>()
        channel.following.signal.subscribe(late.subscriber)
        #expect(late.values == [2])
        channel.following.sendNext(9)
        let lateLeading = Recorder<Int, Never>()
        channel.leading.signal.subscribe(lateLeading.subscriber)
        #expect(lateLeading.values.isEmpty, "the leading side replays nothing")
    }

    @Test func errorsAndCompletionReachBothEnds() {
        let channel = Channel<Int, TestError>()
        let leading = Recorder<Int, TestError>()
        let following = Recorder<Int, TestError>()
        channel.leading.signal.subscribe(leading.subscriber)
        channel.following.signal.subscribe(following.subscriber)
        channel.following.sendError(TestError(code: 3))
        #expect(leading.events == [.error(TestError(code: 3))])
        #expect(following.events == [.error(TestError(code: 3))])

        let completed = Channel<Int, Never>()
        let end = Recorder<Int, Never>()
        completed.following.signal.subscribe(end.subscriber)
        completed.leading.sendCompleted()
        #expect(end.events == [.completed])
    }

    @Test func propertySignalStartsWithTheCurrentValue() {
        let property = MutableProperty("a")
        let recorder = Recorder<String, Never>()
        property.signal.subscribe(recorder.subscriber)
        property.value = "b"
        #expect(recorder.values == ["a", "b"])
        #expect(Property(property).value == "b")
    }

    @Test func oneWayBindingEndsWhenTheSourceEnds() {
        let property = MutableProperty(0)
        let source = Subject<Int, Never>()
        property.bind(from: source.signal)
        source.sendNext(1)
        #expect(property.value == 1)
        source.sendCompleted()
        #expect(source.subscriberCount == 0)
        let readOnly = Property(initial: 0, then: Signal<Int, Never>.from([1, 2]))
        #expect(readOnly.value == 2)
    }

    @Test func oneWayBindingEndsWhenThePropertyIsReleased() {
        let source = Subject<Int, Never>()
        let observed = Recorder<Int, Never>()
        do {
            let property = MutableProperty(0)
            property.signal.subscribe(observed.subscriber)
            property.bind(from: source.signal)
            source.sendNext(1)
        }
        #expect(source.subscriberCount == 0, "the binding ended with the property")
        #expect(observed.events == [.next(0), .next(1), .completed])
    }

    /// RACChannel's classic example: a text field bound both ways to a model property, a label bound one way; typing
    /// updates the model and the label, the model's changes reach the field, nothing echoes back.
    @Test func textFieldModelAndLabelExample() {
        let field = MutableProperty("")
        let model = MutableProperty("initial")
        let label = MutableProperty("")
        let fieldChanges = Recorder<String, Never>()
        field.signal.subscribe(fieldChanges.subscriber)

        let binding = field.makeTerminal().bind(to: model.makeTerminal())
        label.bind(from: model.signal.map { "Hello, \($0)" })
        #expect(field.value == "initial", "the model's value wins at first")

        field.value = "abc"  // the user types
        #expect(model.value == "abc")
        #expect(label.value == "Hello, abc")
        #expect(fieldChanges.values == ["", "initial", "abc"], "no echo back into the field")

        model.value = "from model"
        #expect(field.value == "from model")
        #expect(fieldChanges.values == ["", "initial", "abc", "from model"])

        binding.dispose()
        field.value = "unbound"
        #expect(model.value == "from model")
    }

    @Test func bindingEndsWhenEitherSideCompletes() {
        let channel = Channel<String, Never>()
        let property = MutableProperty("x")
        property.makeTerminal().bind(to: channel.following)
        channel.leading.sendNext("y")
        #expect(property.value == "y")
        channel.leading.sendCompleted()
        channel.leading.sendNext("z")
        #expect(property.value == "y")
    }

    /// A released property ends its terminals' channels, as RAC's KVO channel completes when its
    /// target deallocates: the property bound to it lets go of the binding (nothing is left
    /// holding the other's subjects).
    @Test func aReleasedPropertyEndsTheBindingsOfItsTerminals() {
        let field = MutableProperty("field")
        do {
            let model = MutableProperty("model")
            field.makeTerminal().bind(to: model.makeTerminal())
            #expect(field.value == "model")
            #expect(field.observerCount == 1, "the binding observes the field")
        }
        #expect(field.observerCount == 0, "the model went; the binding ended with it")
        field.value = "after"
        #expect(field.value == "after")
    }
}
