import ArgumentParser
import Foundation
import Logging
import MicroHTTP
import Reactive
import ReactiveTesting
import Scenarios
import Testing

@testable import PlaygroundServer

/// Numbers from outside never trap: each parser, and the arithmetic after it, is fed thousands of
/// generated values — boundaries, overflowing digit strings, signs, exponents, hexadecimal, junk.
/// A trap here ends the test process, which fails the test command.
@Suite("Outside numbers: parsers fuzzed")
struct OutsideNumbersTests {
    /// Deterministic generated strings: the same run every time, so a failure reproduces.
    static func generatedStrings(count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        let boundaries = [
            "0", "-0", "1", "-1", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "18446744073709551616", String(repeating: "9", count: 400), "1e308", "1e309",
            "-1e309", "inf", "-inf", "nan", "NaN", "infinity", "0x10", "0X7fffffffffffffff", "+5", "5.", ".5", "1.5e3",
            " 42 ", "\t7", "4_2", "٣", "１２", "", " ", "-", ".", "--1", "1-", "1..2", "\u{0}", "9007199254740993",
            "1e-400", "0.0000000000000000000000001", "60000", "60000.5", "3600000", "-60000",
        ]
        let alphabet = Array("0123456789-+.eExX abcfinINF_\u{0}\u{FF}٣")
        var values = boundaries
        while values.count < count {
            let length = Int(random.next() % 24)
            values.append(String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
            values.append(String(random.next() >> (random.next() % 64)))
            values.append(String(Int64(bitPattern: random.next())))
            values.append(String(Double(bitPattern: random.next())))
        }
        return values
    }

    @Test func lastEventIDNeverTrapsAndOnlyDigitsWithinRangeResume() {
        for text in Self.generatedStrings(count: 5_000, seed: 1) {
            let parsed = OutsideNumbers.eventID(text)
            if let parsed { #expect(parsed >= 0 && parsed <= OutsideNumbers.maximumEventID) }
            for (oldest, next) in [(1, 1), (1, 50), (900, 2_000), (Int.max - 1, Int.max)] {
                let plan = EventLog.resumption(after: .some(parsed), oldestBuffered: oldest, next: next)
                if case .replay(let after) = plan { #expect(after >= oldest - 1 && after < next) }
            }
        }
        #expect(OutsideNumbers.eventID("9223372036854775807") == nil, "the id that crashed the server")
        #expect(EventLog.resumption(after: .some(Int.max), oldestBuffered: 1, next: 10) == .reset)
        #expect(EventLog.resumption(after: .some(nil), oldestBuffered: 1, next: 10) == .reset)
        #expect(EventLog.resumption(after: nil, oldestBuffered: 1, next: 10) == .snapshot)
        #expect(EventLog.resumption(after: .some(0), oldestBuffered: 1, next: 10) == .replay(after: 0))
        #expect(OutsideNumbers.eventID(" 17 ") == 17)
    }

    @Test func frameAndAdvanceAcceptOnlyPlainNumbersInRange() {
        for text in Self.generatedStrings(count: 5_000, seed: 2) {
            if let frame = OutsideNumbers.frame(text) { #expect(SessionMarbles.frameRange.contains(frame)) }
            for raw in [RawInput.text(text), .json(.string(text))] {
                if let milliseconds = OutsideNumbers.advanceMilliseconds(raw) {
                    #expect(milliseconds >= 0 && milliseconds <= Session.maximumAdvance)
                    _ = Int64((milliseconds * 1_000).rounded())  // the arithmetic the session does
                }
            }
        }
        for number in [Int.min, -1, 0, 1, 60_000, 60_001, Int.max] {
            let parsed = OutsideNumbers.advanceMilliseconds(.json(.int(number)))
            #expect((parsed != nil) == (0...60_000).contains(number))
        }
        for number in [-Double.infinity, -0.0, 0.5, 59_999.9, 60_000.1, .greatestFiniteMagnitude, .nan, .infinity] {
            #expect((OutsideNumbers.advanceMilliseconds(.json(.double(number))) != nil) == (0...60_000).contains(number))
        }
        #expect(OutsideNumbers.advanceMilliseconds(.text("0x10")) == nil, "hexadecimal is not a number of milliseconds")
        #expect(OutsideNumbers.advanceMilliseconds(.text("1e3")) == nil)
        #expect(OutsideNumbers.advanceMilliseconds(.text(" 12.5\n")) == 12.5)
        #expect(OutsideNumbers.frame("0.5") == nil && OutsideNumbers.frame("60001") == nil && OutsideNumbers.frame("250") == 250)
    }

    @Test func inputBodiesOfEveryKindNeverTrap() {
        var random = SeededGenerator(seed: 3)
        let strings = Self.generatedStrings(count: 2_000, seed: 4)
        let jsonBodies =
            strings.map { "[\($0)]" } + strings + [
                "1e999", "-1e999", "123456789012345678901234567890",
                String(repeating: "[", count: 10_000), "{\"a\":1e400}",
            ]
        for scenario in Catalogue.scenarios {
            let description = scenario.description
            for input in description.inputs {
                for body in jsonBodies {
                    for contentType in ["application/json", "text/plain"] {
                        let request = HTTPRequest(
                            method: .post,
                            rawPath: "/",
                            headers: ["content-type": contentType],
                            body: Array(body.utf8)
                        )
                        if case .success(let raw) = InputBody.parse(request) {
                            _ = description.value(for: input.name, from: raw)
                            _ = InputFailure.error(for: input.name, from: raw)
                        }
                    }
                }
                for _ in 0..<200 {  // random bytes, mostly invalid UTF-8
                    let bytes = (0..<Int(random.next() % 32)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    let request = HTTPRequest(method: .post, rawPath: "/", headers: ["content-type": "application/json"], body: bytes)
                    if case .success(let raw) = InputBody.parse(request) { _ = description.value(for: input.name, from: raw) }
                }
            }
        }
    }

    /// Each group of flags with its own parser, then the checks across groups — the order of the
    /// whole command, where a group validates as it is decoded and the command after. Parsing the
    /// whole command costs ten times as much in a debug build (ArgumentParser's DEBUG-only
    /// reflection over every group), which made this test four minutes of the test run.
    static func flagGroups() throws -> [(help: String, parse: ([String]) throws -> Void)] {
        let base = try PlaygroundOptions.parse([])
        func whole<Group: ParsableArguments>(
            _: Group.Type,
            _ place: WritableKeyPath<PlaygroundOptions, Group>
        ) -> (help: String, parse: ([String]) throws -> Void) {
            (
                Group.helpMessage(columns: 10_000),
                { arguments in
                    var options = base
                    options[keyPath: place] = try Group.parse(arguments)
                    try options.validate()
                }
            )
        }
        return [
            whole(ServerOptions.self, \.server), whole(SessionOptions.self, \.sessions), whole(ProgramOptions.self, \.programs),
            whole(LinkOptions.self, \.links), whole(RoomOptions.self, \.rooms),
        ]
    }

    @Test func flagsOutOfRangeAreRefusedNotTrapped() throws {
        // Every option that takes a value, read from each group's help: a new flag is fuzzed too.
        let option = try Regex(#"--[a-z0-9-]+(?= <)"#)
        var fuzzed = 0
        for group in try Self.flagGroups() {
            let flags = Set(group.help.matches(of: option).map { String(group.help[$0.range]) })
            for flag in flags.sorted() {
                for text in Self.generatedStrings(count: 60, seed: 5) {
                    // Parsing and validation either succeed or throw; they never trap.
                    do { try group.parse([flag, text]) } catch {
                        #expect(!ServerOptions.message(for: error).contains("Unknown option"), "\(flag) is its group's")
                    }
                }
                fuzzed += 1
            }
        }
        #expect(fuzzed >= 40, "the help of every group was read: \(fuzzed) options")
        #expect(throws: (any Error).self) { try PlaygroundOptions.parse(["--connection-memory-kib", "9223372036854775807"]) }
        #expect(throws: (any Error).self) { try PlaygroundOptions.parse(["--port", "65536"]) }
        // Less than the largest link (a run of a MiB) could never keep one.
        #expect(throws: (any Error).self) { try PlaygroundOptions.parse(["--link-bytes-per-hour", "1048576"]) }
        #expect(throws: (any Error).self) { try PlaygroundOptions.parse(["--max-sessions", "10", "--max-program-sessions", "11"]) }
        // A store is SQLite or PostgreSQL; a PostgreSQL URL's password is never repeated in the message.
        for database in ["mysql://root@db/x", "sqlite:", "postgres", ""] {
            #expect(throws: (any Error).self, "\(database)") { try PlaygroundOptions.parse(["--database", database]) }
        }
        #expect(throws: Never.self) { try PlaygroundOptions.parse(["--database", "postgres://u:p@h:5432/d"]) }
        #expect(throws: Never.self) { try PlaygroundOptions.parse(["--database", "sqlite::memory:"]) }
        // A flag's mistake names the flag (a missing --docs folder once read as --public's).
        #expect {
            try PlaygroundOptions.parse(["--docs", "/nonexistent"])
        } throws: { error in
            PlaygroundOptions.message(for: error).contains("--docs /nonexistent")
        }
    }
}
