/// The exit-code contract: one table, shown by `lifesignal help exit-codes`, the man page and
/// the README, and tested row by row. Small codes are answers a script branches on; 64–78 are
/// sysexits(3) errors.
public enum ExitCode: Int32, CaseIterable, Sendable {
    case ok = 0
    case dueSoon = 3
    case overdue = 4
    case alertActive = 5
    case dependentNeedsAttention = 6
    case checkupFailed = 7
    case usage = 64
    case dataError = 65
    case noProfile = 66
    case unavailable = 69
    case cannotCreate = 73
    case ioError = 74
    case tryAgain = 75
    case configuration = 78

    public var meaning: String {
        switch self {
        case .ok: return "Success; for status commands: checked in and not yet in the reminder window."
        case .dueSoon: return "status, checkin status: the reminder time has come; the deadline has not passed."
        case .overdue: return "status, checkin status: the deadline has passed without a check-in."
        case .alertActive: return "status, alert status: an emergency alert is active (this wins over 3, 4 and 6)."
        case .dependentNeedsAttention:
            return
                "status: someone you watch over needs attention: in an alert, past their deadline, or their records cannot be read; or records in your circle are ignored as not signed by their member's devices (this wins over 3 and 4)."
        case .checkupFailed:
            return "doctor: at least one check failed; each failing line says what to fix."
        case .usage: return "Usage error: unknown command or option, missing or bad value."
        case .dataError:
            return
                "A data file is damaged, unreadable or from a newer lifesignal; or a value breaks a rule (unknown contact, reminder not shorter than the interval). Nothing was changed. For status: this device's signing key is lost, so nothing can be recorded or sent from it."
        case .noProfile: return "No profile yet in the data directory (nothing to show)."
        case .unavailable: return "A program lifesignal needs is missing or failed (e.g. qrencode)."
        case .cannotCreate: return "The data directory or a file in it cannot be created."
        case .ioError: return "Reading or writing failed (disk full, I/O error, output closed)."
        case .tryAgain:
            return
                "Try again later: another lifesignal held the lock too long, or notifications are still waiting to be delivered (notify deliver)."
        case .configuration:
            return
                "Bad environment: LIFESIGNAL_HOME, LIFESIGNAL_NOW or LIFESIGNAL_LOCK_TIMEOUT malformed, or no home directory."
        }
    }
}
