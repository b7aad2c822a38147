import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// `doctor`: the whole chain from this data directory to the people who must hear, checked
/// in one read: identity and circle, my countdown, who watches over me and whether they can
/// be reached, each channel and heartbeat URL as this machine has seen them, when delivery
/// last ran, how fresh each member's records are, and the clock.
extension App {
    public struct Checkup: Sendable {
        public var name: String
        public var member: String
        public var device: String
        public var dataDirectory: String
        public var circle: String
        public var checkIn: CheckInStatus
        public var responders: [ResponderReach]
        /// The channels my own notifications go to, and the names of those I watch over (whose
        /// alerts reach me only through them).
        public var ownChannels: [String]
        public var dependents: [String]
        /// Every channel this machine delivers through: mine, my external contacts', and my
        /// dependents' external contacts' network channels.
        public var channels: [ChannelHealth]
        public var heartbeats: [HeartbeatEntry]
        /// When `notify deliver` last ran on this machine, and on any device of mine.
        public var lastDeliverHere: Timestamp?
        public var lastDeliverAnywhere: Timestamp?
        public var members: [MemberFreshness]
        /// Doubts, as `status` says them (also for what the lines above show).
        public var warnings: [Warning]
        /// Why a write in this data directory would fail (nil: it would not).
        public var writeProblem: StoreError?
        /// Command channels (`exec:`, `desktop:`) another device of mine set, which do not run
        /// on this one.
        public var commandsElsewhere: [CommandElsewhere]
        /// How current this copy of the circle is known to be (see Freshness.swift).
        public var sync: SyncView
        /// Who speaks for whom: this device's key fingerprint (nil before its first write), how
        /// many devices of mine count, whether I have a recovery code, and the doubts.
        public var devices = Devices()
        /// My inbox for check-ins from the phone, what one read of it said just now (nil error:
        /// it answered), and this device's phone topic to send buttons to (or why it cannot be
        /// read: a damaged `phone.json` must not quietly mean "no buttons").
        public var inbox: (url: String, error: String?, phone: Result<String?, StoreError>)? = nil
        /// Why `phone.json` (this device's phone and button topics) cannot be read, if it cannot.
        public var phoneFile: StoreError? = nil
        /// My daily schedule, when the rule stored with it differs from its zone's own clock
        /// within the coming year (the zone file changed since, or has exceptions the rule
        /// cannot carry): from when.
        public var scheduleDrift: (schedule: DailySchedule, from: Timestamp)? = nil
        /// Who besides the members' devices holds the records (see `CircleReader`).
        public var readers: [CircleReader] = []
    }

    public struct Devices: Sendable {
        public var fingerprint: String?
        public var counting = 0
        public var hasRecoveryCode = false
        public var doubts: [Warning] = []
    }

    /// A command channel set on another device of the member, for `owner` ("you" or a contact).
    public struct CommandElsewhere: Sendable, Equatable {
        public var channel: String
        public var owner: String
        public var device: String
    }

    /// One responder, and whether a missed check-in of mine reaches them.
    public struct ResponderReach: Sendable {
        public var name: String
        public var isMember: Bool
        public var reachable: Bool
        /// An external contact's channels; nil for a member.
        public var channels: [String]?
        /// A member's latest recorded delivery run.
        public var lastDeliver: Timestamp?
    }

    public struct ChannelHealth: Sendable {
        public var channel: String
        /// Whose it is: "you", or a contact's name.
        public var owner: String
        public var health: LinkHealth?
        /// Why its program would not work when cron runs `notify deliver` (see `Programs`).
        public var cronProblem: String? = nil
        /// A phone or button topic of this device that is also in the circle, so it is sent
        /// nothing (its button's token would be anyone's).
        public var readByTheCircle = false
    }

    public struct MemberFreshness: Sendable {
        public var name: String
        public var isMe: Bool
        /// The latest change of theirs this machine has seen.
        public var lastChange: Timestamp?
    }

    public func checkup() throws(AppError) -> Checkup {
        let (store, snapshot) = try read()
        let me = store.identity.member
        let circle = snapshot.state
        let state = circle.members[me] ?? MemberState()
        let health = HealthFile.read(dataDirectory: dataDirectory)
        let sync = syncView(store, asking: true)
        // The responders I set: one who only says they watch over me is in the warnings.
        let responders = Notifications.confirmedResponders(of: me, in: circle).compactMap {
            reach($0, in: circle)
        }
        let members = circle.knownMembers.map { id in
            MemberFreshness(
                name: circle.members[id]?.name?.value ?? id, isMe: id == me,
                lastChange: circle.members[id].flatMap(Self.lastChange))
        }
        return Checkup(
            name: state.name?.value ?? defaultName(), member: me, device: store.identity.device,
            dataDirectory: store.dataDirectory, circle: store.circleDirectory,
            checkIn: circle.status(of: me, now: now), responders: responders,
            ownChannels: state.effectivePreferences.channels,
            dependents: circle.contacts(of: me).filter { $0.kind == .member && $0.roles.dependent }.map(\.name),
            channels: (Self.channels(of: me, device: store.identity.device, in: circle, health: health)
                + Self.privateChannels(store, circle: circle, health: health)).map {
                    var channel = $0
                    channel.cronProblem = Programs.cronProblem(
                        of: channel.channel.split(separator: " ").first.map(String.init) ?? channel.channel,
                        environment: environment)
                    return channel
                },
            heartbeats: (state.heartbeats?.value.all ?? []).map {
                HeartbeatEntry(url: $0.url, on: $0.on, health: health.heartbeats[$0.url])
            },
            lastDeliverHere: health.lastDeliver, lastDeliverAnywhere: state.deliverRun?.at, members: members,
            warnings: Self.watchWarnings(for: me, in: circle, now: now, health: health)
                + Self.circleWarnings(of: me, in: circle, device: store.identity.device, sync: sync, now: now),
            writeProblem: store.writeProblem() ?? store.signingProblem(thorough: true),
            commandsElsewhere: Self.commandsElsewhere(of: me, in: circle, device: store.identity.device), sync: sync,
            devices: Devices(
                fingerprint: store.deviceFingerprint(), counting: snapshot.speakers[me]?.believed.count ?? 1,
                hasRecoveryCode: state.recovery != nil,
                doubts: trustWarnings(snapshot.speakers, rejected: snapshot.rejected, circle: circle, store: store)),
            inbox: (state.inbox?.value ?? nil).map { url in
                // One read of what came last: whether the topic answers, as the delivery runs will.
                let phone = Result { () throws(StoreError) in try store.phoneTopic() }
                switch channels.poll(url, "latest", environment) {
                case .success: return (url, nil, phone)
                case .failure(let failure): return (url, failure.message, phone)
                }
            },
            phoneFile: { () -> StoreError? in
                do throws(StoreError) {
                    _ = try store.phoneTopics()
                    return nil
                } catch { return error }
            }(),
            scheduleDrift: scheduleDrift(state.schedule?.value), readers: circleReaders(store))
    }

    /// My daily schedule against its zone's file as this machine has it now: the rule stored
    /// with the schedule (so that every device computes the same deadlines) may no longer be
    /// the zone's clock (a tzdata update, an exception decided since).
    func scheduleDrift(_ schedule: DailySchedule?) -> (schedule: DailySchedule, from: Timestamp)? {
        guard let schedule, let stored = try? ZoneRules(posixTZ: schedule.rule),
            let file = try? ZoneFiles.load(schedule.zone, directory: ZoneFiles.directory(tzdir: environment["TZDIR"]))
        else { return nil }
        return file.disagreement(with: stored, from: now, through: now + .days(366)).map { (schedule, $0) }
    }

    /// This device's phone topic and button topics, with their health here, and whether the
    /// circle can read them (then they are sent nothing).
    static func privateChannels(_ store: Store, circle: CircleState, health: Health) -> [ChannelHealth] {
        let topics = (try? store.phoneTopics()) ?? PhoneTopics()
        let known = Address.ntfyTopics(in: circle)
        var found: [ChannelHealth] = []
        func add(_ url: String, _ what: String, owner: String, key: String) {
            var channel = ChannelHealth(
                channel: "\(ChannelKind.ntfy.channel(url)) (\(what), this device only)", owner: owner,
                health: health.channels[key])
            channel.readByTheCircle = known.contains(Address.comparableTopic(url))
            found.append(channel)
        }
        if let phone = topics.phone { add(phone, "phone topic", owner: "you", key: DeliveryRules.phoneChannel) }
        let me = store.identity.member
        for (id, url) in topics.responders.sorted(by: { $0.key < $1.key }) {
            guard let contact = circle.externals[me]?[id]?.value else { continue }
            add(url, "button topic", owner: contact.name, key: DeliveryRules.buttonChannel(id))
        }
        return found
    }

    /// My command channels whose setting another device of mine made: they run there, not here.
    static func commandsElsewhere(of me: String, in circle: CircleState, device: String) -> [CommandElsewhere] {
        var found: [CommandElsewhere] = []
        if let preferences = circle.members[me]?.preferences {
            for channel in DeliveryRules.commandsSetElsewhere(
                preferences.value.channels, setBy: preferences.stamp, on: device)
            {
                found.append(CommandElsewhere(channel: channel, owner: "you", device: preferences.stamp.device))
            }
        }
        for (_, contact) in (circle.externals[me] ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let value = contact.value else { continue }
            for channel in DeliveryRules.commandsSetElsewhere(value.channels, setBy: contact.stamp, on: device) {
                found.append(CommandElsewhere(channel: channel, owner: value.name, device: contact.stamp.device))
            }
        }
        return found
    }

    private func reach(_ recipient: Notification.Recipient, in circle: CircleState) -> ResponderReach? {
        switch recipient {
        case .external(let owner, let id):
            guard let contact = circle.externals[owner]?[id]?.value else { return nil }
            return ResponderReach(
                name: contact.name, isMember: false, reachable: !contact.channels.isEmpty, channels: contact.channels)
        case .member(let id):
            let run = circle.members[id]?.deliverRun?.at
            return ResponderReach(
                name: circle.members[id]?.name?.value ?? id, isMember: true,
                reachable: run.map { now - $0 <= Self.watchingWindow } ?? false, channels: nil, lastDeliver: run)
        }
    }

    /// Every channel this device delivers through (a command channel only where it was set).
    static func channels(of me: String, device: String, in circle: CircleState, health: Health) -> [ChannelHealth] {
        var found: [ChannelHealth] = []
        func add(_ channel: String, _ owner: String) {
            guard !found.contains(where: { $0.channel == channel }) else { return }
            found.append(ChannelHealth(channel: channel, owner: owner, health: health.channels[channel]))
        }
        let preferences = circle.members[me]?.preferences
        for channel in DeliveryRules.runnable(preferences?.value.channels ?? [], setBy: preferences?.stamp, on: device)
        {
            add(channel, "you")
        }
        for external in circle.externalContacts(of: me) {
            for channel in DeliveryRules.runnable(external.contact.channels, setBy: external.stamp, on: device) {
                add(channel, external.contact.name)
            }
        }
        for other in circle.linkedMembers(of: me) where circle.roles(of: me, toward: other)?.dependent ?? false {
            for external in circle.externalContacts(of: other) {
                for channel in external.contact.channels where DeliveryRules.runsForOthers(channel) {
                    add(channel, external.contact.name)
                }
            }
        }
        return found
    }

    /// The latest stamp among a member's state: when this machine last saw them change.
    static func lastChange(_ state: MemberState) -> Timestamp? {
        let stamps: [Stamp?] = [
            state.name?.stamp, state.interval?.stamp, state.reminder?.stamp, state.code?.stamp,
            state.preferences?.stamp, state.heartbeats?.stamp, state.deliverRun, state.recentCheckIns.first?.stamp,
        ]
        let alerts = state.alerts.values.flatMap { [$0.start, $0.end] }
        return (stamps + alerts).compactMap { $0?.at }.max()
    }
}
