/// The notifications of schedules and escalation: a pause told when it starts and ends, and
/// an acknowledgement told to the person and their other responders.
extension Notifications {
    /// Pauses, mine (to my responders) and my dependents' (to me and their external
    /// contacts): when one starts and when it ends, so a pause is never a silent disarm.
    static func pauses(circle: CircleState, me: String, now: Timestamp, since horizon: Timestamp) -> [Notification] {
        var found: [Notification] = []
        let watched = circle.linkedMembers(of: me).filter { circle.roles(of: me, toward: $0)?.dependent ?? false }
        for member in [me] + watched {
            guard let pause = circle.members[member]?.pause, pause.value.until >= horizon else { continue }
            let recipients = responders(of: member, in: circle)
            let who = name(member, in: circle)
            let cause = "\(pause.stamp.device)|\(pause.stamp.seq)"
            let note = pause.value.note.map { " Their note: “\($0)”." } ?? ""
            func tell(_ kind: Notification.Kind, at time: Timestamp, _ message: String) {
                found += recipients.map {
                    Notification(kind: kind, cause: cause, message: message, at: time, subject: member, recipient: $0)
                }
            }
            // A resume is a pause that ends when it is set: only its end is told.
            if pause.value.until > pause.stamp.at {
                tell(
                    .dependentPaused, at: pause.stamp.at,
                    "\(who) paused their check-ins until \(utc(pause.value.until)).\(note) No deadline applies until then; their countdown restarts when the pause ends."
                )
            }
            guard now >= pause.value.until else { continue }
            // The deadline the restarted countdown gives, whatever makes it (a daily schedule's
            // next time, the interval's); the same as `status` says then.
            let state = circle.members[member] ?? MemberState()
            let restarted =
                CheckInStatus(member: state, now: pause.value.until).deadline ?? pause.value.until
                + state.effectiveInterval
            tell(
                .dependentResumed, at: pause.value.until,
                "\(who)'s pause has ended (\(utc(pause.value.until))): their countdown restarted, next deadline \(utc(restarted)) unless they check in before."
            )
        }
        return found
    }

    /// For the member's own miss: when their responders are told, if that is later.
    static func graceNote(_ member: String, _ deadline: Timestamp, _ circle: CircleState) -> String {
        guard let grace = circle.members[member]?.effectiveGrace, grace.seconds > 0 else { return "" }
        return " Your responders are told at \(utc(deadline + grace)) unless you check in before."
    }

    /// Acknowledgements ("I'm on it") of my threads and my dependents': told to the member and
    /// to their other responders.
    static func acknowledgements(circle: CircleState, me: String, since horizon: Timestamp) -> [Notification] {
        var found: [Notification] = []
        let watched = Set(circle.linkedMembers(of: me).filter { circle.roles(of: me, toward: $0)?.dependent ?? false })
        // Threads a member acknowledged, and those an external responder's phone did.
        var keys = Set(circle.acknowledgements.keys)
        for state in circle.members.values where !state.ackTokens.isEmpty {
            for (hash, commitment) in state.ackTokens where state.phoneTaps[hash] != nil {
                keys.insert(commitment.thread)
            }
        }
        for key in keys.sorted() {
            guard let thread = Notification.Thread(key: key), let member = subject(of: thread, in: circle),
                member == me || watched.contains(member)
            else { continue }
            let acks = circle.acknowledgements(of: thread)
            for (index, ack) in acks.enumerated() where ack.stamp.at >= horizon {
                // The first keeps the thread as its cause, as before there could be more.
                let cause = index == 0 ? key : "\(key)|\(ack.external ?? ack.by)|\(ack.stamp.at.seconds)"
                found += acknowledged(ack, cause: cause, thread: thread, of: member, circle: circle)
            }
        }
        return found
    }

    /// "X is on it", told to the person and to those told of the alarm by the time of `ack`.
    static func acknowledged(
        _ ack: Acknowledgement, cause: String, thread: Notification.Thread, of member: String, circle: CircleState
    ) -> [Notification] {
        let external = ack.external.map { Notification.Recipient.external(owner: member, id: $0) }
        let who =
            ack.external.map { circle.externals[member]?[$0]?.value?.name ?? "A responder" } ?? name(ack.by, in: circle)
        let about = name(member, in: circle)
        // The person, and the responders who were told of it by then (not a tier never reached).
        var told = responders(of: member, in: circle)
        if case .deadline(_, let deadline) = thread {
            told = Escalation.toldOfMiss(told, member: member, deadline: deadline, now: ack.stamp.at, in: circle)
        }
        let acked = external ?? .member(ack.by)
        let until = utc(ack.stamp.at + Escalation.acknowledgementHold)
        return ([Notification.Recipient.member(member)] + told).filter { $0 != acked }.map { recipient in
            let message =
                recipient == .member(member)
                ? "\(who) is on it: they acknowledged at \(utc(ack.stamp.at)) and are looking after you."
                : "\(who) is on it: they acknowledged \(about)'s \(thread.what) at \(utc(ack.stamp.at)). Nobody further is told before \(until); if it is still unanswered then, the alarm goes on."
            return Notification(
                kind: .acknowledged, cause: cause, message: message, at: ack.stamp.at, subject: member,
                recipient: recipient, thread: thread)
        }
    }

    /// The member a thread is about.
    static func subject(of thread: Notification.Thread, in circle: CircleState) -> String? {
        switch thread {
        case .deadline(let member, _): return member
        case .alert(let id): return circle.members.first { $0.value.alerts[id] != nil }?.key
        }
    }
}
