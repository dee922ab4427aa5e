import ArgumentParser

/// Every flag of `playground`, in groups that `--help` shows under their titles, and the checks
/// that span groups. ``Playground/build(_:)`` turns them into a server; the command and the tests
/// both go through it, so every flag's effect can be reached from a test.
public struct PlaygroundOptions: ParsableArguments {
    /// Listening, the page's files, connections and the process.
    @OptionGroup(title: "Server") public var server: ServerOptions
    /// Sessions, their limits and the scenarios' timings.
    @OptionGroup(title: "Sessions") public var sessions: SessionOptions
    /// Users' programs, marble runs, finds and recordings.
    @OptionGroup(title: "Programs") public var programs: ProgramOptions
    /// The store of links.
    @OptionGroup(title: "Links") public var links: LinkOptions
    /// Rooms.
    @OptionGroup(title: "Rooms") public var rooms: RoomOptions

    /// The defaults, as `playground` with no flags runs.
    public init() {}

    /// Checks every number of this group against its range, and what the group's flags say
    /// together, before anything is built from them.
    public func validate() throws {
        if programs.maxValueBytes * 2 + 1_024 > server.sseQueueBytes {
            // An event carries its value once in `value` (and its stream and numbers): it must fit a
            // watcher's queue with room to spare, or one value would cut every watcher for good.
            throw ValidationError("--max-value-bytes must be at most half of --sse-queue-bytes less 512.")
        }
    }
}
