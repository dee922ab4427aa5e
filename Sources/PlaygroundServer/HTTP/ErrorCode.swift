import MicroHTTP

/// Every error code the playground answers with, and the one status each has: the API's
/// vocabulary of refusals (docs/API.md, "Conventions"). Each is in `Public/openapi.json`'s
/// `Error` schema, and `ErrorVocabularyTests` holds the two to each other. `MicroHTTP` answers
/// a few of its own before a route is reached (`not_found`, `method_not_allowed`…).
enum ErrorCode: String, CaseIterable, Sendable {
    case answerTooLong = "answer_too_long"
    case atBreakpoint = "at_breakpoint"
    case clockExhausted = "clock_exhausted"
    case contentTooLarge = "content_too_large"
    case courseInvalid = "course_invalid"
    case docsNotBuilt = "docs_not_built"
    case draining = "draining"
    case fromUnknown = "from_unknown"
    case historyTooLong = "history_too_long"
    case inputEnded = "input_ended"
    case internalError = "internal_error"
    case invalidJSON = "invalid_json"
    case invalidLink = "invalid_link"
    case invalidMarbles = "invalid_marbles"
    case invalidText = "invalid_text"
    case invalidUTF8 = "invalid_utf8"
    case invalidValue = "invalid_value"
    case keyRequired = "key_required"
    case lessonInvalid = "lesson_invalid"
    case linkNotFound = "link_not_found"
    case misdirected = "misdirected"
    case noCourse = "no_course"
    case noQuestion = "no_question"
    case notFound = "not_found"
    case notImplemented = "not_implemented"
    case notTestable = "not_testable"
    case notVirtual = "not_virtual"
    case payloadTooLarge = "payload_too_large"
    case pipelineInvalid = "pipeline_invalid"
    case programInvalid = "program_invalid"
    case questionClosed = "question_closed"
    case questionOpen = "question_open"
    case questionRevealed = "question_revealed"
    case rateLimited = "rate_limited"
    case roomFull = "room_full"
    case roomLocked = "room_locked"
    case roomSession = "room_session"
    case seatSessionsUsed = "seat_sessions_used"
    case secondRound = "second_round"
    case serverBusy = "server_busy"
    case shareUsed = "share_used"
    case storageFull = "storage_full"
    case storageUnavailable = "storage_unavailable"
    case studentsOnly = "students_only"
    case teacherOnly = "teacher_only"
    case tooManyRooms = "too_many_rooms"
    case tooManySessions = "too_many_sessions"
    case unknownInput = "unknown_input"
    case unknownRoom = "unknown_room"
    case unknownScenario = "unknown_scenario"
    case unknownSession = "unknown_session"
    case unknownStudent = "unknown_student"
    case unsupportedMediaType = "unsupported_media_type"
    case valueTooLarge = "value_too_large"
    case valuesTooLarge = "values_too_large"
    case wrongKey = "wrong_key"

    /// The HTTP status this code is always answered with.
    var status: Int {
        switch self {
        case .invalidJSON, .invalidLink, .invalidMarbles, .invalidText, .invalidUTF8, .invalidValue, .notTestable, .notVirtual, .pipelineInvalid: 400
        case .keyRequired: 401
        case .roomSession, .studentsOnly, .teacherOnly, .wrongKey: 403
        case .docsNotBuilt, .linkNotFound, .notFound, .unknownInput, .unknownRoom, .unknownScenario, .unknownSession, .unknownStudent: 404
        case .answerTooLong, .atBreakpoint, .clockExhausted, .historyTooLong, .inputEnded, .noCourse, .noQuestion, .questionClosed,
            .questionOpen, .questionRevealed, .roomFull, .roomLocked, .secondRound, .valuesTooLarge:
            409
        case .contentTooLarge, .payloadTooLarge, .valueTooLarge: 413
        case .unsupportedMediaType: 415
        case .misdirected: 421
        case .courseInvalid, .fromUnknown, .lessonInvalid, .programInvalid: 422
        case .rateLimited, .seatSessionsUsed, .shareUsed: 429
        case .internalError: 500
        case .notImplemented: 501
        case .draining, .serverBusy, .storageUnavailable, .tooManyRooms, .tooManySessions: 503
        case .storageFull: 507
        }
    }
}

/// A refusal of the playground: a code of the vocabulary, what happened and what to do, and
/// when to try again for a refusal that passes. Features with richer refusals (a room's, an
/// input's) name their cases and give one of these.
struct PlaygroundError: HTTPError {
    let errorCode: ErrorCode
    let message: String
    let retryAfterSeconds: Int?

    init(_ code: ErrorCode, _ message: String, retryAfterSeconds: Int? = nil) {
        errorCode = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    var status: Int { errorCode.status }
    var code: String { errorCode.rawValue }
}
