/// A member's heartbeat URLs (healthchecks.io, a self-hosted Healthchecks, an Uptime Kuma push
/// monitor): the remote fail-safe for when every machine of the circle is dark. A URL in
/// `checkIn` is requested after each check-in, so the service raises the alarm when check-ins
/// stop; one in `deliver` after each `notify deliver` run, so it raises the alarm when cron
/// stops.
public struct Heartbeats: Equatable, Sendable {
    public var checkIn: [String]
    public var deliver: [String]

    /// When a heartbeat is sent.
    public enum Trigger: String, CaseIterable, Sendable {
        case checkin, deliver
    }

    public func urls(on trigger: Trigger) -> [String] {
        switch trigger {
        case .checkin: return checkIn
        case .deliver: return deliver
        }
    }

    /// Every URL with when it is sent, check-ins first.
    public var all: [(url: String, on: Trigger)] {
        checkIn.map { ($0, .checkin) } + deliver.map { ($0, .deliver) }
    }

    public var isEmpty: Bool { checkIn.isEmpty && deliver.isEmpty }

    /// With `url` sent on `trigger` (once).
    public func adding(_ url: String, on trigger: Trigger) -> Heartbeats {
        var copy = self
        switch trigger {
        case .checkin: if !checkIn.contains(url) { copy.checkIn.append(url) }
        case .deliver: if !deliver.contains(url) { copy.deliver.append(url) }
        }
        return copy
    }

    /// Without `url`, whenever it was sent.
    public func removing(_ url: String) -> Heartbeats {
        Heartbeats(checkIn: checkIn.filter { $0 != url }, deliver: deliver.filter { $0 != url })
    }

    /// What is wrong with a heartbeat URL, or nil: an https URL (plain http only on this
    /// machine), like a webhook's.
    public static func problem(with url: String) -> String? {
        guard ChannelKind.isWebURL(url) else {
            return "a heartbeat URL starts with https://, e.g. https://hc-ping.com/<uuid>"
        }
        return Address.problem(withChannel: url)
    }
}
