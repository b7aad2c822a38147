import LifeSignalCore
import LifeSignalStore

/// My manual emergency alert: raise it, end it, see it and its history. Independent of
/// check-ins: a check-in does not end an alert and an alert does not stop the countdown.
extension App {
    /// The alert I have active, if any.
    public func activeAlert() throws(AppError) -> AlertRecord? {
        try readMine().activeAlert
    }

    /// What raising or ending an alert did.
    public struct AlertChange: Sendable {
        public var alert: AlertRecord
        /// False when nothing changed (an alert was already active, or none was).
        public var changed: Bool
        /// The delivery run right after the change (nil when nothing changed).
        public var delivery: DeliveryReport?
    }

    /// Raises an alert with an optional message and tells every responder at once; when one is
    /// active already, changes nothing and returns it.
    public func raiseAlert(message: String?) throws(AppError) -> AlertChange {
        let now = self.now
        let id = newID()
        let (alert, raised) = try write(feed: true) { transaction throws(AppError) in
            if let active = transaction.memberState.activeAlert { return (active, false) }
            transaction.record(AlertRaised(id: id, message: message), at: now)
            transaction.noticeDue(now: now)
            return (transaction.memberState.alerts[id] ?? AlertRecord(id: id), true)
        }
        guard raised else { return AlertChange(alert: alert, changed: false, delivery: nil) }
        return AlertChange(alert: alert, changed: true, delivery: try deliver())
    }

    /// Ends my active alert and tells my responders I am safe; nil when none was active.
    public func endAlert() throws(AppError) -> AlertChange? {
        let now = self.now
        let ended = try write(feed: true) { transaction throws(AppError) -> AlertRecord? in
            guard let active = transaction.memberState.activeAlert else { return nil }
            transaction.record(AlertEnded(id: active.id), at: now)
            transaction.noticeDue(now: now)
            return transaction.memberState.alerts[active.id]
        }
        guard let ended else { return nil }
        return AlertChange(alert: ended, changed: true, delivery: try deliver())
    }

    /// Every alert I raised, newest first.
    public func alertHistory() throws(AppError) -> [AlertRecord] {
        try readMine().alerts.values.filter { $0.start != nil }.sorted {
            ($0.start?.at.seconds ?? 0) > ($1.start?.at.seconds ?? 0)
        }
    }
}
