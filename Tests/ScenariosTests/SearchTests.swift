import Testing

@testable import Scenarios

@Suite("Search scenario, in virtual time")
struct SearchTests {
    @Test func fiveKeystrokes80msApartGiveOneThrottledValueAndOneSearch() {
        let search = ScenarioHarness<Search>()
        for (index, text) in ["f", "fr", "fre", "fren", "frenc"].enumerated() {
            if index > 0 { search.advance(by: 80) }
            search.type("query", text)
        }
        #expect(search.values("validQuery") == [.string("fre"), .string("fren"), .string("frenc")])
        search.advance(by: 499)
        #expect(search.values("throttled").isEmpty)
        search.advance(by: 1)
        #expect(search.values("throttled") == [.string("frenc")])
        #expect(search.values("searching") == [.bool(true)])
        search.advance(by: 1_000)
        #expect(search.values("searching") == [.bool(true), .bool(false)])
        guard case .array(let names) = search.latest("results") else {
            Issue.record("expected results")
            return
        }
        #expect(names.contains(.string("French")))
        #expect(search.values("results").count == 1, "exactly one search")
        #expect(search.values("cancelled").isEmpty)
    }

    @Test func matchingIsCaseInsensitive() {
        let dataSet = SearchDataSet.languages
        #expect(dataSet.names.count > 7_000)
        #expect(dataSet.topMatches(for: "ENGLISH").contains("English"))
        #expect(dataSet.topMatches(for: "english").first == "English")
        #expect(dataSet.topMatches(for: "zzzzqqq").isEmpty)
    }

    @Test func aNewerQueryCancelsTheSearchInFlight() {
        let search = ScenarioHarness<Search>()
        search.type("query", "swedish")
        search.advance(by: 500)
        #expect(search.values("searching") == [.bool(true)])
        search.type("query", "german")
        search.advance(by: 500)  // the first search is still in flight when "german" is throttled through
        #expect(search.values("cancelled") == [.string("swedish")])
        search.advance(by: 1_000)
        guard case .array(let names) = search.latest("results") else {
            Issue.record("expected results")
            return
        }
        #expect(names.contains(.string("German, Standard")) || names.contains { $0 == .string("German") })
        #expect(search.values("results").count == 1, "the cancelled search never reported")
    }

    @Test func aFailingSearchReportsAnErrorAndTheNextQueryStillWorks() {
        let search = ScenarioHarness<Search>()
        search.type("query", "abc!fail")
        search.advance(by: 1_500)
        #expect(search.values("errors").count == 1)
        #expect(search.values("searching") == [.bool(true), .bool(false)])
        search.type("query", "danish")
        search.advance(by: 1_500)
        #expect(search.values("results").count == 1)
        #expect(search.values("throttled") == [.string("abc!fail"), .string("danish")])
    }

    @Test func shortQueriesAreFilteredOut() {
        let search = ScenarioHarness<Search>()
        search.type("query", "ab")
        search.advance(by: 2_000)
        #expect(search.values("validQuery").isEmpty)
        #expect(search.values("throttled").isEmpty)
    }
}
