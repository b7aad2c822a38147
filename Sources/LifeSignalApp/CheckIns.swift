import LifeSignalCore
import LifeSignalStore

/// Checking in and the countdown's settings: record a check-in, see where I stand, my history,
/// my interval and reminder lead.
extension App {
    /// A check-in just recorded, and where it leaves me.
    public struct CheckInReceipt: Sendable {
        public var at: Timestamp
        public var note: String?
        public var device: String
        public var seq: Int64
        public var status: CheckInStatus
        /// What could stop my responders from hearing about me.
        public var warnings: [Warning]
    }

    /// Records that I am OK now, with an optional note (checked against `Rules` by the caller's
    /// parser); creates the profile with defaults on the first run. With `dryRun`, what the
    /// check-in would do, recording and sending nothing.
    public func checkIn(note: String?, dryRun: Bool = false) throws(AppError) -> CheckInReceipt {
        let now = self.now
        var heartbeats: Heartbeats?
        // Whether the note may be a duress word (see `DuressCheckIns.swift`): then the circle it tells.
        let duress = note != nil && !dryRun && DuressStateFile.exists(dataDirectory: dataDirectory)
        var circle: (state: CircleState, me: String)?
        // A check-in records only about me and shows only what concerns those linked with me.
        var receipt = try write(creating: .withDefaults, needs: .checkIn, dryRun: dryRun) {
            transaction throws(AppError) in
            transaction.record(CheckedIn(note: note), at: now)
            heartbeats = transaction.memberState.heartbeats?.value
            if duress { circle = (transaction.circle, transaction.member) }
            return CheckInReceipt(
                at: now, note: note, device: transaction.log.device, seq: transaction.log.lastSeq,
                status: CheckInStatus(member: transaction.memberState, now: now),
                warnings: self.watchWarnings(for: transaction.member, in: transaction.circle))
        }
        // Recorded first; then the remote fail-safe hears of it (bounded by a short timeout).
        let failing = dryRun ? [] : pulse(.checkin, heartbeats: heartbeats)
        receipt.warnings = receipt.warnings.filter { if case .heartbeatFailing = $0 { false } else { true } } + failing
        noticeCheckInAhead(at: receipt.at)
        noticeFutureCheckIn(receipt.status)
        if let note, let circle {
            noticeDuress(note: note, at: receipt.at, me: circle.me, device: receipt.device, circle: circle.state)
        }
        return receipt
    }

    /// Says so when a check-in just written at `at` is stamped later than this machine's clock:
    /// no device counts it until then.
    func noticeCheckInAhead(at: Timestamp) {
        let clock = self.clock()
        if at > clock + MemberState.clockTolerance { notice(.warning(.checkInAheadOfClock(at: at, clock: clock))) }
    }

    /// Where I stand against my deadline.
    public func checkInStatus() throws(AppError) -> CheckInStatus {
        let (store, snapshot) = try read()
        let status = snapshot.state.status(of: store.identity.member, now: now)
        noticeFutureCheckIn(status)
        return status
    }

    /// Says so when one of my check-ins is stamped later than now: it does not count yet, so
    /// the deadline shown is the one before it.
    func noticeFutureCheckIn(_ status: CheckInStatus) {
        guard let future = status.futureCheckIn else { return }
        notice(
            .warning(
                .futureCheckIn(
                    at: future.at, device: future.stamp.device, now: now, counting: status.lastCheckIn?.at)))
    }

    /// Sets the interval; the deadline moves to my last check-in + the new interval. Like a
    /// check-in, it may be the first thing done here, so it creates the profile if need be.
    public func setInterval(_ span: TimeSpan) throws(AppError) -> CheckInStatus {
        let now = self.now
        return try write(creating: .withDefaults) { transaction throws(AppError) in
            try Self.check(interval: span, reminder: transaction.memberState.effectiveReminder)
            transaction.record(IntervalSet(interval: span), at: now)
            return CheckInStatus(member: transaction.memberState, now: now)
        }
    }

    /// Sets how long before the deadline I am reminded; nil turns the reminder off.
    public func setReminder(_ lead: TimeSpan?) throws(AppError) -> CheckInStatus {
        let now = self.now
        return try write(creating: .withDefaults) { transaction throws(AppError) in
            try Self.check(interval: transaction.memberState.effectiveInterval, reminder: lead)
            transaction.record(ReminderSet(reminder: lead), at: now)
            return CheckInStatus(member: transaction.memberState, now: now)
        }
    }

    static func check(interval: TimeSpan, reminder: TimeSpan?) throws(AppError) {
        do {
            try Rules.check(interval: interval, reminder: reminder)
        } catch {
            throw .refused(.setting(error))
        }
    }

    /// My check-ins, newest first, and how many there are in all.
    public struct History: Sendable {
        public var checkIns: [MemberState.CheckIn]
        public var total: Int64
        /// How many of my devices have a log (history names the device when there are several).
        public var devices: Int
    }

    /// My check-ins at or after `since` and before `until`, at most `limit` of them; archive segments are read only
    /// as far back as that needs.
    public func history(limit: Int, since: Timestamp?, until: Timestamp? = nil) throws(AppError) -> History {
        let store = try openStore()
        let member = store.identity.member
        // Only this member's logs are read in full; the count comes from the circle's state.
        let read = try AppError.wrap { () throws(StoreError) in try store.readMember() }
        notice(skipped: read.skipped, unknown: read.unknown, foreign: read.foreign)
        if let damage = read.ownDamage { notice(.warning(.ownLogDamaged(damage, rewritten: false))) }
        let (checkIns, gaps) = try AppError.wrap { () throws(StoreError) in
            try store.checkIns(of: member, in: read, limit: limit, since: since, until: until)
        }
        for gap in gaps {
            notice(.warning(.historyIncomplete(directory: gap.directory, firstSeq: gap.firstSeq, lastSeq: gap.lastSeq)))
        }
        let total = read.state.members[member]?.checkInCount ?? 0
        return History(checkIns: checkIns, total: total, devices: read.logs.filter { $0.member == member }.count)
    }
}
