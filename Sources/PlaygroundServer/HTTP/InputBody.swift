import Foundation
import MicroHTTP
import Scenarios

/// Reading an input's body, as docs/API.md describes it.
enum InputBody {
    /// The media types an input body may have; a missing Content-Type means raw text.
    static let acceptedMediaTypes: Set<String> = ["application/json", "text/plain", "application/x-www-form-urlencoded"]

    /// The media type of `request` (lower-cased, without parameters), or `nil` if it has none.
    static func mediaType(of request: HTTPRequest) -> String? {
        guard let header = request.header("Content-Type") else { return nil }
        let type =
            header.split(separator: ";", maxSplits: 1).first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        return type.isEmpty ? nil : type
    }

    /// 415 unless the request's media type is accepted.
    static func checkMediaType(of request: HTTPRequest) -> HTTPResponse? {
        guard let type = mediaType(of: request), !acceptedMediaTypes.contains(type) else { return nil }
        return PlaygroundError(.unsupportedMediaType, "Send application/json, text/plain or a form body (curl -d); not \(type).").response
    }

    /// The body as a raw input, or the 400 error to answer.
    static func parse(_ request: HTTPRequest) -> Result<RawInput, InputBodyError> {
        guard let text = String(validating: request.body, as: UTF8.self) else { return .failure(.invalidUTF8) }
        // An empty body is empty text whatever its type, so an action can be posted with no body.
        guard mediaType(of: request) == "application/json", !request.body.isEmpty else { return .success(.text(text)) }
        switch JSONValue.read(request.body) {
        case .success(let value): return .success(.json(value))
        case .failure(.tooDeep): return .failure(.tooDeep)
        case .failure(.invalid): return .failure(.invalidJSON)
        }
    }
}

/// Why an input body could not be read.
enum InputBodyError: Error {
    case invalidUTF8
    case invalidJSON
    case tooDeep

    var response: HTTPResponse {
        switch self {
        case .invalidUTF8: PlaygroundError(.invalidUTF8, "The body is not valid UTF-8.").response
        case .invalidJSON: PlaygroundError(.invalidJSON, "The body is not one valid JSON value.").response
        case .tooDeep:
            PlaygroundError(.invalidJSON, "The body nests arrays and objects more than \(JSONValue.maximumDepth) deep.").response
        }
    }
}

/// The error sent into an input by `?event=error`.
enum InputFailure {
    /// The error's code, as the pipeline's streams report it.
    static let code = "input_failed"

    /// The error for input `name`: the body, when there is one, is its message (a JSON string or
    /// text, at most ``PipelineDescription/maximumTextLength`` characters).
    static func error(for name: String, from raw: RawInput) -> Result<ErrorInfo, InputError> {
        let message: String
        switch raw {
        case .text(let text), .json(.string(let text)): message = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case .json(.null): message = ""
        case .json: return .failure(.invalidValue("An error's body is its message: a JSON string or text."))
        }
        guard message.count <= PipelineDescription.maximumTextLength else {
            return .failure(.invalidValue("An error's message takes at most \(PipelineDescription.maximumTextLength) characters."))
        }
        return .success(ErrorInfo(code: code, message: message.isEmpty ? "The input '\(name)' failed." : message))
    }
}
