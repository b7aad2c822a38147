/// Which notifications a device sends, through which channels, and in what order: the rules
/// of the safety net. Pure: the feed, the circle, whose device is asking and `now` in; a plan
/// out.
///
/// - **The circle watches.** A device delivers to its member and its member's external
///   contacts, and also — for alerts and missed check-ins — to the external responders of its
///   member's dependents, so a dependent whose own machines are dark is still reported. On
///   someone else's behalf only network channels are used. A command channel (`exec:`,
///   `desktop:`) runs only on the device that set it — the device whose own event set the
///   contact or preferences holding it — never from anything another device wrote. A delivery
///   recorded in the circle by a device that could have made it is not made again.
/// - **No silent horizon.** A miss still overdue and an alert still active are sent however
///   late. Only causes that have ended grow stale.
/// - **Order.** Per channel, deliveries go out in the order of their causes, and a channel
///   stops at its first failure in a run, so nothing overtakes what it follows: an all-clear
///   never precedes its miss, and is sent only where the miss was told.
public enum DeliveryRules {
    /// How long an ended cause may still be sent (when it was tried before it ended).
    public static let horizon = TimeSpan.hours(48)
    /// How long a device waits before telling a dependent's external contact of something, so
    /// that the dependent's own device, when it is awake, tells them first and the circle does
    /// not send it twice.
    public static let relayDelay = TimeSpan.minutes(10)

    /// What a device tells a dependent's external responders on the dependent's behalf.
    static func isRelayed(_ kind: Notification.Kind) -> Bool {
        switch kind {
        case .dependentAlert, .dependentAlertUpdated, .dependentAlertResolved, .dependentNonResponsive,
            .dependentCheckedIn, .dependentPaused, .dependentResumed, .acknowledged:
            return true
        case .alertActivated, .alertDeactivated, .alertUpdated, .checkInReminder, .missedCheckIn,
            .dependentUnreadable, .contactAdded, .contactRemoved, .roleChanged, .pingSent, .pingReceived,
            .pingCanceled, .pingResponded, .allPingsCleared, .system:
            return false
        }
    }

    /// Whether a channel may run on someone else's behalf, or from a setting another device
    /// made: the network ones (e-mail, ntfy, webhooks, Apprise). A command or a desktop pop-up
    /// names programs of one machine, and runs only on the device that set it.
    public static func runsForOthers(_ channel: String) -> Bool {
        ChannelKind(of: channel)?.runsForOthers ?? false
    }

    /// The channels of a setting (an external contact's, or the member's preferences) that
    /// run on `device`: all of them on the device that set it, else the network ones.
    public static func runnable(_ channels: [String], setBy stamp: Stamp?, on device: String) -> [String] {
        stamp?.device == device ? channels : channels.filter(runsForOthers)
    }

    /// The command channels of a setting that do not run on `device` because another device
    /// set them (what `doctor` reports on the member's other devices).
    public static func commandsSetElsewhere(_ channels: [String], setBy stamp: Stamp?, on device: String) -> [String] {
        stamp?.device == device ? [] : channels.filter { !runsForOthers($0) }
    }

    /// Whether `me`'s device delivers `n`: mine, my external contacts', and my dependents'
    /// external contacts' alerts and missed check-ins.
    public static func serves(_ n: Notification, me: String, circle: CircleState) -> Bool {
        switch n.recipient {
        case .member(let id): return id == me
        case .external(let owner, _):
            return owner == me || (isRelayed(n.kind) && relays(to: n.recipient, me: me, circle: circle))
        }
    }

    /// The channel of this device's phone topic, kept on this machine only (see
    /// `PhoneCheckIns`): the member's reminders and missed check-in notices go there too, with an
    /// "I'm OK" button, from the device that has one. Its address is never in the circle: the
    /// feed records deliveries through it under this name.
    public static let phoneChannel = "phone:"

    /// The channel of this device's button topic for my external responder `id`, kept on this
    /// machine only like the phone topic: the alarms about me that go to her go there too, as
    /// a message of their own with an "I'm on it" button. Her own channels, in the circle, get
    /// them as always, so a dead or mistyped button topic costs the button, never the alarm.
    public static func buttonChannel(_ id: String) -> String { "button:" + id }

    /// The external contact whose button topic `channel` is, if it is one.
    public static func buttonContact(of channel: String) -> String? {
        channel.hasPrefix("button:") ? String(channel.dropFirst(7)) : nil
    }

    /// The channels `n` goes through from `me`'s device `device`; `local` are the channels of
    /// this device alone (its phone topic, its responders' button topics).
    public static func channels(
        for n: Notification, me: String, device: String, circle: CircleState, local: [String] = []
    ) -> [String] {
        let shared = channels(to: n.recipient, me: me, device: device, circle: circle)
        let mine = localChannels(to: n.recipient, me: me, circle: circle, local: local)
        guard !mine.isEmpty else { return shared }
        switch n.kind {
        case .checkInReminder, .missedCheckIn: return n.recipient == .member(me) ? shared + mine : shared
        case .dependentNonResponsive, .dependentAlert, .dependentAlertUpdated:
            return n.recipient == .member(me) ? shared : shared + mine
        case .alertActivated, .alertDeactivated, .alertUpdated, .dependentAlertResolved, .dependentCheckedIn,
            .dependentUnreadable, .dependentPaused, .dependentResumed, .acknowledged, .contactAdded, .contactRemoved,
            .roleChanged, .pingSent, .pingReceived, .pingCanceled, .pingResponded, .allPingsCleared, .system:
            return shared
        }
    }

    /// This device's own channels that may take something for `recipient`: the phone topic
    /// for me, a button topic for an external responder of mine while I have an inbox (the
    /// button posts there: without one, there is nothing to tap).
    public static func localChannels(
        to recipient: Notification.Recipient, me: String, circle: CircleState, local: [String]
    ) -> [String] {
        switch recipient {
        case .member(let id): return id == me ? local.filter { $0 == phoneChannel } : []
        case .external(let owner, let id):
            guard owner == me, (circle.members[me]?.inbox?.value ?? nil) != nil else { return [] }
            return local.filter { $0 == buttonChannel(id) }
        }
    }

    /// Whether `channel` is one of a device alone (a phone or button topic), which only that
    /// device sends through.
    static func isLocal(_ channel: String) -> Bool { channel == phoneChannel || buttonContact(of: channel) != nil }

    /// The channels that reach `recipient` from `me`'s device `device`.
    static func channels(to recipient: Notification.Recipient, me: String, device: String, circle: CircleState)
        -> [String]
    {
        switch recipient {
        case .member(let id):
            let preferences = circle.members[id]?.preferences
            return runnable(preferences?.value.channels ?? [], setBy: preferences?.stamp, on: device)
        case .external(let owner, let id):
            let contact = circle.externals[owner]?[id]
            let channels = contact?.value?.channels ?? []
            return owner == me ? runnable(channels, setBy: contact?.stamp, on: device) : channels.filter(runsForOthers)
        }
    }

    /// Whether `me`'s device relays to `recipient`, someone else's external contact (see `serves`).
    static func relays(to recipient: Notification.Recipient, me: String, circle: CircleState) -> Bool {
        guard case .external(let owner, _) = recipient, owner != me else { return false }
        return circle.roles(of: me, toward: owner)?.dependent ?? false
    }

    /// Whether `n` can still lead to a delivery from `me`'s device while the feed, the
    /// recipient's channels and what this device relays stay as they are, and time goes on:
    /// it is served here and not delivered through one of its channels, and it is not a lone
    /// notification past the horizon or a reminder past its deadline (those never go again).
    static func mayAct(
        on n: Notification, feed: Feed, me: String, device: String, circle: CircleState, now: Timestamp,
        local: [String] = []
    ) -> Bool {
        guard serves(n, me: me, circle: circle),
            channels(for: n, me: me, device: device, circle: circle, local: local).contains(where: {
                !(feed.deliveries[DeliveryKey(notification: n.id, channel: $0)]?.isDelivered ?? false)
            })
        else { return false }
        guard let key = n.thread, let thread = Notification.Thread(key: key) else { return n.at >= now - horizon }
        if n.kind == .checkInReminder, case .deadline(_, let deadline) = thread { return now <= deadline }
        return true
    }

    /// One notification to send through one channel. A dependent's miss relayed by a watcher
    /// says whether the watcher could confirm it (see `relay(missOf:…)`), and how.
    public struct Job: Equatable, Sendable {
        public var notification: Notification
        public var channel: String
        public var confirmed = true
        public var evidence: Evidence? = nil
        public var key: DeliveryKey { DeliveryKey(notification: notification.id, channel: channel) }
    }

    /// What to do now: per channel, the jobs to try in order (stopping at the first failure),
    /// and the jobs that wait for their channel's next try.
    public struct Plan: Equatable, Sendable {
        public var channels: [(channel: String, jobs: [Job])] = []
        public var waiting: [(job: Job, next: Timestamp, error: String)] = []

        public var jobs: [Job] { channels.flatMap(\.jobs) }

        public static func == (a: Plan, b: Plan) -> Bool {
            a.jobs == b.jobs && a.waiting.map(\.job) == b.waiting.map(\.job)
        }
    }

    /// With `retryingNow`, a channel that waits out a pause after failures is tried at once.
    /// `sync` is what this device knows of its sync engine (a relayed miss needs evidence).
    public static func plan(
        feed: Feed, circle: CircleState, me: String, device: String, now: Timestamp, retryingNow: Bool = false,
        sync: SyncView? = nil, local: [String] = []
    ) -> Plan {
        let sync = sync ?? .direct(now: now)
        let ordered = feed.notifications.values.filter { serves($0, me: me, circle: circle) }.sorted(by: causeOrder)
        var pending: [String: [Job]] = [:]
        var order: [String] = []
        for n in ordered {
            var relay = RelayDecision.send(confirmed: true, evidence: nil)
            if case .external(let owner, _) = n.recipient, owner != me {
                if now < n.at + relayDelay,
                    !answeredHere(n, me: me, device: device, circle: circle, feed: feed)
                {
                    continue
                }
                if n.kind == .dependentNonResponsive {
                    relay = Self.relay(
                        missOf: n.subject, deadline: n.at, me: me, device: device, circle: circle, sync: sync, now: now)
                }
            } else if n.kind == .dependentNonResponsive, n.recipient == .member(me) {
                relay = Self.ownWord(
                    missOf: n.subject, deadline: n.at, me: me, device: device, circle: circle, sync: sync, now: now)
            } else if n.kind == .dependentNonResponsive, n.subject == me {
                relay = Self.ownMiss(deadline: n.at, me: me, circle: circle, sync: sync, feed: feed)
            }
            guard case .send(let confirmed, let evidence) = relay else { continue }
            for channel in channels(for: n, me: me, device: device, circle: circle, local: local) {
                let job = Job(notification: n, channel: channel, confirmed: confirmed, evidence: evidence)
                guard !isDelivered(job.key, to: n.recipient, feed: feed, circle: circle),
                    isWanted(job, pending: pending[channel] ?? [], feed: feed, circle: circle, now: now)
                else { continue }
                if pending[channel] == nil { order.append(channel) }
                pending[channel, default: []].append(job)
            }
        }
        var plan = Plan()
        for channel in order {
            let jobs = pending[channel] ?? []
            // A channel is tried when something on it is due (new, or its pause is over); then
            // everything pending on it goes, oldest cause first.
            let states = jobs.map { feed.deliveries[$0.key] ?? DeliveryState() }
            if retryingNow || states.contains(where: { $0.isDue(now: now) }) {
                plan.channels.append((channel, jobs))
            } else {
                let next = states.compactMap(\.nextAttempt).min() ?? now
                let error = states.compactMap(\.lastError).first ?? "failed"
                plan.waiting += jobs.map { ($0, next, error) }
            }
        }
        return plan
    }

    /// Causes in the order they happened; at one instant, what starts before what ends.
    static func causeOrder(_ a: Notification, _ b: Notification) -> Bool {
        (a.at, ends(a.kind) ? 1 : 0, a.id) < (b.at, ends(b.kind) ? 1 : 0, b.id)
    }

    static func ends(_ kind: Notification.Kind) -> Bool {
        switch kind {
        case .alertDeactivated, .dependentAlertResolved, .dependentCheckedIn: return true
        case .alertActivated, .alertUpdated, .dependentAlertUpdated, .dependentAlert, .checkInReminder,
            .missedCheckIn, .dependentNonResponsive, .dependentUnreadable, .dependentPaused, .dependentResumed,
            .acknowledged, .contactAdded, .contactRemoved, .roleChanged, .pingSent, .pingReceived, .pingCanceled,
            .pingResponded, .allPingsCleared, .system:
            return false
        }
    }

    /// Whether a delivery to `recipient` is recorded: in this member's feed, or in the circle by
    /// a member who could have made it — the contact's owner, or someone who watches over them
    /// and so relays for them, with the owner's confirmation (`answersFor`: a record that stops
    /// everyone else's send is a say over the owner's alarms). Anyone else's record of it is a
    /// claim nobody acts on: at worst the contact hears twice. With `forAllClear`, the record of a
    /// watcher the owner never confirmed counts too: it is enough to follow the miss with its
    /// all-clear, which is true whoever's word it follows.
    static func isDelivered(
        _ key: DeliveryKey, to recipient: Notification.Recipient, feed: Feed, circle: CircleState,
        forAllClear: Bool = false
    ) -> Bool {
        if feed.deliveries[key]?.isDelivered ?? false { return true }
        // A channel of one device alone is sent only by that device: anyone else's record of a
        // delivery through it is a claim, and would only take the button away.
        guard !isLocal(key.channel), let record = circle.deliveries[key] else { return false }
        switch recipient {
        case .member(let id): return record.by == id
        case .external(let owner, _):
            return record.by == owner
                || (forAllClear
                    ? circle.roles(of: record.by, toward: owner)?.dependent ?? false
                    : circle.answersFor(owner, watcher: record.by))
        }
    }

    /// Whether a job that has not gone out should still go: a cause in force always; an ended
    /// one only where it was tried before it ended (and not long ago); the end of a cause only
    /// where its start was told (or goes out before it in this run). So a channel or responder
    /// added later gets only what is still in force.
    static func isWanted(_ job: Job, pending: [Job], feed: Feed, circle: CircleState, now: Timestamp) -> Bool {
        let n = job.notification
        guard let key = n.thread, let thread = Notification.Thread(key: key) else {
            // Standing alone (a ping, a contact change): recent, and not older than the channel.
            return n.at >= now - horizon && n.at >= channelSince(n.recipient, circle: circle)
        }
        // A button is worth something only while the alarm is unanswered: one held back by a
        // failure never goes after the all-clear or an acknowledgement.
        if buttonContact(of: job.channel) != nil {
            return Repeats.isUnanswered(thread, of: n.subject, circle: circle, now: now)
        }
        if ends(n.kind) {
            return pending.contains { $0.notification.thread == key && $0.notification.recipient == n.recipient }
                || feed.notifications.values.contains { start in
                    start.thread == key && start.recipient == n.recipient && !ends(start.kind)
                        && isDelivered(
                            DeliveryKey(notification: start.id, channel: job.channel), to: start.recipient, feed: feed,
                            circle: circle, forAllClear: true)
                } || missRelayed(before: n, channel: job.channel, thread: thread, feed: feed, circle: circle)
        }
        if n.kind == .checkInReminder, case .deadline(_, let deadline) = thread {
            return now <= deadline && isInForce(thread, of: n.subject, circle: circle, now: now)
        }
        // A repeat goes only while its alarm is unanswered: one made before an acknowledgement,
        // a vouch or the end, and not sent yet, would be a false alarm; and only while no later
        // notice of the same alarm to the same person was made (one held back by a hold would
        // otherwise go out beside the newest).
        if n.notice > 1 {
            return Repeats.isUnanswered(thread, of: n.subject, circle: circle, now: now)
                && !feed.notifications.values.contains {
                    $0.notice > n.notice && $0.thread == key && $0.recipient == n.recipient && $0.kind == n.kind
                }
        }
        if isInForce(thread, of: n.subject, circle: circle, now: now) { return true }
        let tried = (feed.deliveries[job.key]?.failures ?? 0) > 0
        return tried && n.at >= now - horizon
    }

    /// For an all-clear that follows a miss another member's device told (a watcher's relay,
    /// not in this device's feed): whether that miss went through `channel`.
    static func missRelayed(
        before n: Notification, channel: String, thread: Notification.Thread, feed: Feed, circle: CircleState
    ) -> Bool {
        guard n.kind == .dependentCheckedIn, case .deadline(_, let deadline) = thread else { return false }
        let miss = Notification.id(
            kind: .dependentNonResponsive, cause: "\(deadline.seconds)", subject: n.subject, recipient: n.recipient)
        return isDelivered(
            DeliveryKey(notification: miss, channel: channel), to: n.recipient, feed: feed, circle: circle,
            forAllClear: true)
    }

    /// When the setting that holds a recipient's channels was last made: a channel added then
    /// is not sent what stood alone before it.
    static func channelSince(_ recipient: Notification.Recipient, circle: CircleState) -> Timestamp {
        switch recipient {
        case .member(let id): return circle.members[id]?.preferences?.stamp.at ?? Timestamp(seconds: 0)
        case .external(let owner, let id): return circle.externals[owner]?[id]?.stamp.at ?? Timestamp(seconds: 0)
        }
    }

    /// Whether what a thread about `subject` still holds: their alert is active; the deadline
    /// still stands (nobody checked in since it was set). Another member's alert with the same
    /// id (only a forgery repeats a random id) says nothing about this one.
    public static func isInForce(
        _ thread: Notification.Thread, of subject: String, circle: CircleState, now: Timestamp
    ) -> Bool {
        switch thread {
        case .alert(let id):
            return circle.members[subject]?.alerts[id]?.isActive ?? false
        case .deadline(let member, let at):
            guard circle.members[member] != nil else { return false }
            let status = circle.status(of: member, now: now)
            return status.deadline == at
        }
    }
}
