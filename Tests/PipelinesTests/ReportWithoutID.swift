import Reactive

@testable import Pipelines

/// A program's report without the id of its subscription, as tests that compare sequences of
/// reports write them: `[.subscribed, .event(.next(v)), .disposed]`.
enum ReportWithoutID: Equatable {
    case subscribed
    case event(Event<Value, PipelineFailure>)
    case disposed

    init(_ report: StreamReport) {
        switch report {
        case .subscribed: self = .subscribed
        case .event(let event, _): self = .event(event)
        case .disposed: self = .disposed
        }
    }
}
