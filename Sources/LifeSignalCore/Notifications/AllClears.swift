/// All-clears and corrections: what follows a missed check-in that was told, once the person
/// is heard from — or once it turns out they had checked in on time.
extension Notifications {
    /// All-clears: someone whose miss was told has checked in since. And corrections: a
    /// check-in made before that deadline reached this device only after the miss was told (a
    /// late sync), so the miss was a false alarm; one or the other per miss, never both.
    static func allClears(circle: CircleState, feed: Feed, now: Timestamp) -> [Notification] {
        var found: [Notification] = []
        for notification in feed.notifications.values
        where notification.kind == .dependentNonResponsive && notification.notice == 1 {
            let subject = notification.subject
            let deadline = notification.at
            guard let state = circle.members[subject], let last = state.lastCheckIn(asOf: now) else { continue }
            let who = name(subject, in: circle)
            let message: String
            // A vouch that ended this miss (a check-in since is the all-clear's own reason).
            let vouch =
                last.at > deadline
                ? nil
                : circle.status(of: subject, now: now).vouch.flatMap {
                    $0.deadline == deadline ? $0 : nil
                }
            var at = max(vouch?.at ?? last.at, deadline)
            if let vouch {
                message = vouchAllClear(vouch, subject: subject, circle: circle)
            } else if last.at > deadline {
                message = checkedInAgain(who, at: last.at, after: deadline)
            } else if madeInTime(last, for: deadline, state: state) {
                message =
                    "Correction: \(who) did check in on time, at \(utc(last.at)), before the check-in due \(utc(deadline)); the record reached this device late. The missed check-in you were told about was a false alarm."
            } else if let change = scheduleChange(ending: deadline, of: subject, in: circle, now: now) {
                message =
                    "Schedule changed: \(who) changed their check-in schedule at \(utc(change.at)), after missing the check-in due \(utc(deadline)), without checking in. That missed check-in no longer counts; their next deadline is \(utc(change.next))."
                at = change.at
            } else {
                continue
            }
            found.append(
                Notification(
                    kind: .dependentCheckedIn, cause: "\(deadline.seconds)", message: message, at: at,
                    subject: subject, recipient: notification.recipient,
                    thread: .deadline(member: subject, at: deadline)))
        }
        return found
    }

    /// All-clears for external responders whom another device told of a miss this device has
    /// no record of telling: mine, told by a watcher's device while my own devices were dark
    /// (once I have checked in, this device tells them too); and a dependent's whose alarms this
    /// device relays, told by the dependent's own device or another watcher's before this one
    /// ever noticed the miss (a vouch made here, or a check-in it heard of, answers it; without
    /// this, they heard the all-clear only when the device that told them ran again). Each under
    /// the id every device gives that all-clear, so whichever device is first the others see it
    /// delivered.
    static func allClearsOfRelays(circle: CircleState, feed: Feed, me: String, now: Timestamp) -> [Notification] {
        let dependents = circle.linkedMembers(of: me).filter { circle.roles(of: me, toward: $0)?.dependent ?? false }
        var found: [Notification] = []
        for subject in [me] + dependents.sorted() {
            guard let (deadline, at, message) = answer(of: subject, circle: circle, now: now) else { continue }
            for contact in circle.externalContacts(of: subject) {
                let recipient = Notification.Recipient.external(owner: subject, id: contact.id)
                let miss = Notification(
                    kind: .dependentNonResponsive, cause: "\(deadline.seconds)", message: "", at: deadline,
                    subject: subject, recipient: recipient)
                // Told by another device, and not by this one (whose own feed follows it up).
                guard feed.notifications[miss.id] == nil,
                    contact.contact.notify.contains(where: {
                        DeliveryRules.isDelivered(
                            DeliveryKey(notification: miss.id, channel: $0), to: recipient, feed: feed, circle: circle,
                            forAllClear: true)
                    })
                else { continue }
                found.append(
                    Notification(
                        kind: .dependentCheckedIn, cause: "\(deadline.seconds)", message: message, at: at,
                        subject: subject, recipient: recipient, thread: .deadline(member: subject, at: deadline)))
            }
        }
        return found
    }

    /// The last miss of `subject` that was answered, when, and the all-clear's words: a
    /// check-in after it, or (for someone else) a vouch that ended it.
    private static func answer(of subject: String, circle: CircleState, now: Timestamp) -> (
        deadline: Timestamp, at: Timestamp, message: String
    )? {
        guard let state = circle.members[subject], let last = state.lastCheckIn(asOf: now) else { return nil }
        let name = name(subject, in: circle)
        if let deadline = CheckInStatus(member: state, before: last).deadline, deadline < last.at {
            return (deadline, last.at, checkedInAgain(name, at: last.at, after: deadline))
        }
        guard let vouch = circle.status(of: subject, now: now).vouch, vouch.deadline > last.at, vouch.at <= now
        else { return nil }
        return (vouch.deadline, vouch.at, vouchAllClear(vouch, subject: subject, circle: circle))
    }

    /// When a told miss of `deadline` ended without a check-in because the member changed
    /// their interval, daily schedule or trip after it (a pause is told as itself): when, and
    /// the deadline in force now. Nil while they are overdue still, or paused.
    static func scheduleChange(ending deadline: Timestamp, of member: String, in circle: CircleState, now: Timestamp)
        -> (at: Timestamp, next: Timestamp)?
    {
        guard let state = circle.members[member] else { return nil }
        let status = circle.status(of: member, now: now)
        guard status.phase != .overdue, let next = status.deadline, next != deadline else { return nil }
        let changes = [state.interval?.stamp, state.schedule?.stamp, state.trip?.stamp].compactMap { $0?.at }
        return changes.filter { $0 > deadline && $0 <= now }.max().map { ($0, next) }
    }

    static func checkedInAgain(_ who: String, at time: Timestamp, after deadline: Timestamp) -> String {
        "\(who) has checked in again, at \(utc(time)), after missing the check-in due \(utc(deadline))."
    }

    /// The id of the all-clear or correction that follows `miss`, a missed check-in told.
    static func allClearID(of miss: Notification) -> String {
        Notification.id(
            kind: .dependentCheckedIn, cause: "\(miss.at.seconds)", subject: miss.subject, recipient: miss.recipient)
    }

    /// Whether `checkIn`, stamped at or before `deadline`, answered it: `deadline` was the one
    /// in force just before it, and the one it set is later. The member checked in on time and
    /// the record arrived late, whatever made the deadline: the interval, a daily schedule or a
    /// trip. A check-in from before a trip (or a setting) that made `deadline` did not answer
    /// it. Computed with the settings as they are (a changed interval moves deadlines by itself).
    static func madeInTime(_ checkIn: MemberState.CheckIn, for deadline: Timestamp, state: MemberState) -> Bool {
        // Nothing set after it, by the deadline, made `deadline`: a trip, a schedule, an interval
        // or a pause set in between moves deadlines, and the one missed was not the one this
        // check-in was made against (a trip set the next morning, due back at the very second
        // the deadline before it fell, was missed all the same). What was set after the
        // deadline made nothing that was missed.
        let settings = [state.trip?.stamp, state.schedule?.stamp, state.interval?.stamp, state.pause?.stamp]
        guard
            !settings.contains(where: {
                $0.map { Stamp.earlierInTime(checkIn.stamp, $0) && $0.at <= deadline } ?? false
            })
        else { return false }
        guard checkIn.at <= deadline, CheckInStatus(member: state, before: checkIn).deadline == deadline,
            let next = CheckInStatus(member: state, now: checkIn.at).deadline
        else { return false }
        return next > deadline
    }
}
