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
    func syncView(_ store: Store, asking: Bool) -> SyncView {
        let settings = (try? store.syncSettings()) ?? SyncSettings()
        let hold = settings.hold ?? SyncView.defaultHold
        switch store.syncEngine(settings: settings) {
        case .direct:
            return SyncView(engine: .direct, currentAt: now, hold: hold)
        case .other:
            return SyncView(
                engine: .other, currentAt: nil,
                problem: "lifesignal cannot ask the tool that copies this folder (circle engine other)", hold: hold)
        case .git:
            let fetches = Store.health(dataDirectory: dataDirectory).sync
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
        if let base = settings.syncthingAPI, let keyFile = settings.syncthingKeyFile {
            switch SyncthingAPI.given(base: base, keyFile: keyFile) {
            case .success(let given): api = given
            case .failure(let failure): return (nil, failure.message)
            }
        } else if let found = SyncthingAPI.fromConfiguration(environment: environment) {
            api = found
        } else {
            return (
                nil,
                "Syncthing's API is not found in its configuration here; give it with 'lifesignal circle syncthing --api URL --key-file FILE'"
            )
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
        Store.updateHealth(dataDirectory: dataDirectory) { $0.sync.record(error: problem, at: now) }
        return (currentAt, problem)
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
            guard circle.roles(of: me, toward: other)?.dependent ?? false, let state = circle.members[other] else {
                return false
            }
            return CheckInStatus(member: state, now: now).phase == .overdue
        }
    }
}
