import LifeSignalCore

/// A QR code drawn for the terminal by `qrencode`, run like every other program: found on PATH,
/// in its own session, with a timeout, the text as an argument (never through a shell).
public enum QRCode {
    public enum Failure: Error, Equatable, Sendable {
        /// qrencode is not on PATH.
        case notInstalled
        /// It ran and failed; what it said on stderr.
        case failed(String)
        /// It could not be started.
        case cannotRun(String)
    }

    /// The code as lines of block characters.
    public static func draw(_ text: String, path: String, runner: ProgramRunner = .system) throws(Failure) -> String {
        let environment = ["PATH": path, "LANG": "C.UTF-8"]
        let result: ChildProcess.Result
        do {
            result = try runner.run(["qrencode", "-t", "UTF8", "-m", "2", text], environment, [], 10, 64 * 1024)
        } catch {
            switch error {
            case .notFound: throw .notInstalled
            case .spawnFailed(_, let reason): throw .cannotRun(reason)
            }
        }
        guard result.succeeded else {
            throw .failed(String(decoding: result.stderr, as: UTF8.self).trimmingWhitespace)
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
