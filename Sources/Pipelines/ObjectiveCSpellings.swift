/// RAC 2.x's Objective-C spellings of what the language writes otherwise: a reader of the posts
/// types `[RACSubject subject]` or `RACReplaySubject.replaySubjectWithCapacity(1)` first, and is
/// told the language's line for it instead of only "unknown name".
enum ObjectiveCSpellings {
    /// What to write for each of RAC's class names.
    static let classes: [String: String] = [
        "RACSubject": "write `s = subject()`: RAC's `[RACSubject subject]`, on a line of its own",
        "RACReplaySubject": "write `r = replaySubject(capacity: 1)`: RAC's `[RACReplaySubject replaySubjectWithCapacity:1]`",
        "RACSignal": "write `createSignal { subscriber in … }`: RAC's `[RACSignal createSignal:^(id<RACSubscriber> subscriber) { … }]`",
        "Signal": "write `createSignal { subscriber in … }`: RAC's `[RACSignal createSignal:…]`",
        "RACChannel": "write `ch = channel()`: RAC's `[[RACChannel alloc] init]`, on a line of its own",
        "RACMulticastConnection": "write `conn = a.multicast(subject())`: RAC's `[a multicast:[RACSubject subject]]`",
        "RACCommand": "write `c = command { input in … }.execute(on: trigger)`: RAC's `[[RACCommand alloc] initWithSignalBlock:…]`",
        "RACScheduler": "write `after(0.5s) { … }` in a `createSignal` block: RAC's `[scheduler afterDelay:schedule:]`",
    ]

    /// What to write for each of RAC's selectors that the language spells as a member of another
    /// name (`replaySubjectWithCapacity:` is `replaySubject(capacity:)`).
    static let selectors: [String: String] = [
        "replaySubjectWithCapacity": "write `replaySubject(capacity: 1)` on a line of its own",
        "createSignal": "write `createSignal { subscriber in … }`, a source of its own",
        "subject": "write `s = subject()` on a line of its own",
        "subscribeNext": "a stream's readers are the lines that read it: write `out = s.map { $0 }`, drawn as a lane of `s`",
        "sendNext":
            "feed a subject with a line `marbles(\"-1-2|\").subscribe(s)`, or send inside `createSignal { subscriber in subscriber.sendNext(1) }`",
    ]

    /// The hint for `[receiver message …]`, Objective-C's message send, found where an array was read.
    static func messageSendHint(receiver: String, message: String) -> String {
        if let hint = classes[receiver] { return hint }
        if let hint = selectors[message] { return hint }
        return "the language writes RAC as Swift does: `\(Checker.shortened(receiver)).\(Checker.shortened(message))(…)`"
    }
}
