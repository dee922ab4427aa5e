import Foundation

/// The gallery's entries as the server needs them (the page reads `Public/gallery/entries.json`
/// itself): each entry's name and how many rows it draws, so that `/oembed` can say whether an
/// entry exists, title it, and size its frame. Read once, at startup.
struct GalleryIndex: Sendable {
    struct Entry: Sendable {
        let name: String
        let inputs: Int
        let outputs: Int
    }

    let entries: [String: Entry]

    /// No entries: a server without a gallery (tests that do not need one).
    init() {
        entries = [:]
    }

    /// Reads `entries.json` in the page's folder.
    init(publicRoot: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: publicRoot).appendingPathComponent("gallery/entries.json"))
        let file = try JSONDecoder().decode(File.self, from: data)
        var entries: [String: Entry] = [:]
        for entry in file.groups.flatMap(\.entries) {
            entries[entry.id] = Entry(name: entry.name, inputs: entry.inputs.count, outputs: entry.expected.count)
        }
        self.entries = entries
    }

    private struct File: Decodable {
        struct Group: Decodable { let entries: [Item] }
        struct Item: Decodable {
            struct Row: Decodable {}
            struct Output: Decodable {}
            let id: String
            let name: String
            let inputs: [Row]
            let expected: [String: Output]
        }
        let groups: [Group]
    }
}
