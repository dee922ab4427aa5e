import Foundation
import MarbleNotation
import Scenarios

/// `GET /api/sessions/{sid}/marbles`: a session's streams as marble diagrams in the RxJS
/// notation, one character per `frame` milliseconds, each value a letter with a legend of its JSON
/// below, so a session can be pasted into a test (``Marbles/parse(_:values:)`` reads it) or an issue.
enum SessionMarbles {
    static let defaultFrame = 100.0
    static let frameRange = 1.0...60_000.0
    /// The longest line drawn, in characters (frames): the answer's size is bounded by this and by
    /// the session's event buffer, whatever the session's clock did.
    static let maximumFrames = 10_000

    /// The frame asked for is so fine that a line would pass ``maximumFrames``; `minimum` would do.
    struct FrameTooFine: Error {
        let minimum: Double
    }

    /// The diagram at `frame` milliseconds per character; without one, at ``defaultFrame`` or the
    /// finest frame that keeps every line within ``maximumFrames``.
    static func render(_ session: Session, frame requested: Double?) -> Result<String, FrameTooFine> {
        let events = session.recordedEvents()
        let span = events.last?.t ?? 0
        let minimum = max(frameRange.lowerBound, (span / Double(maximumFrames - 1)).rounded(.up))
        let frame = requested ?? max(defaultFrame, minimum)
        guard frame >= minimum else { return .failure(FrameTooFine(minimum: minimum)) }
        let description = session.definition.description
        var text = "# \(description.id) session, \(session.clock.rawValue) clock, one character per \(format(frame)) ms\n"
        if let first = events.first, first.seq > 1 {
            text += "# events before #\(first.seq) are no longer buffered; time still counts from the session's start\n"
        }
        for stream in description.streams {
            var legend: [(Character, String)] = []
            var symbols: [String: Character] = [:]
            var timed: [Marbles.Timed] = []
            // Subscriptions are not values: RxJS writes them as subscription marbles, apart.
            for recorded in events where recorded.stream == stream.name && !recorded.kind.isSubscriptionMark {
                let symbol: Character
                switch (recorded.kind, recorded.valueJSON) {
                case (.next, let json?):
                    if let known = symbols[json] {
                        symbol = known
                    } else {
                        symbol = legend.count < Marbles.valueSymbols.count ? Marbles.valueSymbols[legend.count] : "?"
                        symbols[json] = symbol
                        if symbol != "?" || !legend.contains(where: { $0.0 == "?" }) {
                            legend.append((symbol, symbol == "?" ? "(more values than letters)" : json))
                        }
                    }
                case (.error, let json?):
                    symbol = "#"
                    legend.append(("#", json))
                default:
                    symbol = "|"
                }
                timed.append(Marbles.Timed(time: recorded.t, symbol: symbol))
            }
            // Events too close for the frame (a group takes a frame per character) are written at
            // a finer one, said on the line: never shifted to fit.
            let spanTimes = events.filter { $0.stream == stream.name && $0.subscription != nil }.map(\.t)
            let fitting = Marbles.frame(fitting: [timed], alsoAt: spanTimes, preferring: frame, placement: .flooring, maximumFrames: maximumFrames)
            let streamFrame = fitting ?? frame
            if let fitting, let diagram = Marbles.render(timed, frame: fitting, placement: .flooring) {
                if fitting != frame {
                    text += "# \(stream.name): one character per \(format(fitting)) ms: at \(format(frame)) ms its events are too close\n"
                }
                text += "\(stream.name): \(diagram)\n"
            } else {
                text += "# \(stream.name): no frame down to 1 ms holds its events within \(maximumFrames) characters\n"
            }
            for (symbol, json) in legend { text += "  \(symbol) = \(json)\n" }
            let subscriptions = subscriptionDiagrams(of: stream.name, in: events, frame: streamFrame)
            if !subscriptions.isEmpty { text += "  subscriptions: \(subscriptions.joined(separator: " "))\n" }
        }
        return .success(text)
    }

    /// Each kept subscription of `stream` (a program's), in RxJS's subscription marbles, in the
    /// order they began: one whose `subscribed` is no longer kept is left out.
    private static func subscriptionDiagrams(of stream: String, in events: [RecordedEvent], frame: Double) -> [String] {
        var began: [(id: Int, frame: Int)] = []
        var ended: [Int: Int] = [:]
        let frameOf = { (t: Double) in Int((t / frame).rounded(.down)) }
        for recorded in events where recorded.stream == stream {
            guard let id = recorded.subscription else { continue }
            if recorded.kind == .subscribed { began.append((id, frameOf(recorded.t))) }
            if recorded.kind == .disposed { ended[id] = frameOf(recorded.t) }
        }
        return began.map { Marbles.renderSubscription(Marbles.Subscription(subscribed: $0.frame, disposed: ended[$0.id])) }
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
