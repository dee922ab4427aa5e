import Foundation

/// Finds the page's folder when `--public` is not given.
enum PublicFolder {
    struct NotFound: Error, CustomStringConvertible {
        let tried: [String]
        var description: String {
            "could not find the Public folder (tried \(tried.joined(separator: ", "))); pass --public PATH"
        }
    }

    /// `explicit` if given (it must exist); else `./Public`, then `Public` beside the executable
    /// (the container's layout), then the repository root above `.build/<triple>/<config>/`.
    static func locate(explicit: String?) throws -> String {
        let candidates: [String]
        if let explicit {
            candidates = [explicit]
        } else {
            let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            let folder = executable.deletingLastPathComponent()
            candidates = [
                FileManager.default.currentDirectoryPath + "/Public",
                folder.appendingPathComponent("Public").path,
                folder.appendingPathComponent("../../../Public").standardizedFileURL.path,
            ]
        }
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue,
                FileManager.default.fileExists(atPath: candidate + "/index.html")
            {
                return candidate
            }
        }
        throw NotFound(tried: candidates)
    }
}
