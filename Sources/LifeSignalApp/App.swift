import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// What one run of lifesignal's use cases sees of the world, injected by whoever runs them (the
/// CLI, a test): which data directory, what time it is, how long to wait for the lock, the
/// environment channel programs start from, and how to name a profile nobody named.
///
/// Each use case is one method, taking typed values and returning a typed result or throwing
/// an `AppError` (the files `CheckIns.swift`, `Alerts.swift`, `ContactUseCases.swift`, … group them).
/// What a use case has to say besides its result (another device's records left out, a profile
/// created on the way) collects in `notices`, for the caller to show.
public final class App {
    public let dataDirectory: String
    public let now: Timestamp
    /// Seconds to wait for another lifesignal that holds the lock.
    public let lockTimeout: Int
    /// The environment channel programs start from (each channel passes on only what it needs).
    public let environment: [String: String]
    /// What sends, pings and polls (see `Channels`).
    let channels: Channels
    /// The programs run for the circle and the terminal (git, curl for Syncthing's API,
    /// qrencode): the system's, or a test's.
    let programs: ProgramRunner
    /// This machine's clock, which `now` may stand in for (a test, `LIFESIGNAL_NOW`): a check-in
    /// written ahead of it does not count until then, and is said so.
    let clock: () -> Timestamp
    /// The name for a profile created without one; asked only when one is created, since it
    /// may mean a password-database lookup.
    let defaultName: () -> String
    /// A new random id (for devices, alerts, pings, invite codes).
    var newID: () -> String
    /// Test failpoint: ends the process between sending a delivery and recording it.
    let crashAfterSend: (() -> Never)?
    /// This run queued something to send once its output is shown (see `DuressCheckIns.swift`).
    public internal(set) var sendsAfterOutput = false

    public private(set) var notices: [Notice] = []
    /// A write of this run recorded its log on this machine but could not finish: its copy in
    /// the circle (`.notPublished`) or its feed (`.feedNotWritten`) could not be written. The
    /// use case went on as if it had (what it made due was sent); the caller says so once it
    /// has shown the result, and fails the run.
    public private(set) var unfinished: StoreError?

    public init(
        dataDirectory: String, now: Timestamp, lockTimeout: Int, environment: [String: String],
        defaultName: @escaping () -> String, crashAfterSend: (() -> Never)? = nil, channels: Channels = .real,
        programs: ProgramRunner = .system, clock: (() -> Timestamp)? = nil
    ) {
        self.programs = programs
        self.clock = clock ?? { now }
        self.dataDirectory = dataDirectory
        self.now = now
        self.lockTimeout = lockTimeout
        self.environment = environment
        self.channels = channels
        self.defaultName = defaultName
        self.crashAfterSend = crashAfterSend
        newID = {
            var generator = SystemRandomNumberGenerator()
            return Identifier.make(using: &generator)
        }
    }

    func notice(_ notice: Notice) { notices.append(notice) }

    /// The zone delivered messages show times in: this machine's (`TZ`, else /etc/localtime),
    /// named; UTC when it cannot be read.
    var displayZone: Message.Zone {
        let directory = ZoneFiles.directory(tzdir: environment["TZDIR"])
        guard let local = try? ZoneFiles.local(tz: environment["TZ"], directory: directory) else { return .utc }
        return Message.Zone(name: local.name ?? local.rules.footerText, rules: local.rules)
    }

    /// How many of the other devices' unreadable files are named one by one; the rest are
    /// counted in one line, so a circle of thousands of broken files still gives a readable run.
    static let namedLeftOut = 5

    func notice(skipped: [StoreError], unknown: [UnknownRecords] = [], foreign: [ForeignRecords] = []) {
        for problem in skipped.prefix(Self.namedLeftOut) { notices.append(.warning(.recordsLeftOut(problem))) }
        if skipped.count > Self.namedLeftOut {
            notices.append(.warning(.moreLeftOut(skipped.count - Self.namedLeftOut)))
        }
        for records in unknown { notices.append(.warning(.newerRecords(records))) }
        for records in foreign { notices.append(.warning(.foreignRecords(records))) }
    }
}

/// Something a use case tells besides its result.
public enum Notice: Equatable, Sendable {
    /// This run created the profile, with these settings, in `dataDirectory`.
    case createdProfile(name: String, interval: TimeSpan, reminder: TimeSpan?, dataDirectory: String)
    /// A doubt the person must hear about.
    case warning(Warning)
}

// MARK: - Reading and writing the store

extension App {
    /// The existing data directory, opened for reading.
    func openStore() throws(AppError) -> Store {
        let directory = dataDirectory
        return try AppError.wrap { () throws(StoreError) in try Store.open(dataDirectory: directory) }
    }

    /// The circle as this device sees it, as much of it as `reading` needs (see `Store.snapshot`).
    func read(for reading: Store.Reading = .everything) throws(AppError) -> (store: Store, snapshot: Store.Snapshot) {
        let store = try openStore()
        let snapshot = try AppError.wrap { () throws(StoreError) in try store.snapshot(for: reading) }
        notice(skipped: snapshot.skipped, unknown: snapshot.unknown, foreign: snapshot.foreign)
        for warning in trustWarnings(
            snapshot.speakers, rejected: snapshot.rejected, circle: snapshot.state, store: store)
        {
            notice(.warning(warning))
        }
        if snapshot.publication != .current,
            let problem = PublishedCopy(snapshot.publication, behind: store.circleBehind())
        {
            notice(.warning(.publishedCopy(problem, path: store.publishedLogPath, republished: false)))
        }
        if let damage = snapshot.ownDamage { notice(.warning(.ownLogDamaged(damage, rewritten: false))) }
        if snapshot.trustMemoryDamaged { notice(.warning(.trustMemoryDamaged(path: store.trustMemoryPath))) }
        return (store, snapshot)
    }

    /// My own state across all my devices, read without the lock.
    func readMine() throws(AppError) -> MemberState {
        let (store, snapshot) = try read()
        return snapshot.state.members[store.identity.member] ?? MemberState()
    }

    /// Whether a write may create the profile when there is none. Only a check-in and set-up
    /// may: anything else pointed at a directory with no profile (a crontab without the right
    /// environment) must say where it looked, never quietly start an empty profile.
    enum Creation {
        case never
        /// With the account's name and the default settings (a first check-in).
        case withDefaults
        /// With these settings (`init`).
        case with(NewProfile)
    }

    /// The default profile: the account's name, a 24h interval, a reminder 30m before.
    func defaultProfile() -> NewProfile {
        NewProfile(
            name: defaultName(), interval: Rules.defaultInterval, reminder: Rules.defaultReminder, circle: nil)
    }

    /// Runs `body` on this device's log under the lock and writes what it recorded. A profile
    /// is created first when there is none (and said so in `notices`).
    func write<T>(
        creating creation: Creation = .never, needs need: Store.Need = .circle, dryRun: Bool = false,
        _ body: (inout Transaction) throws(AppError) -> T
    ) throws(AppError) -> T {
        let profile = storeCreation(creation)
        var (skipped, unknown, foreign): ([StoreError], [UnknownRecords], [ForeignRecords]) = ([], [], [])
        var (publication, behind, published): (Store.Publication, Store.CircleBehind?, String) = (.current, nil, "")
        var (trust, trustWarnings, store): (TrustKept, [Warning], Store?) = (TrustKept(), [], nil)
        var (ownDamage, trustMemoryDamaged): (OwnDamage?, Bool) = (nil, false)
        let outcome: (value: T, created: Bool)
        let now = self.now
        do {
            outcome = try Store.update(
                dataDirectory: dataDirectory, lockTimeout: lockTimeout, creation: profile, now: now, needs: need,
                dryRun: dryRun, unfinished: noteUnfinished
            ) { transaction in
                skipped = transaction.skipped
                unknown = transaction.unknown
                foreign = transaction.foreign
                publication = transaction.publication
                (ownDamage, trustMemoryDamaged) = (transaction.ownDamage, transaction.trustMemoryDamaged)
                behind = transaction.circleBehind
                published = transaction.store.publishedLogPath
                store = transaction.store
                // The circle as read: what trust upkeep records (pins, this member's devices) changes
                // neither who is linked nor anyone's name, which is what the warnings look up.
                let circle = transaction.circle
                if !dryRun { trust = Self.keepTrust(&transaction, circle: circle, now: now) }
                trustWarnings = self.trustWarnings(
                    transaction.speakers, rejected: transaction.rejected, circle: circle,
                    store: transaction.store, accepted: trust.accepted + trust.usedTwice)
                do throws(AppError) {
                    defer { trust.forgetScanned(transaction.memberState.pins) }
                    return try body(&transaction)
                } catch {
                    throw Escape(error: error)
                }
            }
        } catch let escape as Escape {
            throw escape.error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.io(path: dataDirectory, operation: "write", reason: "\(error)"))
        }
        notice(skipped: skipped, unknown: unknown, foreign: foreign)
        if let ownDamage { notice(.warning(.ownLogDamaged(ownDamage, rewritten: !dryRun))) }
        if trustMemoryDamaged, let store { notice(.warning(.trustMemoryDamaged(path: store.trustMemoryPath))) }
        notice(trust: trustWarnings, kept: trust, store: store)
        // (A write that could not finish is said at the end of the run, not as a copy published again.)
        if unfinished == nil, let problem = PublishedCopy(publication, behind: behind) {
            notice(.warning(.publishedCopy(problem, path: published, republished: true)))
        }
        if outcome.created, case .ifMissing(let created) = profile { notice(created: created) }
        return outcome.value
    }

    /// What the store may create. The default name may need the password database (NSS,
    /// LDAP): it is looked up only when there is no profile yet. A profile that vanishes after
    /// this check is reported as missing, never recreated silently.
    private func storeCreation(_ creation: Creation) -> Store.Creation {
        switch creation {
        case .never: return .never
        case .with(let given): return .ifMissing(given)
        case .withDefaults: return Store.hasProfile(dataDirectory) ? .never : .ifMissing(defaultProfile())
        }
    }

    /// Remembers the first write of this run that could not finish.
    private func noteUnfinished(_ error: StoreError) {
        if unfinished == nil { unfinished = error }
    }

    /// A profile this write created, unless it joined an existing member.
    private func notice(created: NewProfile) {
        guard created.joining == nil else { return }
        notice(
            .createdProfile(
                name: created.name, interval: created.interval, reminder: created.reminder,
                dataDirectory: dataDirectory))
    }

    /// What a write found and did about trust: the doubts, the members whose keys it took on
    /// first sight; a pending enrollment code it used is forgotten.
    private func notice(trust warnings: [Warning], kept: TrustKept, store: Store?) {
        for warning in warnings { notice(.warning(warning)) }
        if !kept.firstSight.isEmpty { notice(.warning(.keysPinnedOnFirstSight(kept.firstSight))) }
        if !kept.usedTwice.isEmpty { notice(.warning(.enrollmentCodeUsedTwice(kept.usedTwice))) }
        if kept.forgetCode { store?.forgetPendingEnrollment() }
    }

    /// Carries a use case's own error out of the store's untyped transaction closure.
    private struct Escape: Error {
        var error: AppError
    }
}
