import Reactive

/// The "service" the example searches: programming languages by the start of their name, answered
/// after a latency, as a network call would be.
enum Languages {
    static let names = [
        "Ada", "C", "C++", "Clojure", "Elixir", "Erlang", "Go", "Haskell", "Java", "JavaScript", "Kotlin", "Lua",
        "Objective-C", "OCaml", "Perl", "PHP", "Python", "Ruby", "Rust", "Scala", "Scheme", "Smalltalk", "Swift",
        "SwiftUI", "TypeScript",
    ]

    /// One answer, `(query, names)`, `latency` after the subscription; disposing cancels it.
    static func search(_ query: String, latency: Duration, on scheduler: any Scheduler) -> Signal<(String, [String]), Never> {
        let found = names.filter { $0.lowercased().hasPrefix(query) }
        return Signal.just((query, found)).delay(latency, on: scheduler)
    }
}
