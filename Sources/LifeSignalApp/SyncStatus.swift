import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// What this device knows of how current its copy of the circle is (see Freshness.swift in the
/// core): its sync engine's view, assembled from the folder, this machine's record of its git
/// fetches and — only when a miss depends on it — Syncthing's API; and the settings behind it
/// (`circle engine`, `circle syncthing`, `circle hold`).
extension App {
    /// The engine's view now. Syncthing's API is asked only with `asking` (a child process, so
    /// never under the lock; a delivery run asks only when a dependent of mine is overdue).
    /// When this device's sync settings cannot be read, how its copy is kept is not known: the
    /// engine cannot vouch for it, and a relayed miss says it could not confirm.
    /// `health` is this data directory's (read here when not given).
    func syncView(_ store: Store, asking: Bool, health: Health? = nil) -> SyncView {
        let health = health ?? HealthFile.read(dataDirectory: dataDirectory)
        // And when each phone inbox was last read here (see `DeliveryRules.inboxBehind`).
        guard let settings = try? store.syncSettings() else {
            var view = engineView(store, settings: SyncSettings(), asking: false, health: health)
            view.currentAt = nil
            view.problem =
                "this device's sync settings (\(store.dataDirectory)/sync.json) cannot be read, so how its copy is kept is not known; put back its backup (sync.json.bak) or remove it, then set them again if you had ('lifesignal circle engine', 'circle syncthing', 'circle hold')"
            return Self.syncView(view, reading: health.inboxes)
        }
        return Self.syncView(
            engineView(store, settings: settings, asking: asking, health: health), reading: health.inboxes)
    }

    private func engineView(_ store: Store, settings: SyncSettings, asking: Bool, health: Health) -> SyncView {
        let hold = settings.hold ?? SyncView.defaultHold
        switch store.syncEngine(settings: settings) {
        case .direct where store.circleWritableByOthers:
            // Another account that can write the folder can put an older copy of someone's
            // log back before this device reads the new one: the folder's word is no proof.
            return SyncView(
                engine: .direct, currentAt: nil,
                problem:
                    "other accounts of this machine can write the circle folder (\(store.circleDirectory)), so one of them could have put an older copy of the records back; only a record of the person's own devices since the deadline confirms a miss",
                hold: hold)
        case .direct:
            return SyncView(engine: .direct, currentAt: now, hold: hold)
        case .other:
            return SyncView(
                engine: .other, currentAt: nil,
                problem: "lifesignal cannot ask the tool that copies this folder (circle engine other)", hold: hold)
        case .git:
            let fetches = health.sync
            let problem =
                fetches.failingSince.map {
                    "git fetch fails since \($0.local(utcOffset: 0)) UTC (\(fetches.lastError ?? "failed"))"
                }
                ?? (fetches.lastSuccess == nil ? "'lifesignal circle sync' has not fetched on this machine yet" : nil)
            return SyncView(engine: .git, currentAt: fetches.lastSuccess, problem: problem, hold: hold)
        case .syncthing:
            guard asking else { return SyncView(engine: .syncthing, currentAt: nil, hold: hold) }
            let (currentAt, problem) = askSyncthing(store, settings: settings)
            return SyncView(engine: .syncthing, currentAt: currentAt, problem: problem, hold: hold)
        }
    }

    /// Syncthing's word on the circle folder: up to date now, or what keeps it from saying so.
    /// Its answer is taken as of this run's clock (`now`, which LIFESIGNAL_NOW may set): it is
    /// asked during the run, about the folder as it is then.
    private func askSyncthing(_ store: Store, settings: SyncSettings) -> (Timestamp?, String?) {
        let api: SyncthingAPI
        switch syncthingAPI(settings) {
        case .success(let found): api = found
        case .failure(let failure): return (nil, failure.problem)
        }
        let now = self.now
        let answer = api.folder(at: store.circleDirectory, environment: environment)
        let (currentAt, problem): (Timestamp?, String?)
        switch answer {
        case .success(let folder) where folder.isUpToDate: (currentAt, problem) = (now, nil)
        case .success(let folder):
            (currentAt, problem) = (
                nil, "Syncthing says the folder is \(folder.state), \(folder.need) item(s) still to come"
            )
        case .failure(let failure): (currentAt, problem) = (nil, failure.message)
        }
        HealthFile.update(dataDirectory: dataDirectory) { $0.sync.record(error: problem, at: now) }
        return (currentAt, problem)
    }

    /// Syncthing's API on this machine: as given ('circle syncthing'), or from its configuration.
    func syncthingAPI(_ settings: SyncSettings) -> Result<SyncthingAPI, Git.Failure> {
        if let base = settings.syncthingAPI, let keyFile = settings.syncthingKeyFile {
            return SyncthingAPI.given(base: base, keyFile: keyFile).map(askedThrough).mapError {
                Git.Failure(problem: $0.message)
            }
        }
        guard let found = SyncthingAPI.fromConfiguration(environment: environment).map(askedThrough) else {
            return .failure(
                Git.Failure(
                    problem:
                        "Syncthing's API is not found in its configuration here; give it with 'lifesignal circle syncthing --api URL --key-file FILE'"
                ))
        }
        return .success(found)
    }

    /// `api`, asked through this run's programs.
    func askedThrough(_ api: SyncthingAPI) -> SyncthingAPI {
        var api = api
        api.runner = programs
        return api
    }

    /// The engine's view for a delivery run: Syncthing's API is asked only when a dependent of
    /// mine is overdue (a relay may depend on it), read from the cache before the lock is taken.
    func deliverySyncView() throws(AppError) -> SyncView {
        let store = try openStore()
        let settings = (try? store.syncSettings()) ?? SyncSettings()
        guard store.syncEngine(settings: settings) == .syncthing else { return syncView(store, asking: false) }
        let circle = try AppError.wrap { () throws(StoreError) in try store.snapshot().state }
        return syncView(store, asking: Self.aDependentIsOverdue(of: store.identity.member, in: circle, now: now))
    }

    /// Whether a dependent of mine is past their deadline in `circle`: then a delivery run may
    /// have a miss to relay, and needs the engine's word.
    static func aDependentIsOverdue(of me: String, in circle: CircleState, now: Timestamp) -> Bool {
        circle.linkedMembers(of: me).contains { other in
            guard circle.roles(of: me, toward: other)?.dependent ?? false, circle.members[other] != nil else {
                return false
            }
            return circle.status(of: other, now: now).phase == .overdue
        }
    }
}

extension App {
    /// `circle status`: how current this copy of the circle is, and each member as last heard
    /// from here.
    public struct CircleStatus: Sendable {
        public var circle: String
        public var sync: SyncView
        /// When anything here was last written by another device.
        public var copyChanged: Timestamp?
        public var members: [HeardMember]
        /// Misses this copy cannot confirm, and members whose records look stale.
        public var warnings: [Warning]
        public var settings: SyncSettings
        /// Who besides the members' devices holds the records (see `CircleReader`).
        public var readers: [CircleReader] = []
    }

    /// One member as this copy shows them: when their devices were last heard from here (this
    /// device's own records left out).
    public struct HeardMember: Sendable {
        public var id: String
        public var name: String
        public var isMe: Bool
        public var lastHeard: Timestamp?
    }

    public func circleStatus() throws(AppError) -> CircleStatus {
        let (store, snapshot) = try read()
        let circle = snapshot.state
        let me = store.identity.member
        let device = store.identity.device
        let sync = syncView(store, asking: true)
        let members = circle.knownMembers.map { id in
            HeardMember(
                id: id, name: circle.members[id]?.name?.value ?? id, isMe: id == me,
                lastHeard: circle.members[id]?.lastHeard(excludingDevice: device, asOf: now))
        }
        return CircleStatus(
            circle: store.circleDirectory, sync: sync,
            copyChanged: circle.lastChange(excludingDevice: device, asOf: now),
            members: members,
            warnings: Self.circleWarnings(of: me, in: circle, device: device, sync: sync, now: now),
            settings: (try? store.syncSettings()) ?? SyncSettings(), readers: circleReaders(store))
    }

    /// A change of this device's sync settings; nil fields stay as they are.
    public struct SyncSettingsChange: Sendable {
        /// `.some(nil)`: tell the engine from the folder again.
        public var engine: SyncEngine??
        /// Syncthing's API URL and key file; `.some(nil)`: find them in Syncthing's configuration.
        public var syncthing: (api: String, keyFile: String)??
        public var hold: TimeSpan?

        public init() {}

        var isEmpty: Bool { engine == nil && syncthing == nil && hold == nil }
    }

    /// Applies `change` to this device's sync settings and returns them; a Syncthing API given
    /// by hand is asked once, so a wrong URL or key is said now rather than when a miss needs it.
    public func changeSyncSettings(_ change: SyncSettingsChange) throws(AppError) -> SyncSettings {
        let store = try openStore()
        if change.isEmpty { return try AppError.wrap { () throws(StoreError) in try store.syncSettings() } }
        if case .some(.some(let given)) = change.syncthing {
            let api: SyncthingAPI
            switch SyncthingAPI.given(base: given.api, keyFile: given.keyFile) {
            case .success(let found): api = askedThrough(found)
            case .failure(let failure): throw .refused(.sync(.syncthing(failure.message)))
            }
            if case .failure(let failure) = api.folder(at: store.circleDirectory, environment: environment) {
                throw .refused(.sync(.syncthing(failure.message)))
            }
        }
        if let hold = change.hold, hold < DeliveryRules.relayDelay {
            throw .refused(.sync(.holdTooShort(hold, minimum: DeliveryRules.relayDelay)))
        }
        let timeout = lockTimeout
        return try AppError.wrap { () throws(StoreError) in
            try store.updateSyncSettings(lockTimeout: timeout) { settings in
                if let engine = change.engine { settings.engine = engine }
                if let syncthing = change.syncthing {
                    settings.syncthingAPI = syncthing?.api
                    settings.syncthingKeyFile = syncthing?.keyFile
                }
                if let hold = change.hold { settings.hold = hold }
            }
        }
    }
}
