import LifeSignalCore

/// Reading a member's logs with trust: a log counts for its member only when a device that
/// speaks for them signed it (see `Speakers` in the core). This reader's own member is read
/// first — its pins and links decide whose logs everyone else's need checking — then each
/// other member's folder as a whole: every device's log is read, the signatures are checked
/// when anything in them could concern this reader, and only the logs that count are folded
/// in. The rest are kept where they are (nobody edits another device's file) and reported.
///
/// Checking costs one signature per log (about 55 µs), so a reader checks the logs of its own
/// member, of the members it is linked with or pinned, and of anyone whose log states
/// something between members (a relation, a ping, an acknowledgement, a delivery); a log that
/// holds only another member's own profile concerns nobody else and is taken as it is. The
/// cache keeps what was decided, so a file is checked again only when it changes.
extension Store {
    /// What this reader holds before it reads everyone else.
    struct TrustBasis: Sendable {
        /// This reader's member and device ("" for a visitor, who has neither).
        var me: String
        var device: String
        /// The key fingerprints this reader's member pinned, by member; those from a code.
        var pins: [String: Set<String>] = [:]
        var fromCode: [String: Set<String>] = [:]
        /// The members ever linked with this reader's member, as its own devices recorded it.
        var linked: Set<String> = []
        /// What this reader verified before, by member (see TrustMemory.swift).
        var seen: [String: TrustSeen] = [:]
        /// What is left of this run's reading of others' records (nil: no bound).
        var budget: ReadBudget?

        /// A reader's basis for its own member's logs: only its own log's pins.
        init(me: String, device: String, own: MemberState?) {
            self.me = me
            self.device = device
            pins = (own?.pins ?? [:]).mapValues { Set($0.keys) }
            fromCode = (own?.pins ?? [:]).mapValues { Set($0.filter(\.value.fromCode).keys) }
        }

        /// The basis for everyone else: the pins and links of this reader's member, as the
        /// logs of it that count state them.
        init(me: String, device: String, state: CircleState) {
            self.init(me: me, device: device, own: state.members[me])
            linked = Set(state.relations.keys.compactMap { $0.low == me || $0.high == me ? $0.other(than: me) : nil })
        }

        /// Whether the logs of `member` are checked before they are believed.
        func checks(_ member: String, _ logs: [DeviceLog]) -> Bool {
            !me.isEmpty
                && (member == me || pins[member] != nil || linked.contains(member)
                    || logs.contains { $0.state.statesBetweenMembers })
        }
    }

    /// The logs of `members` (but this reader's member), for `readCircle`.
    func readLogs(of members: ArraySlice<String>, basis: TrustBasis) -> Result<CircleRead, StoreError> {
        var read = CircleRead()
        for member in members {
            do {
                try readMemberFolder(member, basis: basis, into: &read)
            } catch {
                return .failure(error)
            }
        }
        return .success(read)
    }

    /// One member's folder: its devices' logs, those that count folded into `read`. A folder
    /// that cannot be listed is skipped and reported, except this reader's own member's.
    func readMemberFolder(
        _ member: String, basis: TrustBasis, own: DeviceLog? = nil, into read: inout CircleRead
    ) throws(StoreError) {
        read.entries.append(CircleCache.Entry(path: "members/\(member)", key: Posix.key(memberDirectory(member))))
        let devices: [String]
        do {
            let listed = try folders(in: memberDirectory(member))
            devices = listed.names
            for (_, error) in listed.refused { read.skip(error, member: member, since: .missing) }
        } catch {
            if member == identity.member { throw error }
            read.skip(error, member: member, since: Posix.key(memberDirectory(member)))
            return
        }
        readDevices(of: member, devices: devices, basis: basis, own: own, into: &read)
    }

    /// Reads the logs of `devices` of `member` (all but this device's own, which is `own` when
    /// `member` is this reader's) and folds into `read` those that count.
    func readDevices(
        of member: String, devices: [String], basis: TrustBasis, own: DeviceLog? = nil, into read: inout CircleRead
    ) {
        var logs: [(log: DeviceLog, bytes: [UInt8], key: Posix.FileKey)] = []
        // The devices this reader verified before first, so that logs put beside them cannot
        // use up the run's reading before theirs.
        let known = basis.seen[member]?.devices ?? [:]
        for device in devices.filter({ known[$0] != nil }) + devices.filter({ known[$0] == nil })
        where !isOwn(member: member, device: device) {
            var key = Posix.FileKey.missing
            if let budget = basis.budget, budget.isSpent {
                let path = logPath(member: member, device: device)
                if read.notRead == nil { read.notRead = budget.leftOut(path) }
                read.markUnreadable(member, since: Posix.key(path))
                continue
            }
            do {
                if let (log, bytes) = try readLogFile(member: member, device: device, key: &key, stateOnly: true) {
                    logs.append((log, bytes, key))
                } else {
                    read.entries.append(CircleCache.Entry(logOf: member, device: device, key: key, log: nil))
                }
            } catch {
                read.skip(error, member: member, since: Posix.key(logPath(member: member, device: device)))
            }
            // What was read counts, whether it made a log or not (a file over the limit was not).
            if key.size <= ReadBudget.logLimit { basis.budget?.spend(Int(max(0, key.size))) }
        }
        guard basis.checks(member, logs.map(\.log) + (own.map { [$0] } ?? [])) else {
            for (log, _, key) in logs {
                read.fold(log)
                read.entries.append(CircleCache.Entry(logOf: member, device: log.device, key: key, log: log))
            }
            return
        }
        for i in logs.indices { logs[i].log.checkSignature(logs[i].bytes) }
        var voices = logs.map { DeviceVoice($0.log) }
        if let own { voices.append(DeviceVoice(own, signature: own.key == nil ? .unsigned : .valid)) }
        let before = basis.seen[member] ?? TrustSeen()
        let speakers = Speakers.resolve(
            member: member, voices: voices, pins: basis.pins[member] ?? [], me: own.map { _ in basis.device },
            seen: before, fromCode: basis.fromCode[member] ?? [])
        var learned = before
        learned.learn(from: speakers, voices: voices)
        if learned != before { read.learned[member] = learned }
        let believed = speakers.believed
        for (log, _, key) in logs {
            let counts = believed.contains(log.device)
            if counts { read.fold(log) }
            read.entries.append(CircleCache.Entry(logOf: member, device: log.device, key: key, log: counts ? log : nil))
        }
        read.speakers[member] = speakers
        // A member none of whose logs counts is not one who has not checked in.
        if own == nil, !logs.isEmpty, !logs.contains(where: { believed.contains($0.log.device) }) {
            let changed =
                logs.map { Timestamp(seconds: $0.key.modified / 1_000_000_000) }.min() ?? Timestamp(seconds: 0)
            read.unreadable[member] = min(read.unreadable[member] ?? changed, changed)
        }
    }
}

extension Store {
    /// Which of this member's devices count, from this device's own log and the others' (read
    /// with their signatures checked).
    func ownSpeakers(own: DeviceLog?, siblings: [DeviceLog]) -> Speakers {
        var voices = siblings.map { DeviceVoice($0) }
        if let own { voices.append(DeviceVoice(own, signature: own.key == nil ? .unsigned : .valid)) }
        let pins = Set(own?.memberState.pins[identity.member]?.keys ?? [:].keys)
        return Speakers.resolve(member: identity.member, voices: voices, pins: pins, me: identity.device)
    }

    /// Which of this member's devices count, read from their logs' heads.
    func ownSpeakers() throws(StoreError) -> Speakers {
        var own = Posix.FileKey.missing
        let log = try readOwnLog(key: &own).log
        var siblings: [DeviceLog] = []
        for device in try devices(of: identity.member) where device != identity.device {
            var key = Posix.FileKey.missing
            if let sibling = try? readLog(
                member: identity.member, device: device, key: &key, stateOnly: true, checked: true)
            {
                siblings.append(sibling)
            }
        }
        return ownSpeakers(own: log, siblings: siblings)
    }
}

extension DeviceVoice {
    /// What `log` says for deciding trust; `signature` as checked when it was read.
    public init(_ log: DeviceLog, signature: DeviceVoice.Signature? = nil) {
        let state = log.memberState
        self.init(
            device: log.device, key: log.key, signature: signature ?? log.signature ?? .unsigned,
            roster: state.devices, recovery: state.recovery?.value, recoverySet: state.recovery?.stamp,
            lastSeq: log.lastSeq, lastCheckIn: state.lastCheckIn?.at)
    }
}

extension CircleState {
    /// Whether this state holds anything between members — a relation, a ping, an
    /// acknowledgement, a delivery — rather than only its member's own profile.
    var statesBetweenMembers: Bool {
        !relations.isEmpty || !pings.isEmpty || !acknowledgements.isEmpty || !deliveries.isEmpty || !vouches.isEmpty
    }
}

extension Store {
    /// The readable logs of `member` in a circle folder no data directory of ours uses yet (for
    /// `init --member` with an enrollment or recovery code), their signatures checked.
    public static func peekMember(circle: String, member: String) throws(StoreError) -> [DeviceLog] {
        let visitor = Store(dataDirectory: "", identity: Identity(member: "", device: "", circle: circle))
        guard Posix.isRealDirectory(visitor.memberDirectory(member)) else { return [] }
        return try visitor.devices(of: member).compactMap { device in
            var key = Posix.FileKey.missing
            return try? visitor.readLog(member: member, device: device, key: &key, stateOnly: true, checked: true)
        }
    }
}

extension Store {
    /// Who speaks for `member`, read from their folder now with their signatures checked,
    /// taking `fingerprint` as pinned (`contacts add` with a code that carries one).
    public func speakers(of member: String, pinning fingerprint: String) -> Speakers {
        let logs = ((try? devices(of: member)) ?? []).compactMap { device -> DeviceLog? in
            var key = Posix.FileKey.missing
            return try? readLog(member: member, device: device, key: &key, stateOnly: true, checked: true)
        }
        return Speakers.resolve(
            member: member, voices: logs.map { DeviceVoice($0) }, pins: [fingerprint], me: nil, fromCode: [fingerprint])
    }
}
