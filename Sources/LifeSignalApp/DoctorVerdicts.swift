import LifeSignalCore

/// What a failing check of `doctor` found: one case per kind of failure, each with the stable
/// code `doctor --json` gives it. The CLI says each in words.
public enum DoctorFailure: Equatable, Sendable {
    case unreadable, deviceKeyUnusable, watcherNotConfirmed
    case neverCheckedIn, notWritable, scheduleZoneDrift, noResponders, noChannels, noDeliveryRuns, syncFailing
    case clockBehind, inboxUnreadable, phoneTopicUnreadable, noPhoneTopic, phoneTopicsUnreadable, staleRecords
    case respondersUnreachable, topicReadByCircle, channelUnusableFromCron, channelFailing, heartbeatFailing
    /// A doubt the run itself warned of (the circle's, or this member's devices').
    case warning(Warning)

    /// The stable code of `doctor --json`.
    public var code: String {
        switch self {
        case .unreadable: "unreadable"
        case .deviceKeyUnusable: "device-key-unusable"
        case .watcherNotConfirmed: "watcher-not-confirmed"
        case .neverCheckedIn: "never-checked-in"
        case .notWritable: "not-writable"
        case .scheduleZoneDrift: "schedule-zone-drift"
        case .noResponders: "no-responders"
        case .noChannels: "no-channels"
        case .noDeliveryRuns: "no-delivery-runs"
        case .syncFailing: "sync-failing"
        case .clockBehind: "clock-behind"
        case .inboxUnreadable: "inbox-unreadable"
        case .phoneTopicUnreadable: "phone-topic-unreadable"
        case .noPhoneTopic: "no-phone-topic"
        case .phoneTopicsUnreadable: "phone-topics-unreadable"
        case .staleRecords: "stale-records"
        case .respondersUnreachable: "responders-unreachable"
        case .topicReadByCircle: "topic-read-by-circle"
        case .channelUnusableFromCron: "channel-unusable-from-cron"
        case .channelFailing: "channel-failing"
        case .heartbeatFailing: "heartbeat-failing"
        case .warning(let warning): warning.code
        }
    }
}

/// What `doctor` concludes of each check, decided here from the checkup's facts; the CLI says
/// them in words. Each is nil when the check passes, or what fails.
extension App.Checkup {
    public var countdownFails: DoctorFailure? {
        checkIn.deadline == nil || checkIn.lastCheckIn == nil ? .neverCheckedIn : nil
    }

    public var writableFails: DoctorFailure? { writeProblem == nil ? nil : .notWritable }

    /// My daily schedule's stored rule is not its zone's clock in the coming year.
    public var scheduleFails: DoctorFailure? { scheduleDrift == nil ? nil : .scheduleZoneDrift }

    /// The doubt that makes what my devices write not count, if any.
    public var devicesDoubt: Warning? { devices.doubts.first(where: \.ignoresRecords) }

    public var respondersFail: DoctorFailure? { responders.isEmpty ? .noResponders : nil }

    /// No channel of my own while I watch over someone: their alarms reach me only when I run
    /// lifesignal.
    public var ownChannelsFail: DoctorFailure? { ownChannels.isEmpty && !dependents.isEmpty ? .noChannels : nil }

    public var deliveryFails: DoctorFailure? {
        warnings.contains { if case .noDelivery = $0 { true } else { false } } ? .noDeliveryRuns : nil
    }

    /// The sync engine says this copy is not current (a folder nobody here syncs says nothing).
    public var syncFails: DoctorFailure? { sync.problem != nil && sync.engine != .other ? .syncFailing : nil }

    /// Misses of dependents that this copy cannot confirm.
    public var unconfirmedMisses: [Warning] { warnings.filter(\.isUnconfirmedMiss) }

    public var clockFails: DoctorFailure? { checkIn.futureCheckIn == nil ? nil : .clockBehind }

    /// My inbox: it did not answer, this device's phone topic cannot be read, or it has none
    /// (so it sends no "I'm OK" button).
    public var inboxFails: DoctorFailure? {
        guard let inbox else { return nil }
        if inbox.error != nil { return .inboxUnreadable }
        switch inbox.phone {
        case .failure: return .phoneTopicUnreadable
        case .success(nil): return .noPhoneTopic
        case .success(.some): return nil
        }
    }

    /// `phone.json` cannot be read (said with the inbox when there is one).
    public var phoneFileFails: DoctorFailure? { phoneFile == nil || inbox != nil ? nil : .phoneTopicsUnreadable }

    /// A member of the circle whose records have not changed for longer than they should.
    public func fails(_ member: App.MemberFreshness) -> DoctorFailure? {
        let stale = warnings.contains { warning in
            guard case .staleRecords(let name, let lastChange) = warning else { return false }
            return name == member.name && (member.lastChange.map { $0 == lastChange } ?? true)
        }
        return stale ? .staleRecords : nil
    }
}

extension App.ResponderReach {
    public var fails: DoctorFailure? { reachable ? nil : .respondersUnreachable }
}

extension App.ChannelHealth {
    /// Its program cannot run from cron, or it has failed for longer than a warning allows.
    public func fails(now: Timestamp) -> DoctorFailure? {
        if readByTheCircle { return .topicReadByCircle }
        if cronProblem != nil { return .channelUnusableFromCron }
        guard let since = health?.failingSince, now - since > LinkHealth.failingWarning else { return nil }
        return .channelFailing
    }
}

extension App.HeartbeatEntry {
    public var fails: DoctorFailure? { health?.failingSince == nil ? nil : .heartbeatFailing }
}
