/// Alarms repeat until someone answers: a missed check-in and an alert are told again to
/// those already told, at the interval the person it is about chose (`lifesignal checkin
/// repeat`, an hour unless set), until they check in, the alert ends, or someone vouches; an
/// acknowledgement holds them for `Escalation.acknowledgementHold`. A repeat is a notification
/// of its own (its own id, so a receiver that drops duplicates by id still shows it) in the
/// thread of the first, numbered: "second notice, 1h after the first". Repeats count from when
/// the first notice was delivered (here or by any device of the circle that records it), so an
/// alarm noticed late is not repeated the moment it goes out, and one that never reached anyone
/// is still the first notice, pending. A run
/// makes at most the latest repeat due, so a device that was off for a day sends one notice
/// saying how long it has been, not twenty-four.
public enum Repeats {
    public static let defaultEvery = TimeSpan.hours(1)
    /// The range `checkin repeat` takes; a value read from a log is held to it too.
    public static let shortest = TimeSpan.minutes(10)
    public static let longest = TimeSpan.days(7)

    /// The alarms that repeat: a missed check-in (to the person and to their responders) and
    /// an alert (to the responders; the person raised it).
    static func repeats(_ kind: Notification.Kind) -> Bool {
        switch kind {
        case .missedCheckIn, .dependentNonResponsive, .dependentAlert: return true
        case .alertActivated, .alertDeactivated, .alertUpdated, .dependentAlertUpdated, .dependentAlertResolved,
            .checkInReminder, .dependentCheckedIn, .dependentUnreadable, .dependentPaused, .dependentResumed,
            .acknowledged, .contactAdded, .contactRemoved, .roleChanged, .pingSent, .pingReceived, .pingCanceled,
            .pingResponded, .allPingsCleared, .system:
            return false
        }
    }

    /// The latest repeat due by `now` of each first notice in `feed` whose alarm is unanswered.
    static func due(circle: CircleState, feed: Feed, now: Timestamp) -> [Notification] {
        feed.notifications.values.compactMap { first -> Notification? in
            guard first.notice == 1, repeats(first.kind), let key = first.thread,
                let thread = Notification.Thread(key: key),
                let chosen = circle.members[first.subject]?.effectiveRepeat,
                isUnanswered(thread, of: first.subject, circle: circle, now: now)
            else { return nil }
            let every = min(max(chosen, shortest), longest)
            guard let start = delivered(first, feed: feed, circle: circle) else { return nil }
            let holds = circle.acknowledgements(of: thread).map {
                ($0.stamp.at, $0.stamp.at + Escalation.acknowledgementHold)
            }
            guard let (count, last, resumed) = sent(from: start, every: every, holds: holds, now: now) else {
                return nil
            }
            // After an acknowledgement's hold the alarm goes on at once, and the repeats count
            // from then: not the next hourly slot minutes later (campaign-diff F3).
            let since = min((now - last).seconds / every.seconds, 100_000)
            guard since > 0 || resumed else { return nil }
            let span = TimeSpan(seconds: (last - start).seconds + since * every.seconds)
            return Notification(repeating: first, notice: count + Int(since), after: span)
        }
    }

    /// The notices of an alarm first told at `start` that fell due by `now` once its
    /// acknowledgements' `holds` (from, until) are over: how many (the first counted), when the
    /// last one before the plain repeats fell due, and whether that one ended a hold. A slot inside
    /// a hold was never told to anyone, so it is not counted: the notice after a hold is numbered
    /// after what was told (issue #43), the same on every device (the holds are the circle's).
    /// Nil while a hold that began by `now` has not ended.
    static func sent(from start: Timestamp, every: TimeSpan, holds: [(Timestamp, Timestamp)], now: Timestamp)
        -> (count: Int, last: Timestamp, resumed: Bool)?
    {
        // Holds that meet or overlap are one: nothing was told between them.
        var merged: [(from: Timestamp, until: Timestamp)] = []
        for (from, until) in holds.sorted(by: { $0.0 < $1.0 }) where from <= now {
            if let end = merged.last?.until, from <= end {
                merged[merged.count - 1].until = max(end, until)
            } else {
                merged.append((from, until))
            }
        }
        var count = 1
        var last = start
        var resumed = false
        for (from, until) in merged where until > last {
            guard until <= now else { return nil }
            // The slots told before the hold began (a slot at the instant of the acknowledgement
            // is held), then the notice at its end.
            let told = from > last ? (from - last).seconds - 1 : 0
            count += Int(min(told / every.seconds, 100_000)) + 1
            last = until
            resumed = true
        }
        return (count, last, resumed)
    }

    /// Whether `n` is a first notice that repeats while time goes on and the circle stays as it
    /// is (what the feed digest must keep, so that a run finds the repeats due): one held by an
    /// acknowledgement too, which repeats again once the hold is over.
    static func mayRepeat(_ n: Notification, circle: CircleState, now: Timestamp) -> Bool {
        guard n.notice == 1, repeats(n.kind), circle.members[n.subject]?.effectiveRepeat != nil, let key = n.thread,
            let thread = Notification.Thread(key: key)
        else { return false }
        // In force is enough: an acknowledgement holds it only for a while.
        return DeliveryRules.isInForce(thread, of: n.subject, circle: circle, now: now)
    }

    /// Whether an alarm still stands and nobody said "I'm on it" lately: the alert is active, the
    /// missed deadline is still the person's deadline, and no acknowledgement holds it.
    public static func isUnanswered(
        _ thread: Notification.Thread, of subject: String, circle: CircleState, now: Timestamp
    ) -> Bool {
        DeliveryRules.isInForce(thread, of: subject, circle: circle, now: now)
            && circle.acknowledgement(of: thread, holdingAt: now) == nil
    }

    /// When `first` was first delivered through any channel: as this device's feed records it,
    /// or the log of a device that could have delivered it (see `DeliveryRules.isDelivered`:
    /// anyone else's record is a claim nobody acts on). Never before the cause itself.
    static func delivered(_ first: Notification, feed: Feed, circle: CircleState) -> Timestamp? {
        var earliest: Timestamp?
        for (key, state) in feed.deliveries where key.notification == first.id {
            if let at = state.deliveredAt { earliest = min(earliest ?? at, at) }
        }
        for (key, record) in circle.deliveries where key.notification == first.id {
            guard DeliveryRules.isDelivered(key, to: first.recipient, feed: Feed(), circle: circle) else { continue }
            earliest = min(earliest ?? record.stamp.at, record.stamp.at)
        }
        return earliest.map { max($0, first.at) }
    }
}
