import Foundation

/// The gallery's entries as the server needs them (the page reads `Public/gallery/entries.json`
/// itself): each entry's name and how many rows it draws, so that `/oembed` can say whether an
/// entry exists, title it, and size its frame; and the other libraries' names of its operator,
/// the one table that the gallery's search and the checker's hints both read (`debounce` →
/// "`throttle` here: …"). Read once, at startup.
struct GalleryIndex: Sendable {
    struct Entry: Sendable {
        let name: String
        let inputs: Int
        let outputs: Int
    }

    let entries: [String: Entry]
    /// For each name another library gives an operator, the checker's hint for it.
    let operatorHints: [String: String]

    /// No entries: a server without a gallery (tests that do not need one).
    init() {
        entries = [:]
        operatorHints = [:]
    }

    /// Reads `entries.json` in the page's folder.
    init(publicRoot: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: publicRoot).appendingPathComponent("gallery/entries.json"))
        let items = try JSONDecoder().decode(File.self, from: data).groups.flatMap(\.entries)
        var entries: [String: Entry] = [:]
        for item in items {
            entries[item.id] = Entry(name: item.name, inputs: item.inputs.count, outputs: item.expected.count)
        }
        self.entries = entries
        operatorHints = Self.hints(items)
    }

    /// The hint for each other library's name of an entry's operator: "RxSwift and Combine call
    /// it `debounce`: here it is `throttle` (…its note, or its explanation)". A name several
    /// entries give keeps the first; comparisons, which name several operators, give none.
    private static func hints(_ items: [File.Item]) -> [String: String] {
        var libraries: [String: [String]] = [:]
        var entryOf: [String: File.Item] = [:]
        var order: [String] = []
        for item in items where item.comparison != true {
            let fields = [("ReactiveSwift", item.reactiveSwift), ("RxSwift", item.rxSwift), ("RxJS", item.rxjs), ("Combine", item.combine)]
            for (library, names) in fields {
                for name in identifiers(in: names) {
                    if entryOf[name] == nil {
                        entryOf[name] = item
                        order.append(name)
                    }
                    guard entryOf[name]?.id == item.id, libraries[name]?.contains(library) != true else { continue }
                    libraries[name, default: []].append(library)
                }
            }
        }
        var hints: [String: String] = [:]
        for name in order {
            guard let item = entryOf[name], let who = libraries[name] else { continue }
            let listed = who.count == 1 ? who[0] : who.dropLast().joined(separator: ", ") + " and " + who.last!
            hints[name] = "\(listed) call\(who.count == 1 ? "s" : "") it `\(name)`: here it is `\(item.name)` — \(item.note ?? item.explanation)"
        }
        return hints
    }

    /// The names a field of other libraries' names gives, the first of each alternative:
    /// `"take(first:)"` is `take`, `"map + throw"` is `map`, `"switchAll / mergeAll"` is both,
    /// `"—"` none.
    static func identifiers(in field: String) -> [String] {
        field.components(separatedBy: " / ").compactMap { part in
            let name = part.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            guard let first = name.first, first.isLetter else { return nil }
            return String(name)
        }
    }

    private struct File: Decodable {
        struct Group: Decodable { let entries: [Item] }
        struct Item: Decodable {
            struct Row: Decodable {}
            struct Output: Decodable {}
            let id: String
            let name: String
            let explanation: String
            let note: String?
            let comparison: Bool?
            let reactiveSwift: String
            let rxSwift: String
            let rxjs: String
            let combine: String
            let inputs: [Row]
            let expected: [String: Output]
        }
        let groups: [Group]
    }
}
