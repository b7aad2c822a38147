/// The product's fixed numbers and the checks on settings a person chooses.
public enum Rules {
    /// The app's default check-in interval.
    public static let defaultInterval = TimeSpan.hours(24)
    /// The app's onboarding default reminder lead.
    public static let defaultReminder: TimeSpan? = TimeSpan.minutes(30)
    /// Interval presets the app offers, shown in help.
    public static let intervalPresets: [TimeSpan] = [.hours(8), .hours(16), .hours(24), .hours(48)]
    /// Reminder presets, shown in help.
    public static let reminderPresets: [TimeSpan] = [.minutes(30), .hours(1), .hours(2), .hours(4), .hours(6)]
    /// A check-in interval must lie in this range: shorter is not a safety interval, longer
    /// would leave someone unwatched for over a month.
    public static let intervalRange = TimeSpan.minutes(10)...TimeSpan.days(30)
    /// The longest note or name accepted.
    public static let maximumTextLength = 500

    public enum SettingError: Error, Equatable, Sendable {
        case intervalOutOfRange(TimeSpan)
        case reminderNotShorter(reminder: TimeSpan, interval: TimeSpan)
        /// A pause or trip must end after now.
        case notInFuture(Timestamp)
        /// A pause longer than the member's limit without `--yes`.
        case pauseTooLong(TimeSpan, limit: TimeSpan)
        /// A trip whose deadline is further away than the member's pause limit, without `--yes`.
        case tripTooLong(TimeSpan, limit: TimeSpan)
        /// `checkin resume` with no pause in force.
        case notPaused
        /// An emergency note longer than `ProfileDetails.noteLimit`.
        case emergencyNoteTooLong(Int)
        /// A time zone that cannot be used for a schedule, and why.
        case unusableZone(String, reason: String)
        /// A repeat interval outside `Repeats.shortest...Repeats.longest`.
        case repeatOutOfRange(TimeSpan)
        /// A grace longer than `Escalation.longestGrace`.
        case graceTooLong(TimeSpan)
        /// A delay between tiers outside `Escalation.delays`.
        case escalationOutOfRange(TimeSpan)
        /// An inbox that is not an ntfy topic URL, and why.
        case notAnInbox(String, problem: String)
        /// A phone topic that is not an ntfy URL, has a guessable name, or is read by the circle.
        case notAPhoneTopic(String, problem: String)
        /// A channel or inbox for the circle folder that is one of this device's private topics.
        case privateTopicInCircle(String)
    }

    public static func check(interval: TimeSpan, reminder: TimeSpan?) throws(SettingError) {
        guard intervalRange.contains(interval) else { throw .intervalOutOfRange(interval) }
        if let reminder, reminder >= interval {
            throw .reminderNotShorter(reminder: reminder, interval: interval)
        }
    }

    /// Why free text (a name, a note) is not acceptable, or nil when it is.
    public static func problem(withText text: String, field: String) -> String? {
        if text.trimmingWhitespace.isEmpty { return "the \(field) is empty" }
        if text.count > maximumTextLength { return "the \(field) is longer than \(maximumTextLength) characters" }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the \(field) contains a control character such as a newline"
        }
        return nil
    }
}
