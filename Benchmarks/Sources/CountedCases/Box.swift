/// A mutable box the cases' closures capture (each run is on one thread).
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
