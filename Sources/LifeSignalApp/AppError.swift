import LifeSignalCore

/// Why a use case did not do what was asked, as data: what was wrong and with what. The CLI
/// words each case and picks its exit code in one place.
public enum AppError: Error, Equatable, Sendable {
    /// The files: missing profile, damaged or unreadable file, lock held, disk trouble.
    case store(StoreError)
    /// A rule of the product says no (unknown contact, a ping already pending, …).
    case refused(Refusal)
    /// A program lifesignal needs is missing or failed.
    case unavailable(Unavailable)
    /// Deliveries were made (`sent` of them) but could not be recorded, because of `StoreError`
    /// (a full disk, an I/O error): they will be made again once it is fixed.
    case sentButNotRecorded(StoreError, sent: Int, due: Int)

    /// Runs a store call and carries its error as `.store`.
    static func wrap<T>(_ body: () throws(StoreError) -> T) throws(AppError) -> T {
        do {
            return try body()
        } catch {
            throw .store(error)
        }
    }
}

extension StoreError {
    /// The disk failed a write (full, I/O error, not durable): nothing could be recorded, but
    /// what reads still works.
    var isDiskTrouble: Bool {
        switch self {
        case .io, .cannotCreate, .notDurable, .feedNotWritten: return true
        case .notInitialized, .damaged, .newerSchema, .unreadable, .lockBusy, .circleMissing, .identityMismatch,
            .notPublished, .circleRefused, .heldElsewhere, .deviceKey:
            return false
        }
    }
}

/// A request that breaks a rule of the product, by the part of the product whose rule it is.
/// Each case carries what a message needs.
public enum Refusal: Equatable, Sendable {
    case setting(Rules.SettingError)
    case setUp(SetUpRefusal)
    case contact(ContactRefusal)
    case ping(PingRefusal)
    case feed(FeedRefusal)
    case sync(SyncRefusal)
    case devices(DeviceRefusal)
}

/// Why `circle sync` cannot run on this circle.
public enum SyncRefusal: Equatable, Sendable {
    /// The circle folder is neither a git work tree nor a Syncthing folder.
    case notARepository(String)
    /// The git work tree has no `origin` remote.
    case noRemote(String)
    /// The git work tree is on no branch.
    case detachedHead(String)
    /// Syncthing's API, as given, does not answer about the circle folder (why).
    case syncthing(String)
    /// A hold shorter than the relay delay would relay before the person's own device could.
    case holdTooShort(TimeSpan, minimum: TimeSpan)
}

/// `circle revoke`.
public enum DeviceRefusal: Equatable, Sendable {
    /// No device of mine has this id (or starts so), or more than one does.
    case unknownDevice(String, known: [String])
    case cannotRevokeThisDevice
    case alreadyRevoked(String, at: Timestamp)
    /// This device was revoked (by which device, when): it cannot revoke another.
    case thisDeviceIsRevoked(by: String, at: Timestamp)
}

public enum SetUpRefusal: Equatable, Sendable {
    /// `init --member` with a member's invite code, which links contacts and makes no device.
    case inviteCodeMakesNoDevice(name: String?)
    /// `init --member` with an enrollment or recovery code of a member with no folder there.
    case memberNotInCircle(member: String, circle: String)
    /// `init --member` with a recovery code no device of the member names.
    case recoveryCodeNotCurrent(name: String)
    /// `init --member` with something that is no code.
    case notACode(String)
    /// `init --member` on a data directory that already has a profile.
    case alreadySetUp(member: String)
    /// `init --circle PATH` where PATH is something other than a folder (a file).
    case circleNotAFolder(String)
    /// `init --circle PATH` where PATH is a link to nothing (an unmounted drive).
    case circleLinkBroken(String)
}

public enum ContactRefusal: Equatable, Sendable {
    case notFound(String, contacts: [Contact])
    case ambiguous(String, candidates: [Contact])
    /// No member of the circle has this invite code (reset, or not synced yet).
    case unknownCode(String)
    /// A member has this invite code, but no device with the code's key speaks for them (or,
    /// for a code without a key, more than one member has it).
    case codeNotSigned(String)
    case cannotAddSelf
    /// `unconfirmed`: they linked with me, saying they watch over me, and I never confirmed it.
    case alreadyLinked(name: String, unconfirmed: Bool)
    /// `contacts confirm` of someone who does not say they watch over me: an external contact,
    /// or a member I watch over (who may not have confirmed me yet: `theyWaitForYou`).
    case confirmIsForWatchers(name: String, external: Bool, theyWaitForYou: Bool)
    case duplicateExternalName(String)
    /// Editing would leave a contact without any role.
    case noRoleLeft(name: String)
    /// An option for external contacts used on a member (`--name`, or the addresses).
    case memberNamesThemselves(name: String)
    case addressesAreForExternals(name: String)
    /// A button topic that is not an ntfy topic URL.
    case notAButtonTopic(String, problem: String)
    /// Making an external contact a dependent.
    case externalCannotBeDependent
    /// `--tier` for a contact who does not watch over me.
    case tierIsForResponders(name: String)
    case tierOutOfRange(Int64)
    /// A vouch for someone I do not watch over.
    case vouchIsForDependents(name: String, external: Bool)
    /// A vouch for someone who never confirmed that I watch over them.
    case vouchNeedsConfirmation(name: String)
    /// A vouch while they have not missed a check-in (their deadline, if any).
    case notMissed(name: String, deadline: Timestamp?)
    /// A vouch for a third miss in a row.
    case vouchedTooOften(name: String, count: Int)
    /// A vouch made longer after the missed deadline than a vouch may be.
    case vouchTooLate(name: String, deadline: Timestamp, window: TimeSpan)
}

public enum PingRefusal: Equatable, Sendable {
    case external(name: String)
    case notDependent(name: String)
    case alreadyPending(name: String, sent: Timestamp)
    case noneFrom(name: String)
    case noneTo(name: String)
}

public enum FeedRefusal: Equatable, Sendable {
    case notFound(String)
    case ambiguous(String, count: Int)
    /// `notify test` with nothing to test: nil means my own channels.
    case noChannels(contactName: String?)
    /// `notify heartbeat remove` of a URL that is not one of mine.
    case noHeartbeat(String, known: [String])
    /// `notify ack` of a notification that is not someone's missed check-in or alert.
    case notAcknowledgeable(String)
    /// `notify ack` for someone who never confirmed that I watch over them: it would stop nothing.
    case notConfirmed(name: String)
}

/// A program lifesignal needs that is missing or failed.
public enum Unavailable: Equatable, Sendable {
    /// `qrencode` is not on PATH.
    case qrencodeMissing
    /// It ran and failed, saying this.
    case qrencodeFailed(String)
    /// It could not be started, for this reason.
    case qrencodeCannotRun(String)
    /// git failed (or is missing), saying this.
    case git(String)
}
