/// Choosing the frame a row is written at, so that what is written reads back as it happened.
///
/// A diagram counts time in frames, and a group of *n* events takes *n* + 2 of them: events that
/// are closer than that cannot be written at that frame. A writer gives its events' times and a
/// frame it would like; ``Marbles/frame(fitting:preferring:placement:maximumFrames:)`` answers the
/// first frame, from it down through ``Marbles/finerFrames``, at which every row can be written,
/// or `nil` when none can within the line's bound. No writer shifts an event to make it fit.
extension Marbles {
    /// An event to write: when it happened, in milliseconds from the diagram's start, and its
    /// symbol (a value's letter, `|` or `#`).
    public struct Timed: Equatable, Sendable {
        /// Milliseconds from the diagram's start.
        public let time: Double
        /// A value's letter, `|` or `#`.
        public let symbol: Character

        /// Creates a timed event.
        public init(time: Double, symbol: Character) {
            self.time = time
            self.symbol = symbol
        }
    }

    /// How times fall into frames.
    public enum Placement: Sendable {
        /// Every time must be a whole number of frames (a run on a virtual clock): the diagram
        /// reads back to the times themselves.
        case exact
        /// Each event is in the frame its time falls in (a real clock's times): the diagram reads
        /// back to those frames.
        case flooring
    }

    /// The frames tried, finest last, after the one a writer prefers: whole milliseconds, so that
    /// a frame reads as itself in a `frame:` argument.
    public static let finerFrames: [Double] = [1_000, 500, 250, 200, 100, 50, 25, 20, 10, 5, 2, 1]

    /// The frame that `time` milliseconds falls in at `frame` milliseconds a frame, or `nil` when
    /// `placement` is ``Placement/exact`` and it falls between two.
    public static func frameIndex(of time: Double, frame: Double, placement: Placement) -> Int? {
        let frames = time / frame
        guard frames.isFinite, frames >= 0, frames < Double(Int32.max) else { return nil }
        switch placement {
        case .flooring:
            return Int(frames.rounded(.down))
        case .exact:
            let whole = frames.rounded()
            return abs(frames - whole) <= 1e-6 * max(1, whole) ? Int(whole) : nil
        }
    }

    /// Writes `events` (in order of time) at `frame` milliseconds a frame, or `nil` when they
    /// cannot be written there: a time between frames (``Placement/exact``) or an event inside a
    /// group's span.
    public static func render(_ events: [Timed], frame: Double, placement: Placement = .exact) -> String? {
        var entries: [Entry] = []
        entries.reserveCapacity(events.count)
        for event in events {
            guard let index = frameIndex(of: event.time, frame: frame, placement: placement) else { return nil }
            entries.append(Entry(frame: index, symbol: event.symbol))
        }
        return render(entries)
    }

    /// The first frame, from `preferred` down through the ``finerFrames`` below it, at which every
    /// row of `rows` can be written (``render(_:frame:placement:)``) in at most `maximumFrames`
    /// characters, or `nil` when there is none. `alsoAt` are times that must fall on a frame
    /// without being written in a row (the `^` and `!` of subscription diagrams, drawn apart).
    public static func frame(
        fitting rows: [[Timed]],
        alsoAt times: [Double] = [],
        preferring preferred: Double,
        placement: Placement = .exact,
        maximumFrames: Int = 10_000
    ) -> Double? {
        guard preferred > 0, preferred.isFinite else { return nil }
        let candidates = [preferred] + finerFrames.filter { $0 < preferred }
        let last = max(times.max() ?? 0, rows.lazy.compactMap { $0.last?.time }.max() ?? 0)
        return candidates.first { frame in
            // Checked before a line is written: a fine frame over a long run would be a huge one.
            guard let lastFrame = frameIndex(of: last, frame: frame, placement: .flooring), lastFrame <= maximumFrames else { return false }
            return times.allSatisfy { time in frameIndex(of: time, frame: frame, placement: placement).map { $0 <= maximumFrames } ?? false }
                && rows.allSatisfy { row in render(row, frame: frame, placement: placement).map { $0.count <= maximumFrames } ?? false }
        }
    }
}
