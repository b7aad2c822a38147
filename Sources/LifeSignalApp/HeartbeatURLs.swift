import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// Heartbeat URLs, the remote fail-safe: set, listed and removed as a setting of mine (it
/// syncs to all my devices), requested after each check-in or each delivery run.
extension App {
    /// Seconds a heartbeat request may take.
    public static let heartbeatTimeout = Heartbeat.timeout

    /// One heartbeat URL, when it is sent, and how it has been doing on this machine.
    public struct HeartbeatEntry: Sendable {
        public var url: String
        public var on: Heartbeats.Trigger
        public var health: LinkHealth?
    }

    public func heartbeats() throws(AppError) -> [HeartbeatEntry] {
        let mine = try readMine().heartbeats?.value ?? Heartbeats()
        let health = HealthFile.read(dataDirectory: dataDirectory).heartbeats
        return mine.all.map { HeartbeatEntry(url: $0.url, on: $0.on, health: health[$0.url]) }
    }

    /// Adds `url`, sent on `trigger` (checked by the caller's parser); returns the new list.
    public func addHeartbeat(_ url: String, on trigger: Heartbeats.Trigger) throws(AppError) -> Heartbeats {
        try changeHeartbeats { $0.adding(url, on: trigger) }
    }

    /// Removes `url`; refused when it is not one of mine.
    public func removeHeartbeat(_ url: String) throws(AppError) -> Heartbeats {
        try changeHeartbeats { current throws(AppError) in
            guard current.all.contains(where: { $0.url == url }) else {
                throw .refused(.feed(.noHeartbeat(url, known: current.all.map(\.url))))
            }
            return current.removing(url)
        }
    }

    private func changeHeartbeats(_ change: (Heartbeats) throws(AppError) -> Heartbeats) throws(AppError)
        -> Heartbeats
    {
        let now = self.now
        return try write { transaction throws(AppError) in
            let new = try change(transaction.memberState.heartbeats?.value ?? Heartbeats())
            transaction.record(HeartbeatsSet(heartbeats: new), at: now)
            return new
        }
    }

    /// Requests my heartbeat URLs for `trigger`, records how each did, and returns a warning
    /// for each that failed. Never throws: a heartbeat is a report, not part of the work.
    func pulse(_ trigger: Heartbeats.Trigger, heartbeats: Heartbeats?) -> [Warning] {
        guard let urls = heartbeats?.urls(on: trigger), !urls.isEmpty else { return [] }
        let environment = self.environment
        let results = urls.map { ($0, channels.heartbeat($0, environment)) }
        let now = self.now
        var warnings: [Warning] = []
        HealthFile.update(dataDirectory: dataDirectory) { health in
            for (url, error) in results {
                health.heartbeats[url, default: LinkHealth()].record(error: error, at: now)
                if let error, let since = health.heartbeats[url]?.failingSince {
                    warnings.append(.heartbeatFailing(url: url, since: since, error: error))
                }
            }
        }
        return warnings
    }
}
