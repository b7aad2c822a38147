import LifeSignalCore
import LifeSignalStore

/// Setting up a data directory (`init`): a new profile with a name, interval, reminder and
/// circle, another device of an existing member, or a change of those settings.
extension App {
    /// What was asked; nil fields were not given.
    public struct SetUp: Sendable {
        public var name: String?
        public var interval: TimeSpan?
        /// `.some(nil)` turns the reminder off.
        public var reminder: TimeSpan??
        /// An absolute, normalized path.
        public var circle: String?
        /// Another device of an existing member, with their enrollment or recovery code (with
        /// `circle`).
        public var join: PassedCode?
        /// My phone and emergency note for my responders: `.some(nil)` removes one.
        public var phone: String??
        public var emergencyNote: String??

        public init(
            name: String? = nil, interval: TimeSpan? = nil, reminder: TimeSpan?? = nil, circle: String? = nil,
            join: PassedCode? = nil
        ) {
            self.name = name
            self.interval = interval
            self.reminder = reminder
            self.circle = circle
            self.join = join
        }
    }

    /// What set-up did and where things are now.
    public struct SetUpResult: Sendable {
        public enum Change: Equatable, Sendable {
            case name(String)
            case interval(TimeSpan)
            case reminder(TimeSpan?)
            case details(ProfileDetails)
        }

        public var created: Bool
        /// The directory became another device of an existing member.
        public var joined: Bool
        public var changes: [Change]
        public var member: String
        public var name: String
        public var device: String
        public var dataDirectory: String
        public var circle: String
        public var status: CheckInStatus
        /// This device's records moved to another circle folder.
        public var moved: CircleMoved?
        /// The circle folder given did not exist and was made, private to this account.
        public var createdCircle = false
        /// A new member's recovery code, shown this once.
        public var recoveryCode: String?
        /// How this new device of an existing member asked to be enrolled.
        public var joinedWith: JoinedWith?
    }

    public enum JoinedWith: Equatable, Sendable {
        /// An enrollment code: the device that made it accepts this one on its next write.
        case enrollment
        /// A recovery code: this device counts at once.
        case recovery
    }

    public func setUp(_ request: SetUp) throws(AppError) -> SetUpResult {
        if let circle = request.circle, Posix.exists(circle), !Posix.isDirectory(circle) {
            let broken = !Posix.resolves(circle)
            throw .refused(.setUp(broken ? .circleLinkBroken(circle) : .circleNotAFolder(circle)))
        }
        var joining: String? = nil
        var join: JoinProof? = nil
        if let code = request.join, let circle = request.circle {
            (joining, join) = try Self.joining(with: code, circle: circle)
        }
        var profile = NewProfile(
            name: request.name ?? defaultName(), interval: request.interval ?? Rules.defaultInterval,
            reminder: request.reminder ?? Rules.defaultReminder, circle: request.circle, joining: joining, join: join)
        var generator = SystemRandomNumberGenerator()
        if joining == nil, !Store.hasProfile(dataDirectory) {
            profile.recovery = SigningKey.generate(using: &generator)
        }
        try Self.check(interval: profile.interval, reminder: profile.reminder)
        let now = self.now
        // A move into a folder that did not exist makes it: said as a new profile's is, so that
        // a mistyped family folder does not go unnoticed.
        let circleExisted = request.circle.map(Posix.exists) ?? true
        let moved = try moveIfAsked(request.circle, joining: joining)
        var result = try write(creating: .with(profile)) { transaction throws(AppError) in
            let created = transaction.createdProfile
            let store = transaction.store
            if !created, joining != nil { throw .refused(.setUp(.alreadySetUp(member: transaction.member))) }
            var changes = created ? [] : try Self.apply(request, to: &transaction, at: now)
            if let details = try Self.details(request, current: transaction.memberState) {
                transaction.record(DetailsSet(details: details), at: now)
                changes.append(.details(details))
            }
            let state = transaction.memberState
            return SetUpResult(
                created: created, joined: created && joining != nil, changes: changes, member: store.identity.member,
                name: state.name?.value ?? profile.name, device: store.identity.device,
                dataDirectory: store.dataDirectory, circle: store.circleDirectory,
                status: CheckInStatus(member: state, now: now), moved: nil,
                createdCircle: transaction.createdCircle)
        }
        result.moved = moved
        if moved != nil, !circleExisted { result.createdCircle = true }
        if result.created, !result.joined, let recovery = profile.recovery {
            result.recoveryCode = PassedCode.recovery(member: result.member, seed: recovery.seed).text
        }
        if result.joined, let join {
            switch join {
            case .enrollment: result.joinedWith = .enrollment
            case .recovery: result.joinedWith = .recovery
            }
        }
        try writeIgnoreFile()
        return result
    }

    /// The member a code makes this directory a device of, and how it proves it. An invite
    /// code links contacts and makes no device.
    private static func joining(with code: PassedCode, circle: String) throws(AppError) -> (String, JoinProof) {
        switch code {
        case .invite(let invite, _):
            let read = try AppError.wrap { () throws(StoreError) in try Store.peek(circle: circle) }
            let name = read.state.member(withCode: invite).flatMap { read.state.members[$0]?.name?.value }
            throw .refused(.setUp(.inviteCodeMakesNoDevice(name: name)))
        case .enrollment(let member, let enroller, let secret):
            let logs = try AppError.wrap { () throws(StoreError) in try Store.peekMember(circle: circle, member: member)
            }
            guard !logs.isEmpty else { throw .refused(.setUp(.memberNotInCircle(member: member, circle: circle))) }
            return (member, .enrollment(secret: secret, enroller: enroller))
        case .recovery(let member, let seed):
            let logs = try AppError.wrap { () throws(StoreError) in try Store.peekMember(circle: circle, member: member)
            }
            guard !logs.isEmpty else { throw .refused(.setUp(.memberNotInCircle(member: member, circle: circle))) }
            let name = logs.compactMap { $0.memberState.name?.value }.first ?? member
            guard let key = SigningKey(seed: seed) else { throw .refused(.setUp(.recoveryCodeNotCurrent(name: name))) }
            // The devices that name this recovery key are the member's: this device takes their
            // keys as its member's.
            let naming = logs.filter { $0.signature == .valid && $0.memberState.recovery?.value == key.publicKeyText }
            let fingerprints = Set(naming.compactMap { $0.key.flatMap(KeyText.fingerprint(ofKey:)) })
            // A code another of their devices replaced since (`circle recovery`) is not current.
            guard !naming.isEmpty,
                Speakers.currentRecoveryKey(member: member, voices: logs.map { DeviceVoice($0) }, pins: fingerprints)
                    == key.publicKeyText
            else { throw .refused(.setUp(.recoveryCodeNotCurrent(name: name))) }
            return (member, .recovery(key, devices: fingerprints.sorted()))
        }
    }

    /// A circle in a git work tree or a Syncthing folder gets its ignore patterns at once, so
    /// that no backup, temporary file, lock or cache is ever shared (`circle sync` commits the
    /// `.gitignore` before anything else).
    private func writeIgnoreFile() throws(AppError) {
        let store = try openStore()
        let circle = store.circleDirectory
        for (marker, file) in [(".git", ".gitignore"), (".stfolder", ".stignore")]
        where Posix.exists(Paths.join(circle, marker)) {
            _ = try AppError.wrap { () throws(StoreError) in try store.ensureIgnoreFile(file) }
        }
    }

    /// This device's records, moved from one circle folder to another.
    public struct CircleMoved: Equatable, Sendable {
        public var from: String
        public var to: String
        /// The old folder was the data directory's private one, and this device's records were
        /// removed from it (otherwise the copy stays for whoever still reads that folder).
        public var cleanedUp: Bool
    }

    /// `init --circle DIR` on an existing profile whose records are elsewhere: moves them.
    private func moveIfAsked(_ circle: String?, joining: String?) throws(AppError) -> CircleMoved? {
        guard let circle, joining == nil, Store.hasProfile(dataDirectory) else { return nil }
        let store = try openStore()
        guard store.circleDirectory != circle else { return nil }
        let directory = dataDirectory
        let timeout = lockTimeout
        let move = try AppError.wrap { () throws(StoreError) in
            try Store.moveCircle(dataDirectory: directory, to: circle, lockTimeout: timeout)
        }
        return CircleMoved(from: move.from, to: move.to, cleanedUp: move.cleanedUp)
    }

    /// My phone and emergency note as the request leaves them, when that changes them.
    private static func details(_ request: SetUp, current: MemberState) throws(AppError) -> ProfileDetails? {
        let now = current.details?.value ?? ProfileDetails(phone: nil, emergencyNote: nil)
        var details = now
        if let phone = request.phone { details.phone = phone }
        if let note = request.emergencyNote { details.emergencyNote = note }
        if let note = details.emergencyNote, note.count > ProfileDetails.noteLimit {
            throw .refused(.setting(.emergencyNoteTooLong(note.count)))
        }
        return details == now ? nil : details
    }

    /// Records the settings that differ from the profile's.
    private static func apply(_ request: SetUp, to transaction: inout Transaction, at now: Timestamp)
        throws(AppError) -> [SetUpResult.Change]
    {
        let current = transaction.memberState
        var changes: [SetUpResult.Change] = []
        if let name = request.name, current.name?.value != name {
            transaction.record(NameSet(name: name), at: now)
            changes.append(.name(name))
        }
        let interval = request.interval ?? current.effectiveInterval
        let reminder = request.reminder ?? current.effectiveReminder
        if request.interval != nil || request.reminder != nil { try check(interval: interval, reminder: reminder) }
        if let given = request.interval, current.effectiveInterval != given {
            transaction.record(IntervalSet(interval: given), at: now)
            changes.append(.interval(given))
        }
        if let given = request.reminder, current.effectiveReminder != given {
            transaction.record(ReminderSet(reminder: given), at: now)
            changes.append(.reminder(given))
        }
        return changes
    }
}
