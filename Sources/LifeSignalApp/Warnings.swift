import LifeSignalCore
import LifeSignalStore

/// A doubt about whether lifesignal is watching as the person believes, as data. Each has a
/// stable `code` that scripts can match (`--json` lists them under `warnings`); the CLI words
/// them. Doubt is loud: these are said on every run that shows where someone stands, until the
/// cause is fixed.
public enum Warning: Equatable, Sendable {
    /// Another device's records could not be read and were left out (they are read again once
    /// that device or the sync rewrites the file).
    case recordsLeftOut(StoreError)
    /// And this many more, not named one by one.
    case moreLeftOut(Int)
    /// A log holds events or fields from a newer lifesignal: kept, but not counted here.
    case newerRecords(UnknownRecords)
    /// A log claims something of another member than the one whose folder it is in (their
    /// contacts, a relation between others, an acknowledgement in another's name): left out.
    case foreignRecords(ForeignRecords)
    /// The copy of this device's records in the circle was missing, older than this machine's
    /// own copy, damaged, or ahead of it. `republished` says whether this run put the own copy
    /// back (a writer does; a read leaves it to the next write).
    case publishedCopy(PublishedCopy, path: String, republished: Bool)
    /// Archived events of a device of mine are in no segment, here or in the circle: history
    /// before them is incomplete.
    case historyIncomplete(directory: String, firstSeq: Int64, lastSeq: Int64)
    /// The profile exists but has never checked in: there is no deadline, so nobody would be
    /// told of anything.
    case neverCheckedIn
    /// Nobody is told when I miss a check-in or raise an alert.
    case noResponders
    /// None of my responders can be reached: externals with no channel, members none of whose
    /// devices has run `notify deliver` lately. Their names.
    case respondersUnreachable([String])
    /// No device of mine has run `notify deliver` within `within` (nil `last`: never).
    case noDelivery(last: Timestamp?, within: TimeSpan)
    /// A delivery channel has been failing since `since`, with `waiting` notifications for it.
    case channelFailing(channel: String, since: Timestamp, error: String, waiting: Int)
    /// A heartbeat URL failed (and has been failing since `since`).
    case heartbeatFailing(url: String, since: Timestamp, error: String)
    /// A member I am linked with has not changed anything seen here for over two of their
    /// intervals: they may be fine and the sync stopped.
    case staleRecords(name: String, lastChange: Timestamp)
    /// Someone I watch over looks past their deadline, but this copy of the circle is not known
    /// current after it: they may have checked in without it arriving. When anything here last
    /// changed (from another device), what is wrong with the sync, and when their responders
    /// are told anyway, marked unconfirmed.
    case cannotConfirm(name: String, deadline: Timestamp, copyChanged: Timestamp?, problem: String?, relayAt: Timestamp)
    /// A log in the folder of a member I am linked with is not signed by any device of theirs
    /// (or its signature fails, or its device was revoked): ignored while it lasts.
    /// With `kept`, the log's new version is not believed and its last verified version stands.
    case recordsNotSigned(name: String, device: String, path: String, standing: Speakers.Standing, kept: Bool)
    /// A log in my own member's folder is not signed by any device of mine: someone who can
    /// write the circle folder speaks as me (or a device of mine waits to be enrolled, when
    /// `waiting`: it asked with the enrollment code this device made).
    case deviceNotYours(device: String, path: String, standing: Speakers.Standing, waiting: Bool)
    /// A log in the folder of someone I am linked with (`name`; nil: of mine) holds fewer records
    /// than the version verified here before: an older copy was put back. With `kept`, the last
    /// verified version stands; without, the log counts for nothing.
    case recordsRolledBack(name: String?, device: String, path: String, seq: Int64, verified: Int64, kept: Bool)
    /// And this many more logs in the folder of `name` (nil: of mine) that count for nothing,
    /// not named one by one (whoever can write the folder can make thousands).
    case moreNotBelieved(name: String?, count: Int)
    /// Another device of mine revoked this one: what it records counts for nobody.
    case thisDeviceRevoked(by: String, at: Timestamp)
    /// Devices of a member (`name`; nil: of mine) revoked each other, each before it saw the
    /// other's revocation: neither counts until the member's recovery code settles it.
    /// `thisDevice`: one of them is this device.
    case devicesRevokedEachOther(name: String?, devices: [String], thisDevice: Bool)
    /// Sets of devices that each claim to be `name` and do not vouch for each other, with no
    /// code of theirs to tell which is theirs (see `Contest`): the set counted while it lasts
    /// (nil: none, as none has checked in).
    case devicesContested(name: String, groups: [[String]], taken: [String]?)
    /// This device cannot sign (`StoreError.deviceKey`): every check-in and delivery run here
    /// fails until its key is restored.
    case cannotSign(StoreError)
    /// A device of a member I am linked with (or of mine) runs a lifesignal that does not sign:
    /// believed as before, until its first signed file.
    case olderVersion(name: String?, device: String)
    /// This write pinned these members' device keys on first sight: their codes predate signing.
    case keysPinnedOnFirstSight([String])
    /// More than one device used the enrollment code this device made: none was enrolled.
    case enrollmentCodeUsedTwice([String])
    /// A message in an inbox carried a token that counts for nothing (unknown, used, expired).
    case tapIgnored(name: String, at: Timestamp, verdict: PhoneCheckIns.Verdict)
    /// The check-in just written is stamped later than this machine's clock: no device counts
    /// it until then.
    case checkInAheadOfClock(at: Timestamp, clock: Timestamp)
    /// A check-in of mine stamped later than this clock (a device's wrong clock) does not count
    /// yet: the deadline counts from `counting` (nil: no check-in).
    case futureCheckIn(at: Timestamp, device: String, now: Timestamp, counting: Timestamp?)
    /// A commit from the git remote had changed this device's own records: put back as written.
    case ownRecordsRestored([String])
    /// This device's private log was damaged: a copy it signed was read in its place, and
    /// (`rewritten`) this write wrote the log again from it, keeping the damaged file aside.
    case ownLogDamaged(OwnDamage, rewritten: Bool)
    /// What this device verified before (`verified.bin`, at `path`) was damaged: nothing in it
    /// was believed, and every log was verified again.
    case trustMemoryDamaged(path: String)
    /// An external contact whose every channel runs only on the device that set it (`exec:`,
    /// `desktop:`): when that device is dark, they hear nothing.
    case toldOnlyByThisDevice(name: String)
    /// Members who say they watch over me, a link I never made or confirmed; and my external
    /// responders who may hear of each of my alarms twice meanwhile (`CircleState.toldTwice`).
    case watchersNotConfirmed([App.Named], toldTwice: [String])
    /// Members I watch over who never confirmed it (by name), and my own name; and their external
    /// responders who may hear of each of their alarms twice meanwhile, from my device and theirs.
    case notConfirmedBy([String], me: String, toldTwice: [String])

    /// Whether it says that records in the circle are ignored as not their member's: while it
    /// lasts, `status` exits 6.
    public var ignoresRecords: Bool {
        switch self {
        case .recordsNotSigned, .thisDeviceRevoked, .recordsRolledBack, .devicesRevokedEachOther, .devicesContested,
            .moreNotBelieved:
            return true
        case .deviceNotYours(_, _, _, let waiting): return !waiting
        case .recordsLeftOut, .moreLeftOut, .newerRecords, .foreignRecords, .publishedCopy, .historyIncomplete,
            .neverCheckedIn, .noResponders, .respondersUnreachable, .noDelivery, .channelFailing, .heartbeatFailing,
            .staleRecords, .cannotConfirm, .olderVersion, .keysPinnedOnFirstSight, .enrollmentCodeUsedTwice,
            .tapIgnored, .checkInAheadOfClock, .futureCheckIn, .ownRecordsRestored, .ownLogDamaged,
            .trustMemoryDamaged, .toldOnlyByThisDevice, .cannotSign, .watchersNotConfirmed, .notConfirmedBy:
            return false
        }
    }

    /// A dependent's miss this copy cannot confirm.
    public var isUnconfirmedMiss: Bool {
        if case .cannotConfirm = self { true } else { false }
    }

    /// The stable identifier of the kind of doubt.
    public var code: String {
        switch self {
        case .recordsLeftOut, .moreLeftOut: return "records-left-out"
        case .newerRecords: return "records-from-newer-version"
        case .foreignRecords: return "records-about-others-ignored"
        case .publishedCopy(.notOurs, _, _): return "published-records-not-ours"
        case .publishedCopy: return "published-records-repaired"
        case .historyIncomplete: return "history-incomplete"
        case .neverCheckedIn: return "never-checked-in"
        case .noResponders: return "no-responders"
        case .respondersUnreachable: return "responders-unreachable"
        case .noDelivery: return "no-delivery-runs"
        case .channelFailing: return "channel-failing"
        case .heartbeatFailing: return "heartbeat-failing"
        case .staleRecords: return "stale-records"
        case .cannotConfirm: return "cannot-confirm-miss"
        case .recordsNotSigned: return "records-not-signed"
        case .recordsRolledBack: return "records-rolled-back"
        case .moreNotBelieved(let name, _): return name == nil ? "device-not-yours" : "records-not-signed"
        case .deviceNotYours(_, _, _, let waiting): return waiting ? "device-waits-for-enrollment" : "device-not-yours"
        case .thisDeviceRevoked: return "this-device-revoked"
        case .devicesRevokedEachOther: return "devices-revoked-each-other"
        case .devicesContested: return "devices-contested"
        case .cannotSign: return "device-key-unusable"
        case .olderVersion: return "device-runs-older-version"
        case .keysPinnedOnFirstSight: return "keys-pinned-on-first-sight"
        case .enrollmentCodeUsedTwice: return "enrollment-code-used-twice"
        case .tapIgnored: return "inbox-token-ignored"
        case .checkInAheadOfClock: return "check-in-ahead-of-clock"
        case .futureCheckIn: return "check-in-from-the-future"
        case .ownRecordsRestored: return "own-records-restored"
        case .ownLogDamaged: return "own-records-damaged"
        case .trustMemoryDamaged: return "verified-memory-damaged"
        case .toldOnlyByThisDevice: return "told-only-by-this-device"
        case .watchersNotConfirmed: return "watcher-not-confirmed"
        case .notConfirmedBy: return "not-confirmed-by"
        }
    }
}

/// What was wrong with the circle's copy of this device's records.
public enum PublishedCopy: Equatable, Sendable {
    case missing
    /// It held fewer events (a sync engine or a restore put an older file back).
    case older(publishedSeq: Int64, ownSeq: Int64)
    case damaged(StoreError)
    /// It was not this data directory's: ahead of this machine's own copy or differing from it
    /// (another data directory writes as this device, this one was restored from an older
    /// backup, or someone who can write the circle folder changed it).
    case notOurs(publishedSeq: Int64)
    /// This device's folder in the circle was a symbolic link or a file.
    case notAFolder
    /// It was missing or behind because this machine could not write it, since `since`
    /// (`error`: what the system said, when known; see Store's CircleBehind.swift).
    case notWritten(since: Timestamp, error: String?)

    /// What `publication` says, told as this machine's own failure to write the circle when an
    /// earlier write could not publish (`behind`) and the copy is only missing or behind, or
    /// current while another of its files was not.
    init?(_ publication: Store.Publication, behind: Store.CircleBehind?) {
        switch (publication, behind) {
        case (.missing, let behind?), (.older, let behind?), (.current, let behind?):
            self = .notWritten(since: behind.since, error: behind.reason)
        case (.current, nil), (.missing, nil), (.older, nil), (.damaged, _), (.notOurs, _), (.notAFolder, _):
            self.init(publication)
        }
    }

    init?(_ publication: Store.Publication) {
        switch publication {
        case .current: return nil
        case .missing: self = .missing
        case .older(let published, let own): self = .older(publishedSeq: published, ownSeq: own)
        case .damaged(let error): self = .damaged(error)
        case .notOurs(let seq): self = .notOurs(publishedSeq: seq)
        case .notAFolder: self = .notAFolder
        }
    }
}

extension App {
    /// How long a member may go without a recorded `notify deliver` run and still count as
    /// watching: a day beyond the period such runs are recorded in.
    static let watchingWindow = TimeSpan.days(2)

    /// What could stop my responders from hearing about me, in the circle as `circle` shows it
    /// and with this machine's record of its channels and heartbeats.
    func watchWarnings(for me: String, in circle: CircleState) -> [Warning] {
        Self.watchWarnings(for: me, in: circle, now: now, health: HealthFile.read(dataDirectory: dataDirectory))
    }

    static func watchWarnings(for me: String, in circle: CircleState, now: Timestamp, health: Health) -> [Warning] {
        var warnings: [Warning] = []
        let state = circle.members[me] ?? MemberState()
        if state.lastCheckIn == nil { warnings.append(.neverCheckedIn) }
        // Only the responders I set: a claim must not hide that nobody I chose can be reached.
        // The others say they watch over me, which I never confirmed.
        var claims: [String] = []
        let responders = Notifications.responders(of: me, in: circle).filter { responder in
            guard case .member(let id) = responder, !circle.confirmedWatcher(id, by: me) else { return true }
            claims.append(id)
            return false
        }
        if responders.isEmpty {
            // With only claims, those are told: the warning about them says what they lack.
            if claims.isEmpty { warnings.append(.noResponders) }
        } else if let unreachable = unreachable(responders, of: me, in: circle, now: now) {
            warnings.append(.respondersUnreachable(unreachable))
        }
        if !claims.isEmpty {
            let contacts = circle.contacts(of: me)
            warnings.append(
                .watchersNotConfirmed(
                    claims.map { Named($0, among: contacts, in: circle) }.sorted(), toldTwice: circle.toldTwice(of: me))
            )
        }
        // Only once a profile has been around for a whole window: a new one has had no chance.
        let within = max(state.effectiveInterval, TimeSpan(seconds: DeliverRan.period.seconds * 2))
        let since = state.name?.stamp.at ?? now
        let stale = state.deliverRun.map { now - $0.at > within } ?? true
        if now - since > within, stale {
            warnings.append(.noDelivery(last: state.deliverRun?.at, within: within))
        }
        for (channel, link) in health.channels.sorted(by: { $0.key < $1.key }) {
            if let since = link.failingSince, now - since > LinkHealth.failingWarning {
                warnings.append(
                    .channelFailing(
                        channel: channel, since: since, error: link.lastError ?? "failed", waiting: link.waiting))
            }
        }
        let urls = Set(state.heartbeats?.value.all.map(\.url) ?? [])
        for (url, link) in health.heartbeats.sorted(by: { $0.key < $1.key }) where urls.contains(url) {
            if let since = link.failingSince {
                warnings.append(.heartbeatFailing(url: url, since: since, error: link.lastError ?? "failed"))
            }
        }
        return warnings
    }

    /// The external responders of `contact`, a member I watch over, who may hear of each of their
    /// alarms twice until they confirm me (see `CircleState.toldTwice(of:)`); none once they have.
    public func toldTwice(whileUnconfirmed contact: String) throws(AppError) -> [String] {
        let (store, snapshot) = try read()
        guard !snapshot.state.confirmedWatcher(store.identity.member, by: contact) else { return [] }
        return snapshot.state.toldTwice(of: contact)
    }

    /// The doubts about this copy of the circle: dependents whose miss it cannot confirm or who
    /// never confirmed that I watch over them, and the members linked with me whose records
    /// here look stale.
    static func circleWarnings(of me: String, in circle: CircleState, device: String, sync: SyncView, now: Timestamp)
        -> [Warning]
    {
        var unconfirmed: Set<String> = []
        var warnings: [Warning] = []
        for other in circle.linkedMembers(of: me).sorted() where circle.roles(of: me, toward: other)?.dependent ?? false
        {
            guard let state = circle.members[other] else { continue }
            let status = circle.status(of: other, now: now)
            guard status.phase == .overdue, let deadline = status.deadline,
                DeliveryRules.evidence(
                    about: other, after: deadline, me: me, device: device, circle: circle, sync: sync, now: now) == nil
            else { continue }
            unconfirmed.insert(other)
            let name = state.name?.value ?? other
            let inbox =
                DeliveryRules.inboxBehind(other, deadline, sync, circle)
                ? "\(name)'s phone inbox has not been read here since the deadline" : nil
            let problems = [sync.problem, inbox].compactMap { $0 }
            warnings.append(
                .cannotConfirm(
                    name: name, deadline: deadline, copyChanged: circle.lastChange(excludingDevice: device, asOf: now),
                    problem: problems.isEmpty ? nil : problems.joined(separator: "; "), relayAt: deadline + sync.hold))
        }
        let unconfirmedBy = circle.linkedMembers(of: me).filter {
            (circle.roles(of: me, toward: $0)?.dependent ?? false) && !circle.confirmedWatcher(me, by: $0)
        }
        if !unconfirmedBy.isEmpty {
            warnings.append(
                .notConfirmedBy(
                    unconfirmedBy.map { name($0, in: circle) }.sorted(), me: name(me, in: circle),
                    toldTwice: unconfirmedBy.flatMap { circle.toldTwice(of: $0) }.sorted()))
        }
        return warnings
            + staleMembers(of: me, in: circle, now: now).filter { warning in
                guard case .staleRecords(let name, _) = warning else { return true }
                return !unconfirmed.contains { circle.members[$0]?.name?.value ?? $0 == name }
            }
    }

    /// A member as a warning names them, and the argument that picks them out of my contacts:
    /// their name, or their full id when another contact of mine has the same name (anyone
    /// may take any name, a namesake of someone I trust included).
    public struct Named: Equatable, Comparable, Sendable {
        public var name: String
        public var argument: String

        init(_ member: String, among contacts: [Contact], in circle: CircleState) {
            let name = App.name(member, in: circle)
            let shared = contacts.filter { $0.name.lowercased() == name.lowercased() }.count > 1
            self.name = shared ? "\(name) (\(member.prefix(8)))" : name
            argument = shared ? member : name
        }

        public static func < (a: Named, b: Named) -> Bool { (a.name, a.argument) < (b.name, b.argument) }
    }

    static func name(_ member: String, in circle: CircleState) -> String {
        circle.members[member]?.name?.value ?? member
    }

    /// The members I am linked with whose records here are older than two of their intervals.
    static func staleMembers(of me: String, in circle: CircleState, now: Timestamp) -> [Warning] {
        circle.linkedMembers(of: me).sorted().compactMap { id in
            guard let state = circle.members[id], let last = lastChange(state) else { return nil }
            let limit = TimeSpan(seconds: 2 * state.effectiveInterval.seconds)
            guard now - last > limit, state.pause(at: now) == nil else { return nil }
            return .staleRecords(name: state.name?.value ?? id, lastChange: last)
        }
    }

    /// The names of my responders when none of them can be reached, else nil: an external
    /// contact is reachable with a channel, a member when a device of theirs has run `notify
    /// deliver` within `watchingWindow`.
    static func unreachable(
        _ responders: [Notification.Recipient], of me: String, in circle: CircleState, now: Timestamp
    )
        -> [String]?
    {
        var names: [String] = []
        for responder in responders {
            switch responder {
            case .external(let owner, let id):
                guard let contact = circle.externals[owner]?[id]?.value else { continue }
                if !contact.channels.isEmpty { return nil }
                names.append(contact.name)
            case .member(let id):
                let state = circle.members[id]
                if let run = state?.deliverRun, now - run.at <= watchingWindow { return nil }
                names.append(state?.name?.value ?? id)
            }
        }
        return names
    }
}
