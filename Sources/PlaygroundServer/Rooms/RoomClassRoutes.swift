import MicroHTTP

/// What a room's teacher does with the class's answers (docs/API.md, "Driving the room"): notes
/// to the groups of what they missed, and the report of every answer.
extension API {
    /// `POST /api/rooms/{rid}/notes`, `{"group": "everyValue", "note": "…"}` (`null` takes it
    /// back): the teacher's note to the students whose wrong answer missed that, at the reveal.
    func noteGroup(_ request: HTTPRequest, _ access: RoomAccess) -> HTTPResponse {
        let groups = Misconception.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .success(let fields) = Self.jsonObject(request.body), case .string(let name) = fields["group"] ?? .null,
            let group = Misconception(rawValue: name)
        else {
            return PlaygroundError(.invalidValue, #"Send {"group": G, "note": "…"}, G one of \#(groups)."#).response
        }
        var note: String?
        switch fields["note"] ?? .null {
        case .null: note = nil
        case .string(let text):
            guard let shown = Self.displayText(text, maximum: RoomQuestion.maximumNoteLength) else {
                return PlaygroundError(.invalidValue, Self.displayTextRule("note", maximum: RoomQuestion.maximumNoteLength)).response
            }
            note = shown
        default:
            return PlaygroundError(.invalidValue, "note is text, or null to take it back.").response
        }
        switch access.room.note(note, for: group) {
        case .success: return .json(access.room.view(for: nil))
        case .failure(let refusal): return Self.questionRefused(refusal)
        }
    }

    /// `GET /api/rooms/{rid}/report?format=json|csv`: what the class answered (``RoomReport``),
    /// as a download named after the room.
    func roomReport(_ request: HTTPRequest, _ access: RoomAccess) -> HTTPResponse {
        let format = request.query["format"] ?? "json"
        guard format == "json" || format == "csv" else {
            return PlaygroundError(.invalidValue, "format is json or csv.").response
        }
        let report = access.room.report
        let body = format == "csv" ? report.csv : Room.encoded(report)
        let type = format == "csv" ? "text/csv; charset=utf-8" : "application/json"
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", type), ("Content-Disposition", #"attachment; filename="room-report.\#(format)""#)],
            body: .bytes(Array(body.utf8))
        )
    }
}
