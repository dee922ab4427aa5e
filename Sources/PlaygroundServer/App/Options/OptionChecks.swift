import ArgumentParser

/// The range check every numeric flag goes through: a number from the command line is outside
/// input too, checked before any arithmetic is done with it.
enum OptionChecks {
    static func require(_ value: Int, in range: ClosedRange<Int>, _ flag: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(flag) must be between \(range.lowerBound) and \(range.upperBound).")
        }
    }
}
