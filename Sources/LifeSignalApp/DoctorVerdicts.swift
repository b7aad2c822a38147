import LifeSignalCore

/// What `doctor` concludes of each check, decided here from the checkup's facts; the CLI says
/// them in words. Each is nil when the check passes, or the stable code of what fails (the
/// `code` of `doctor --json`).
extension App.Checkup {
    public var countdownFails: String? {
        checkIn.deadline == nil || checkIn.lastCheckIn == nil ? "never-checked-in" : nil
    }

    public var writableFails: String? { writeProblem == nil ? nil : "not-writable" }

    /// My daily schedule's stored rule is not its zone's clock in the coming year.
    public var scheduleFails: String? { scheduleDrift == nil ? nil : "schedule-zone-drift" }

    /// The doubt that makes what my devices write not count, if any.
    public var devicesDoubt: Warning? { devices.doubts.first(where: \.ignoresRecords) }

    public var respondersFail: String? { responders.isEmpty ? "no-responders" : nil }

    /// No channel of my own while I watch over someone: their alarms reach me only when I run
    /// lifesignal.
    public var ownChannelsFail: String? { ownChannels.isEmpty && !dependents.isEmpty ? "no-channels" : nil }

    public var deliveryFails: String? {
        warnings.contains { $0.code == "no-delivery-runs" } ? "no-delivery-runs" : nil
    }

    /// The sync engine says this copy is not current (a folder nobody here syncs says nothing).
    public var syncFails: String? { sync.problem != nil && sync.engine != .other ? "sync-failing" : nil }

    /// Misses of dependents that this copy cannot confirm.
    public var unconfirmedMisses: [Warning] { warnings.filter { $0.code == "cannot-confirm-miss" } }

    public var clockFails: String? { checkIn.futureCheckIn == nil ? nil : "clock-behind" }

    /// My inbox: it did not answer, this device's phone topic cannot be read, or it has none
    /// (so it sends no "I'm OK" button).
    public var inboxFails: String? {
        guard let inbox else { return nil }
        if inbox.error != nil { return "inbox-unreadable" }
        switch inbox.phone {
        case .failure: return "phone-topic-unreadable"
        case .success(nil): return "no-phone-topic"
        case .success(.some): return nil
        }
    }

    /// `phone.json` cannot be read (said with the inbox when there is one).
    public var phoneFileFails: String? { phoneFile == nil || inbox != nil ? nil : "phone-topics-unreadable" }

    /// A member of the circle whose records have not changed for longer than they should.
    public func fails(_ member: App.MemberFreshness) -> String? {
        let stale = warnings.contains { warning in
            guard case .staleRecords(let name, let lastChange) = warning else { return false }
            return name == member.name && (member.lastChange.map { $0 == lastChange } ?? true)
        }
        return stale ? "stale-records" : nil
    }
}

extension App.ResponderReach {
    public var fails: String? { reachable ? nil : "responders-unreachable" }
}

extension App.ChannelHealth {
    /// Its program cannot run from cron, or it has failed for longer than a warning allows.
    public func fails(now: Timestamp) -> String? {
        if readByTheCircle { return "topic-read-by-circle" }
        if cronProblem != nil { return "channel-unusable-from-cron" }
        guard let since = health?.failingSince, now - since > LinkHealth.failingWarning else { return nil }
        return "channel-failing"
    }
}

extension App.HeartbeatEntry {
    public var fails: String? { health?.failingSince == nil ? nil : "heartbeat-failing" }
}
