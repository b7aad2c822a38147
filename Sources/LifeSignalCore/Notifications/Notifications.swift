/// Which notifications exist, and with what texts. Pure: the circle, the member whose device
/// is asking, and `now` in; notifications out.
///
/// Each device looks after the notifications of its member and of its member's external
/// contacts, and relays a dependent's alerts and misses to the dependent's external contacts
/// (see `DeliveryRules`). Time makes some exist: the reminder before my deadline, my missed
/// deadline (to me and my external responders), a dependent's missed deadline (to me and
/// their external contacts), and the all-clear (or the correction) once someone checks in
/// after a miss that was told. Alerts and pings make the others; those are
/// derived from the circle's state too, so a crash between recording an alert and noticing it
/// can delay its notifications but never lose them. Contact changes are told by the command
/// that makes them. Ids come from the cause, so noticing the same cause twice, on two machines
/// or in two runs, gives one notification.
public enum Notifications {
    static func utc(_ time: Timestamp) -> String { time.local(utcOffset: 0) + " UTC" }

    static func name(_ member: String, in circle: CircleState) -> String {
        circle.members[member]?.name?.value ?? "A member of your circle"
    }

    /// Who is told of `member`'s alerts and missed check-ins: responders who are members, and
    /// external contacts.
    public static func responders(of member: String, in circle: CircleState) -> [Notification.Recipient] {
        let members = circle.linked(with: member).filter { circle.roles(of: member, toward: $0)?.responder ?? false }
            .sorted()
        return members.map { .member($0) }
            + circle.externalContacts(of: member).map { .external(owner: member, id: $0.id) }
    }

    /// `member`'s responders as `member` themselves set them: external contacts, and members
    /// their own word makes responders (`CircleState.confirmedWatcher`). Who is told counts
    /// every claim (`responders(of:)`); what orders the tiers, and what says whether anyone is
    /// there at all, counts only these.
    public static func confirmedResponders(of member: String, in circle: CircleState) -> [Notification.Recipient] {
        responders(of: member, in: circle).filter { responder in
            guard case .member(let id) = responder else { return true }
            return circle.confirmedWatcher(id, by: member)
        }
    }

    /// The notifications that exist by `now` for what `me`'s device looks after. `feed` is
    /// what was already noticed (the all-clears follow the misses that were told).
    /// `unreadable` names the members some of whose records cannot be read here, and since when.
    public static func due(
        circle: CircleState, feed: Feed, me: String, now: Timestamp, unreadable: [String: Timestamp] = [:]
    ) -> [Notification] {
        let horizon = now - Feed.window
        var found = alerts(circle: circle, me: me, since: horizon)
        found += unreadableDependents(circle: circle, me: me, now: now, unreadable: unreadable)
        found += pings(circle: circle, me: me, since: horizon)
        found += deadlines(circle: circle, me: me, now: now)
        found += pauses(circle: circle, me: me, now: now, since: horizon)
        found += acknowledgements(circle: circle, me: me, since: horizon)
        found += vouchesForMe(circle: circle, me: me, since: horizon)
        found += relations(circle: circle, feed: feed, me: me, since: horizon)
        found += allClears(circle: circle, feed: feed, now: now)
        found += allClearsOfRelays(circle: circle, feed: feed, me: me, now: now)
        found += Repeats.due(circle: circle, feed: feed, now: now)
        return found.filter { DeliveryRules.serves($0, me: me, circle: circle) }
    }

    /// Alerts: mine (to me and my external responders) and my dependents' (to me).
    static func alerts(circle: CircleState, me: String, since horizon: Timestamp) -> [Notification] {
        var found: [Notification] = []
        let watched = circle.linkedMembers(of: me).filter { circle.roles(of: me, toward: $0)?.dependent ?? false }
        for member in [me] + watched {
            for alert in (circle.members[member]?.alerts ?? [:]).values {
                guard let start = alert.start, start.at >= horizon else { continue }
                found += alertRaised(alert, member: member, at: start.at, circle: circle)
                found += alertUpdated(alert, member: member, circle: circle)
                if let end = alert.end { found += alertEnded(alert, member: member, at: end.at, circle: circle) }
            }
        }
        return found
    }

    /// My dependents whose records cannot be read here: told once, and again each day it lasts.
    static func unreadableDependents(circle: CircleState, me: String, now: Timestamp, unreadable: [String: Timestamp])
        -> [Notification]
    {
        circle.linkedMembers(of: me).compactMap { other in
            guard circle.roles(of: me, toward: other)?.dependent ?? false, let since = unreadable[other] else {
                return nil
            }
            let who = name(other, in: circle)
            return Notification(
                kind: .dependentUnreadable, cause: "\(now.seconds / 86_400)",
                message:
                    "\(who)'s records cannot be read here (changed \(utc(since))), so you cannot see whether they check in or raise an alert. Check the folder your circle syncs; 'lifesignal status' names the file.",
                at: now, subject: other, recipient: .member(me))
        }
    }

    /// Pings I sent or received, and how they ended.
    static func pings(circle: CircleState, me: String, since horizon: Timestamp) -> [Notification] {
        var found: [Notification] = []
        for (ping, sent) in circle.pings(involving: me) where sent.at >= horizon {
            found += pingSent(ping.id, from: ping.from, to: ping.to, at: sent.at, circle: circle)
            if let end = ping.endKind, let stamp = ping.endStamp {
                found += pingEnded(ping.id, from: ping.from, to: ping.to, end: end, at: stamp.at, circle: circle)
            }
        }
        return found
    }

    /// My reminder and my missed deadline (to me and my responders), and my dependents' missed
    /// deadlines (to me).
    static func deadlines(circle: CircleState, me: String, now: Timestamp) -> [Notification] {
        var found: [Notification] = []
        let status = circle.status(of: me, now: now)
        if let deadline = status.deadline {
            if status.phase == .dueSoon, let reminderAt = status.reminderAt, let lead = status.reminder {
                let late = now.seconds - reminderAt.seconds > 15 * 60
                let text =
                    deadline - now < .minutes(1)
                    ? "Your check-in is due now, at \(utc(deadline)). Check in now."
                    : late
                        ? "Your check-in will expire in \((deadline - now).short), at \(utc(deadline)). Check in now."
                        : "Your check-in will expire in \(lead.short). Check in now."
                found.append(
                    Notification(
                        kind: .checkInReminder, cause: "\(deadline.seconds)", message: text, at: reminderAt,
                        subject: me, recipient: .member(me), thread: .deadline(member: me, at: deadline)))
            }
            if status.phase == .overdue {
                let told = Escalation.toldOfMiss(
                    responders(of: me, in: circle), member: me, deadline: deadline, now: now, in: circle)
                found += missed(
                    member: me, deadline: deadline, circle: circle, now: now, recipients: [.member(me)] + told)
            }
        }
        for other in circle.linkedMembers(of: me) where circle.roles(of: me, toward: other)?.dependent ?? false {
            let theirs = circle.status(of: other, now: now)
            // Another machine's deadline, read on this machine's clock: past it only once past
            // the drift clocks of a circle are allowed (a watcher 3 minutes fast must not tell
            // its user of a miss an on-time check-in then answers).
            if theirs.phase == .overdue, let deadline = theirs.deadline, now >= deadline + MemberState.clockTolerance {
                let theirExternals = circle.externalContacts(of: other).map {
                    Notification.Recipient.external(owner: other, id: $0.id)
                }
                let told = Escalation.toldOfMiss(
                    [.member(me)] + theirExternals, member: other, deadline: deadline, now: now, in: circle)
                found += missed(member: other, deadline: deadline, circle: circle, now: now, recipients: told)
            }
        }
        return found
    }

    /// Relations of mine that were added, changed or removed (by either side).
    static func relations(circle: CircleState, feed: Feed, me: String, since horizon: Timestamp) -> [Notification] {
        var found: [Notification] = []
        // When each member was first told of a link: one pass over the feed, not one per relation.
        var firstLinked: [String: Timestamp] = [:]
        for n in feed.notifications.values where n.kind == .contactAdded || n.kind == .roleChanged {
            firstLinked[n.subject] = min(firstLinked[n.subject] ?? n.at, n.at)
        }
        for (pair, record) in circle.relations where (pair.low == me || pair.high == me) && record.stamp.at >= horizon {
            let other = pair.other(than: me)
            let who = name(other, in: circle)
            let cause = "\(record.stamp.device)|\(record.stamp.seq)"
            guard let value = record.value, !value.isEmpty else {
                found.append(
                    Notification(
                        kind: .contactRemoved, cause: cause, message: "You and \(who) are no longer linked.",
                        at: record.stamp.at, subject: other, recipient: .member(me)))
                continue
            }
            let roles = (me == pair.low ? value : value.reciprocal).text.lowercased()
            let known = firstLinked[other].map { $0 < record.stamp.at } ?? false
            let claim =
                (circle.roles(of: other, toward: me)?.dependent ?? false) && !circle.confirmedWatcher(other, by: me)
            // Their word again, on a link I had removed: said as such, not as a change.
            let removedByMe = circle.sides[Side(writer: me, other: other)].map { $0.value == nil } ?? false
            // They say I watch over them, which my own word never said: I am told of their
            // alarms, and my device passes them on to their contacts.
            let watchedOnTheirWord =
                (circle.roles(of: me, toward: other)?.dependent ?? false)
                && !(circle.sides[Side(writer: me, other: other)]?.value?.dependent ?? false)
            let unconfirmed =
                claim
                ? " \(who) made this link on their own: until you confirm it ('lifesignal contacts confirm \(who.commandArgument)'), their 'I'm on it' and vouches stop none of your alarms. Not someone you know? 'lifesignal contacts remove \(who.commandArgument)'."
                : watchedOnTheirWord
                    ? " \(who) made this link on their own: you will be told of their missed check-ins and alerts, and your device passes them on to their contacts. Not someone you know? 'lifesignal contacts remove \(who.commandArgument)'."
                    : ""
            let (kind, message) =
                claim && removedByMe
                ? (
                    Notification.Kind.roleChanged,
                    "\(who) linked with you again after you removed them: \(who) says they are your \(roles)."
                        + unconfirmed
                )
                : known
                    ? (
                        Notification.Kind.roleChanged,
                        "Your link with \(who) changed: \(who) is now your \(roles)." + unconfirmed
                    )
                    : (
                        Notification.Kind.contactAdded,
                        "You and \(who) are now linked: \(who) is your \(roles)." + unconfirmed
                    )
            found.append(
                Notification(
                    kind: kind, cause: cause, message: message, at: record.stamp.at, subject: other,
                    recipient: .member(me)))
        }
        return found
    }

    static func missed(
        member: String, deadline: Timestamp, circle: CircleState, now: Timestamp, recipients: [Notification.Recipient]
    ) -> [Notification] {
        // Late is late for whom it is told: a further tier told after the grace, the delays and
        // any acknowledgement's hold was told when it was due, not late.
        let first = Escalation.firstTier(of: member, in: circle)
        func late(_ recipient: Notification.Recipient) -> String {
            var due = deadline
            if recipient != .member(member) {
                due = circle.heldUntil(
                    .deadline(member: member, at: deadline),
                    from: Escalation.due(recipient, member: member, deadline: deadline, in: circle, first: first))
            }
            return (now - due).seconds > 15 * 60 ? " Noticed \((now - deadline).short) after the deadline." : ""
        }
        let who = name(member, in: circle)
        let thread = Notification.Thread.deadline(member: member, at: deadline)
        let trip = circle.members[member]?.trip(at: now).flatMap { $0.value.deadline == deadline ? $0.value : nil }
        let note =
            (circle.members[member]?.lastCheckIn(asOf: now)?.note.map { " Their last check-in note: “\($0)”." } ?? "")
            + (trip.map { trip in
                " They were on a trip, due back by then" + (trip.note.map { ": “\($0)”." } ?? ".")
            } ?? "")
        return recipients.map { recipient in
            if recipient == .member(member) {
                return Notification(
                    kind: .missedCheckIn, cause: "\(deadline.seconds)",
                    message:
                        "You missed your scheduled check-in, due \(utc(deadline)). Please confirm your safety when possible: run 'lifesignal checkin'.\(late(recipient))\(graceNote(member, deadline, circle))",
                    at: deadline, subject: member, recipient: recipient, thread: thread)
            }
            return Notification(
                kind: .dependentNonResponsive, cause: "\(deadline.seconds)",
                message: "\(who) missed their scheduled check-in, due \(utc(deadline)).\(note)\(late(recipient))",
                at: deadline, subject: member, recipient: recipient, thread: thread)
        }
    }

    // MARK: - Made by commands when their cause happens

    public static func alertRaised(_ alert: AlertRecord, member: String, at: Timestamp, circle: CircleState)
        -> [Notification]
    {
        let who = name(member, in: circle)
        let extra = alert.message.map { " Message: “\($0)”." } ?? ""
        return [
            Notification(
                kind: .alertActivated, cause: alert.id,
                message: "Your emergency alert has been activated. Your responders have been notified.\(extra)", at: at,
                subject: member, recipient: .member(member), thread: .alert(alert.id))
        ]
            + responders(of: member, in: circle).map { recipient in
                Notification(
                    kind: .dependentAlert, cause: alert.id,
                    message: "ALERT: \(who) needs help! \(who) has activated their emergency alert.\(extra)", at: at,
                    subject: member, recipient: recipient, thread: .alert(alert.id))
            }
    }

    /// A new message on an active alert, to me and my responders.
    public static func alertUpdated(_ alert: AlertRecord, member: String, circle: CircleState) -> [Notification] {
        guard let update = alert.update else { return [] }
        let who = name(member, in: circle)
        let said = update.value.map { "“\($0)”" } ?? "(no message)"
        let cause = "\(alert.id)|\(update.stamp.device)|\(update.stamp.seq)"
        return [
            Notification(
                kind: .alertUpdated, cause: cause,
                message: "Your emergency alert has been updated. Your responders have been told: \(said).",
                at: update.stamp.at, subject: member, recipient: .member(member), thread: .alert(alert.id))
        ]
            + responders(of: member, in: circle).map { recipient in
                Notification(
                    kind: .dependentAlertUpdated, cause: cause,
                    message: "ALERT UPDATE: \(who) still needs help. New message: \(said).", at: update.stamp.at,
                    subject: member, recipient: recipient, thread: .alert(alert.id))
            }
    }

    public static func alertEnded(_ alert: AlertRecord, member: String, at: Timestamp, circle: CircleState)
        -> [Notification]
    {
        let who = name(member, in: circle)
        return [
            Notification(
                kind: .alertDeactivated, cause: alert.id,
                message: "Your emergency alert has been deactivated. Your responders have been told you are safe.",
                at: at, subject: member, recipient: .member(member), thread: .alert(alert.id))
        ]
            + responders(of: member, in: circle).map { recipient in
                Notification(
                    kind: .dependentAlertResolved, cause: alert.id,
                    message: "\(who) has deactivated their emergency alert - situation resolved.", at: at,
                    subject: member, recipient: recipient, thread: .alert(alert.id))
            }
    }

    public static func pingSent(_ ping: String, from: String, to: String, at: Timestamp, circle: CircleState)
        -> [Notification]
    {
        [
            Notification(
                kind: .pingSent, cause: ping, message: "You sent a ping to \(name(to, in: circle)).", at: at,
                subject: to, recipient: .member(from)),
            Notification(
                kind: .pingReceived, cause: ping,
                message:
                    "\(name(from, in: circle)) has sent you a ping: are you OK? Answer with 'lifesignal ping respond --all'.",
                at: at, subject: from, recipient: .member(to)),
        ]
    }

    public static func pingEnded(
        _ ping: String, from: String, to: String, end: Ping.End, at: Timestamp, circle: CircleState
    ) -> [Notification] {
        let pinger = name(from, in: circle)
        let dependent = name(to, in: circle)
        switch end {
        case .answered:
            return [
                Notification(
                    kind: .pingResponded, cause: ping, message: "\(dependent) has responded to your ping.", at: at,
                    subject: to, recipient: .member(from))
            ]
        case .cleared:
            return [
                Notification(
                    kind: .pingCanceled, cause: ping, message: "You cancelled the ping to \(dependent).", at: at,
                    subject: to, recipient: .member(from)),
                Notification(
                    kind: .pingCanceled, cause: ping, message: "\(pinger) cancelled their ping.", at: at, subject: from,
                    recipient: .member(to)),
            ]
        case .roleRemoved:
            return [
                Notification(
                    kind: .pingCanceled, cause: ping,
                    message: "The ping to \(dependent) was cancelled when the dependent role was removed.", at: at,
                    subject: to, recipient: .member(from))
            ]
        }
    }

    public static func allPingsCleared(member: String, count: Int, at: Timestamp, cause: String) -> Notification {
        Notification(
            kind: .allPingsCleared, cause: cause, message: "You've checked in and responded to all pings (\(count)).",
            at: at, subject: member, recipient: .member(member))
    }

    /// A channel that keeps failing, told to the member whose device delivers through it.
    public static func channelFailing(_ channel: String, error: String, member: String, at: Timestamp, failures: Int)
        -> Notification
    {
        Notification(
            // At most one warning per channel per day, and again on a later day if it still fails.
            kind: .system, cause: "channel|\(channel)|\(at.seconds / 86_400)",
            message:
                "Delivery through \(channel) has failed \(failures) times: \(error). Notifications for it stay pending; check it with 'lifesignal notify test'.",
            at: at, subject: member, recipient: .member(member))
    }
}
