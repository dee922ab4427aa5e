/// A program worth learning from, shipped with the server (`GET /api/pipelines/examples`).
public struct Example: Sendable, Equatable, Encodable {
    /// A short id, used in links.
    public let id: String
    /// A title.
    public let title: String
    /// What to try and what to watch for.
    public let description: String
    /// The program's text.
    public let program: String

    /// The examples, in the order a learner might take them.
    public static let all: [Example] = [
        Example(
            id: "throttle-vs-rate-limit",
            title: "throttle against rateLimit",
            description: "Type quickly into `query`. RAC's throttle is a debounce: it waits for 0.5 s of quiet and "
                + "sends the latest value. rateLimit sends the first value at once, then at most one each 0.5 s.",
            program: """
                input query: text
                debounced = query.throttle(0.5s)
                limited = query.rateLimit(0.5s)
                """
        ),
        Example(
            id: "flattening-strategies",
            title: "switchToLatest, flattenMap and concatMap with a slow service",
            description: "Each query searches (about a second). Type two queries in a row: the latest strategy "
                + "cancels the older search, merge shows both as they arrive, concat runs them one after another.",
            program: """
                input query: text
                valid = query.filter { $0.count > 2 }
                latest = valid.flatMap(.latest) { search($0) }
                merged = valid.flatMap(.merge) { search($0) }
                inOrder = valid.flatMap(.concat) { search($0) }
                """
        ),
        Example(
            id: "retry-and-catch",
            title: "retry and catch",
            description: "A query containing !fail makes the search fail. retry(2) tries twice more before the error "
                + "comes through; catch turns the error into a value, so the stream lives on.",
            program: """
                input query: text
                retried = query.flatMap(.latest) { search($0).retry(2).catch { error in just(error.message) } }
                failed = query.flatMap(.latest) { search($0).catch { error in just("failed: " + error.code) } }
                """
        ),
        Example(
            id: "combine-latest-vs-zip",
            title: "combineLatest against zip",
            description: "Send numbers into a and b at different rates. combineLatest pairs the latest of each as soon "
                + "as either sends; zip pairs them by position, first with first.",
            program: """
                input a: number
                input b: number
                latest = combineLatest(a, b).map { x, y in "\\(x) and \\(y)" }
                paired = zip(a, b).map { x, y in "\\(x) and \\(y)" }
                """
        ),
        Example(
            id: "deliver-on-subscribe-on",
            title: "deliver(on:) against subscribe(on:)",
            description: "Press tap. Each event says which thread delivered it. deliver(on: background) sends each value "
                + "on from the background queue. subscribe(on: background) makes the subscription there: just's value, "
                + "sent as it is subscribed, comes from the queue, but a search only starts there: its answer comes "
                + "on the session's thread, where the service's timer fires.",
            program: """
                input tap: action
                taps = tap.scan(0) { count, _ in count + 1 }
                delivered = taps.deliver(on: background)
                subscribed = taps.flatMap(.merge) { just($0).subscribe(on: background) }
                answered = taps.flatMap(.merge) { search("swe").subscribe(on: background) }
                """
        ),
        Example(
            id: "search",
            title: "The search scenario as a program",
            description: "The instant search: queries longer than 2 characters, throttled, each searching and "
                + "switching to the latest; a failed search is caught, so the next one still works.",
            program: """
                input query: text
                validQuery = query.filter { $0.count > 2 }
                throttled = validQuery.throttle(0.5s)
                results = throttled.flatMap(.latest) { search($0).catch { _ in empty } }
                """
        ),
    ]
}
