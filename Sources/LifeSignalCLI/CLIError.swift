import LifeSignalCore

/// Every way a run ends other than success, carrying what the message needs. `Runner` turns
/// these into stderr text and an exit code in one place (`exitCode` below).
enum CLIError: Error {
    /// Bad command line: printed with the usage of `command`.
    case usage(message: String, command: [String])
    /// A value that parses but breaks a rule (reminder not shorter than interval, …).
    case invalidValue(String)
    case configuration(String)
    case store(StoreError)
    /// A store error, and what was done anyway.
    case storeWithNote(StoreError, String)
    /// No profile in the data directory; `origin` says which setting chose that directory.
    case noProfile(directory: String, origin: String)
    /// Writing to stdout failed (not EPIPE, which ends the run quietly), or the process could
    /// not read its own arguments.
    case ioFailed(String)
    /// A program lifesignal needs is missing or failed (qrencode, a channel's program).
    case unavailable(String)

    var exitCode: ExitCode {
        switch self {
        case .usage: return .usage
        case .invalidValue: return .dataError
        case .configuration: return .configuration
        case .ioFailed: return .ioError
        case .unavailable: return .unavailable
        case .noProfile: return .noProfile
        case .storeWithNote(let error, _): return CLIError.store(error).exitCode
        case .store(let error):
            switch error {
            case .notInitialized, .circleMissing: return .noProfile
            case .damaged, .newerSchema, .unreadable, .identityMismatch, .heldElsewhere, .deviceKey: return .dataError
            case .notDurable, .notPublished, .feedNotWritten: return .ioError
            case .cannotCreate, .circleRefused: return .cannotCreate
            case .io: return .ioError
            case .lockBusy: return .tryAgain
            }
        }
    }

    var message: String {
        switch self {
        case .usage(let message, _): return message
        case .invalidValue(let message), .configuration(let message), .ioFailed(let message),
            .unavailable(let message):
            return message
        case .store(let error): return error.message
        case .storeWithNote(let error, let note): return error.message + ". " + note
        case .noProfile(let directory, let origin):
            return
                "no lifesignal profile in \(directory) yet (\(origin)). Nothing was created. Run 'lifesignal checkin' to record your first check-in, or 'lifesignal init' to set up first. If your profile is elsewhere, this environment does not point to it: cron sets only HOME, so put LIFESIGNAL_HOME=/path/to/your/data in the crontab, or pass --home"
        }
    }
}
