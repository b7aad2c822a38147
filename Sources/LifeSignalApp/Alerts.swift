import LifeSignalCore
import LifeSignalStore

/// My manual emergency alert: raise it, end it, see it and its history. A check-in does not end
/// an alert, and raising one does not stop the countdown; ending one ("I am safe") is a
/// check-in too.
extension App {
    /// The alert I have active, if any.
    public func activeAlert() throws(AppError) -> AlertRecord? {
        try readMine().activeAlert
    }

    /// What raising, updating or ending an alert did.
    public struct AlertChange: Sendable {
        public enum Kind: Sendable {
            case raised, updated, ended
            /// Nothing was recorded (an alert was already active, and no new message was given).
            case unchanged
        }

        public var alert: AlertRecord
        public var kind: Kind
        /// The delivery run right after the change (nil when nothing changed).
        public var delivery: DeliveryReport?
        /// Why nobody might hear of it (no responders, …).
        public var warnings: [Warning]
    }

    /// Raises an alert with an optional message and tells every responder at once. When one
    /// is active already, a message updates it (responders are told); without one, nothing
    /// changes.
    public func raiseAlert(message: String?) throws(AppError) -> AlertChange {
        let now = self.now
        let id = newID()
        var change = try write(needs: .circleAndFeed) { transaction throws(AppError) in
            let active = transaction.memberState.activeAlert
            // Only what stops responders from hearing of it; a missing check-in does not.
            let warnings = self.watchWarnings(for: transaction.member, in: transaction.circle).filter {
                $0 != .neverCheckedIn
            }
            if let active {
                guard let message, message != active.currentMessage else {
                    return AlertChange(alert: active, kind: .unchanged, delivery: nil, warnings: warnings)
                }
                transaction.record(AlertUpdated(id: active.id, message: message), at: now)
            } else {
                transaction.record(AlertRaised(id: id, message: message), at: now)
            }
            transaction.noticeDue(now: now)
            let alert = transaction.memberState.activeAlert ?? AlertRecord(id: id)
            return AlertChange(
                alert: alert, kind: active == nil ? .raised : .updated, delivery: nil, warnings: warnings)
        }
        if change.kind != .unchanged { change.delivery = try deliver() }
        return change
    }

    /// Ends my active alert and tells my responders I am safe; nil when none was active. It is
    /// a check-in too: "I am safe", said on my own device, ends a missed deadline as a check-in
    /// would (else tier 2 was first told of the miss minutes after "situation resolved").
    public func endAlert() throws(AppError) -> AlertChange? {
        let now = self.now
        var heartbeats: Heartbeats?
        let ended = try write(needs: .circleAndFeed) { transaction throws(AppError) -> AlertRecord? in
            guard let active = transaction.memberState.activeAlert else { return nil }
            transaction.record(AlertEnded(id: active.id), at: now)
            transaction.record(CheckedIn(note: nil), at: now)
            heartbeats = transaction.memberState.heartbeats?.value
            transaction.noticeDue(now: now)
            return transaction.memberState.alerts[active.id]
        }
        guard let ended else { return nil }
        // As a check-in: the remote fail-safe hears of it, and a clock ahead is said.
        let failing = pulse(.checkin, heartbeats: heartbeats)
        noticeCheckInAhead(at: now)
        return AlertChange(alert: ended, kind: .ended, delivery: try deliver(), warnings: failing)
    }

    /// Every alert I raised, newest first.
    public func alertHistory() throws(AppError) -> [AlertRecord] {
        try readMine().alerts.values.filter { $0.start != nil }.sorted {
            ($0.start?.at.seconds ?? 0) > ($1.start?.at.seconds ?? 0)
        }
    }
}
