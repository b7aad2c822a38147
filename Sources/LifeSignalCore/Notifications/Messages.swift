/// Builds the `Message` a notification is delivered as: the wording lives here, once, for
/// every channel.
public enum Messages {
    /// Who is telling, and how they know: the sending device, and for a dependent's miss it
    /// relays, whether it could confirm it and by what (see `DeliveryRules.relay(missOf:…)`).
    public struct Telling: Sendable {
        public var me: String
        public var device: String
        public var confirmed: Bool
        public var evidence: Evidence?
        public var sync: SyncView

        public init(me: String, device: String, confirmed: Bool, evidence: Evidence?, sync: SyncView) {
            self.me = me
            self.device = device
            self.confirmed = confirmed
            self.evidence = evidence
            self.sync = sync
        }
    }

    public static func make(
        _ n: Notification, circle: CircleState, feed: Feed, sentAt: Timestamp, zone: Message.Zone,
        telling: Telling? = nil
    ) -> Message {
        let subject = n.subject
        let state = circle.members[subject] ?? MemberState()
        let name = state.name?.value ?? "A member of your circle"
        let toResponder = n.recipient != .member(subject)
        let details = toResponder ? state.details?.value : nil
        let person = Message.Person(
            id: subject, name: name, phone: details?.phone, emergencyNote: details?.emergencyNote)
        var message = Message(
            id: n.id, type: n.kind.rawValue, severity: severity(n.kind), status: status(n.kind),
            title: title(n, name: name, zone: zone), summary: n.message, person: person,
            recipientName: recipientName(n.recipient, circle: circle), causeAt: n.at, sentAt: sentAt, details: [],
            actions: [], alsoTold: [], thread: n.thread, follows: follows(n, feed: feed), zone: zone)
        message.details = facts(n, state: state, person: person, sentAt: sentAt, zone: zone)
        message.actions = actions(n, person: person, circle: circle)
        relayWords(&message, n, circle: circle, telling: telling)
        (message.alsoTold, message.beingTold) = others(n, circle: circle, feed: feed, sentAt: sentAt)
        if n.kind == .dependentNonResponsive || n.kind == .missedCheckIn {
            evidence(&message, n, state: state, circle: circle, telling: telling, zone: zone)
        }
        message.notice = n.notice
        if n.notice > 1 { message.title += " (\(Notification.ordinal(n.notice)) notice)" }
        if Repeats.repeats(n.kind), let key = n.thread, let thread = Notification.Thread(key: key),
            case let acks = circle.acknowledgements(of: thread).filter({ $0.stamp.at <= sentAt }),
            let ack = acks.last, circle.acknowledgement(of: thread, holdingAt: sentAt) == nil
        {
            // The holds of the "I'm on it"s are over and nothing answered the alarm since.
            let said = acks.enumerated().map { index, ack in
                let who =
                    ack.external.flatMap { circle.externals[subject]?[$0]?.value?.name }
                    ?? circle.members[ack.by]?.name?.value ?? "A responder"
                return "\(who)\(index == 0 ? " said they were on it" : "") at \(zone.text(ack.stamp.at))"
            }
            let last = acks.count > 1 ? " the last" : ""
            message.summary =
                "\(said.joined(separator: ", ")); in the \((sentAt - ack.stamp.at).short) since\(last), no check-in, vouch or other answer has reached the sender of this message. "
                + message.summary
        }
        return message
    }

    /// What the sender of a miss knows, and how it knows it: when the person was last heard
    /// from, and for a watcher's relay, whose device tells and how current its copy is — or
    /// that it could not confirm it, said in the title and the text.
    static func evidence(
        _ message: inout Message, _ n: Notification, state: MemberState, circle: CircleState, telling: Telling?,
        zone: Message.Zone
    ) {
        let name = message.person.name
        // The sending device's own records say only that it is running: not news of the person.
        // A check-in is, whichever device it was made on (a server the person checked in on).
        let checkIn = state.lastCheckIn(asOf: message.sentAt)?.at
        message.lastHeardFrom = [state.lastHeard(excludingDevice: telling?.device, asOf: message.sentAt), checkIn]
            .compactMap { $0 }.max()
        // Said in words by a watcher always (what it knows, and how), by the person's own device
        // when it tells more than their last check-in does.
        let relayed = telling.map { $0.me != n.subject } ?? true
        if let heard = message.lastHeardFrom, relayed || checkIn.map({ heard > $0 }) ?? true {
            message.details.insert(
                ("Last heard from \(name)'s devices", zone.text(heard)), at: min(1, message.details.count))
        }
        guard let telling else { return }
        if n.recipient == .member(telling.me), n.subject != telling.me {
            // A watcher's own user: told at once, and told when this copy could not confirm it.
            message.confirmed = telling.confirmed
            message.copyCurrentAt = telling.evidence?.at
            if !telling.confirmed {
                unconfirmed(&message, n, computer: "this computer", there: "here", telling, zone, circle)
            }
            return
        }
        guard case .external(let owner, _) = n.recipient else { return }
        if owner == telling.me {
            // My own miss: unconfirmed while my phone inbox could not be read (see `ownMiss`).
            message.confirmed = telling.confirmed
            if !telling.confirmed {
                unconfirmed(&message, n, computer: "\(name)'s own computer", there: "there", telling, zone, circle)
            }
            return
        }
        let teller = circle.members[telling.me]?.name?.value ?? "A member of the circle"
        message.relayedBy = teller
        message.confirmed = telling.confirmed
        message.copyCurrentAt = telling.evidence?.at
        if telling.confirmed {
            let how = telling.evidence.map { " (\(Self.describe($0.source)), \(zone.text($0.at)))" } ?? ""
            message.details.append(
                ("Told by", "\(teller)'s lifesignal, whose copy of the circle is known current\(how)"))
            return
        }
        unconfirmed(&message, n, computer: "\(teller)'s computer", there: "there", telling, zone, circle)
    }

    /// Says in the title, the text and the first action that `computer` ("this computer",
    /// "Ana's computer") could not confirm that its copy of the person's records is current.
    static func unconfirmed(
        _ message: inout Message, _ n: Notification, computer: String, there: String, _ telling: Telling,
        _ zone: Message.Zone, _ circle: CircleState
    ) {
        let name = message.person.name
        message.title = "\(name) may have missed the \(zone.clock(n.at)) check-in (unconfirmed)"
        // What kept it from confirming: the sync, or a phone inbox not read since the deadline.
        let url = circle.members[n.subject]?.inbox?.value ?? nil
        let inbox =
            DeliveryRules.inboxBehind(n.subject, n.at, telling.sync, circle)
            ? ((url.flatMap { telling.sync.inboxReads[$0] } ?? nil).map {
                "\(name)'s phone inbox was last read \(zone.text($0))"
            }
                ?? "\(name)'s phone inbox could not be read")
            : nil
        let reasons = [telling.sync.problem, inbox].compactMap { $0 }
        let why = reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))"
        message.summary =
            "Unconfirmed: \(computer) could not confirm that its copy of \(name)'s records is up to date\(why), so \(name) may have checked in without it arriving \(there). "
            + message.summary
        message.actions.insert("Try to reach \(name) first: this alarm is not confirmed.", at: 0)
    }

    /// How a piece of evidence reads: "a record of Carl's", "the last git fetch".
    static func describe(_ source: Evidence.Source) -> String {
        switch source {
        case .person: return "a record of the person's own devices"
        case .myOtherDevice: return "a record of another of its member's devices"
        case .engine(.git): return "the last git fetch"
        case .engine(.syncthing): return "Syncthing's word"
        case .engine(.direct): return "a folder every device writes directly, which no other account can write"
        case .engine(.other): return "its sync tool"
        }
    }

    static func severity(_ kind: Notification.Kind) -> String {
        switch kind {
        case .alertActivated, .dependentAlert, .dependentAlertUpdated, .missedCheckIn, .dependentNonResponsive:
            return "critical"
        case .checkInReminder, .pingReceived, .dependentUnreadable: return "warning"
        case .alertDeactivated, .alertUpdated, .dependentAlertResolved, .dependentCheckedIn, .dependentPaused,
            .dependentResumed, .acknowledged, .contactAdded, .contactRemoved, .roleChanged, .pingSent, .pingCanceled,
            .pingResponded, .allPingsCleared, .system:
            return "info"
        }
    }

    static func status(_ kind: Notification.Kind) -> String {
        switch kind {
        case .dependentAlert, .alertActivated, .dependentNonResponsive, .missedCheckIn: return "triggered"
        case .dependentAlertUpdated, .alertUpdated, .acknowledged: return "updated"
        case .dependentAlertResolved, .alertDeactivated, .dependentCheckedIn: return "resolved"
        case .checkInReminder, .dependentUnreadable, .dependentPaused, .dependentResumed, .contactAdded,
            .contactRemoved, .roleChanged, .pingSent, .pingReceived, .pingCanceled, .pingResponded, .allPingsCleared,
            .system:
            return "info"
        }
    }

    static func title(_ n: Notification, name: String, zone: Message.Zone) -> String {
        switch n.kind {
        case .dependentNonResponsive: return "\(name) missed the \(zone.clock(n.at)) check-in"
        case .missedCheckIn: return "You missed your \(zone.clock(n.at)) check-in"
        case .checkInReminder:
            if case .deadline(_, let at)? = n.thread.flatMap(Notification.Thread.init(key:)) {
                return "Check in by \(zone.clock(at))"
            }
            return n.title
        case .dependentAlert: return "\(name) raised an emergency alert"
        case .dependentAlertUpdated: return "\(name)'s emergency alert: a new message"
        case .dependentAlertResolved: return "\(name) ended the emergency alert"
        case .dependentCheckedIn:
            if n.message.hasPrefix("Vouched:") {
                return "\(name) is fine, someone who watches over them vouches: all clear"
            }
            if n.message.hasPrefix("Schedule changed:") {
                return "\(name) changed their schedule: the missed check-in no longer counts"
            }
            return n.message.hasPrefix("Correction:")
                ? "Correction: \(name) did check in on time" : "\(name) checked in: all clear"
        case .dependentPaused: return "\(name) paused check-ins"
        case .dependentResumed: return "\(name) resumed check-ins"
        case .acknowledged:
            // Its message starts with who answered: "Ana is on it: they acknowledged …".
            guard let end = n.message.firstRange(ofText: " is on it") else {
                return "Acknowledged: someone is on it for \(name)"
            }
            return "\(n.message[..<end.lowerBound]) is on it for \(name)"
        case .dependentUnreadable: return "\(name)'s records cannot be read"
        default: return n.title
        }
    }

    static func recipientName(_ recipient: Notification.Recipient, circle: CircleState) -> String {
        switch recipient {
        case .member(let id): return circle.members[id]?.name?.value ?? ""
        case .external(let owner, let id): return circle.externals[owner]?[id]?.value?.name ?? ""
        }
    }

    /// The notification this one follows in its thread (the alarm an update or all-clear is
    /// about), for the same recipient.
    static func follows(_ n: Notification, feed: Feed) -> String? {
        guard let thread = n.thread,
            DeliveryRules.ends(n.kind) || n.kind == .dependentAlertUpdated
                || n.kind == .alertUpdated || n.kind == .acknowledged || n.notice > 1
        else { return nil }
        return feed.notifications.values.filter {
            $0.thread == thread && $0.recipient == n.recipient && Messages.status($0.kind) == "triggered"
        }.min { ($0.notice, $0.at, $0.id) < ($1.notice, $1.at, $1.id) }?.id
    }

    static func facts(
        _ n: Notification, state: MemberState, person: Message.Person, sentAt: Timestamp, zone: Message.Zone
    ) -> [(label: String, value: String)] {
        var facts: [(label: String, value: String)] = []
        func when(_ time: Timestamp) -> String {
            let span = sentAt - time
            return zone.text(time) + (span.seconds >= 60 ? " (\(span.short) ago)" : "")
        }
        switch n.kind {
        case .dependentNonResponsive, .missedCheckIn:
            facts.append(("Due", when(n.at)))
            if let last = state.lastCheckIn(asOf: sentAt), last.at < n.at {
                facts.append(("Last check-in", when(last.at)))
                if let note = last.note, !n.message.includes(note) { facts.append(("Check-in note", "“\(note)”")) }
            }
        case .dependentAlert, .dependentAlertUpdated:
            facts.append(("Raised", when(n.at)))
        case .dependentCheckedIn:
            if let last = state.lastCheckIn(asOf: sentAt) {
                facts.append(("Checked in", when(last.at)))
                if let note = last.note { facts.append(("Note", "“\(note)”")) }
            }
        default: break
        }
        if let phone = person.phone { facts.append(("Phone", phone)) }
        if let note = person.emergencyNote { facts.append(("Emergency note", note)) }
        return facts
    }

    static func actions(_ n: Notification, person: Message.Person, circle: CircleState) -> [String] {
        let name = person.name
        switch n.kind {
        case .dependentNonResponsive, .dependentAlert, .dependentAlertUpdated:
            var actions: [String] = []
            if let phone = person.phone { actions.append("Call \(name) on \(phone).") }
            actions.append(
                "If you cannot reach \(name), go and check, or ask someone nearby to; if you think \(name) is in danger, call the local emergency number."
            )
            if case .member(let watcher) = n.recipient {
                actions.append(
                    circle.answersFor(n.subject, watcher: watcher)
                        ? "Tell the others you are on it: lifesignal notify ack \(n.id.prefix(8))"
                        : "\(name) has not confirmed that you watch over them, so your 'I'm on it' would stop nothing: reach \(name), or those who watch over them."
                )
            }
            if n.kind == .dependentNonResponsive { actions.append("You will get an all-clear when \(name) checks in.") }
            return actions
        case .missedCheckIn, .checkInReminder: return ["Check in now: lifesignal checkin"]
        default: return []
        }
    }

    /// The others to be told of the same cause by `sentAt`: those known to have been told,
    /// and those still being told (pending, failing, or in this same run). A message never
    /// claims someone was told who was not.
    static func others(_ n: Notification, circle: CircleState, feed: Feed, sentAt: Timestamp) -> (
        told: [String], beingTold: [String]
    ) {
        guard let key = n.thread, let thread = Notification.Thread(key: key) else { return ([], []) }
        let member = n.subject
        var recipients = Notifications.responders(of: member, in: circle)
        if case .deadline(_, let deadline) = thread {
            recipients = Escalation.toldOfMiss(recipients, member: member, deadline: deadline, now: sentAt, in: circle)
        }
        // Whoever answered is not among those to be told of the answer.
        let answered: Notification.Recipient? =
            n.kind == .acknowledged
            ? circle.acknowledgements(of: thread).last(where: { $0.stamp.at == n.at }).map { ack in
                ack.external.map { .external(owner: member, id: $0) } ?? .member(ack.by)
            } : nil
        var told: [String] = []
        var beingTold: [String] = []
        for recipient in recipients where recipient != n.recipient && recipient != answered {
            var name = recipientName(recipient, circle: circle)
            guard !name.isEmpty else { continue }
            // A member who only says they watch over the person took any name they liked.
            if case .member(let id) = recipient, !circle.confirmedWatcher(id, by: member) {
                name += " (not confirmed by \(circle.members[member]?.name?.value ?? "them"))"
            }
            if wasTold(recipient, of: n, circle: circle, feed: feed, by: sentAt) {
                told.append(name)
            } else {
                beingTold.append(name)
            }
        }
        return (told, beingTold)
    }

    /// Whether `recipient` is known to have been told of `n`'s cause: an external contact
    /// when a delivery of theirs is recorded (here or in the circle); a member when a device
    /// of theirs has run `notify deliver` since the cause (it noticed it then).
    static func wasTold(
        _ recipient: Notification.Recipient, of n: Notification, circle: CircleState, feed: Feed, by sentAt: Timestamp
    ) -> Bool {
        switch recipient {
        case .member(let id):
            return circle.members[id]?.deliverRun.map { $0.at >= n.at && $0.at <= sentAt } ?? false
        case .external:
            let theirs = Set(
                feed.notifications.values.filter { $0.thread == n.thread && $0.recipient == recipient }.map(\.id))
            guard !theirs.isEmpty else { return false }
            // A record in the circle counts only as `isDelivered` believes one: a stranger's
            // claim must not make a message say someone was told.
            return feed.deliveries.contains { theirs.contains($0.key.notification) && $0.value.isDelivered }
                || circle.deliveries.keys.contains {
                    theirs.contains($0.notification)
                        && DeliveryRules.isDelivered($0, to: recipient, feed: Feed(), circle: circle)
                }
        }
    }
}
