import LifeSignalCore

/// `health.json` in the data directory: this machine's record of how its channels and
/// heartbeat URLs have been doing (see `Health`). Written without fsync and read leniently: it
/// is a history for warnings, never the only copy of anything, so a missing or damaged file
/// reads as empty and the next run writes a good one.
public enum HealthFile {
    static func path(_ dataDirectory: String) -> String { DataFile.health.path(in: dataDirectory) }

    public static func read(dataDirectory: String) -> Health {
        guard case .contents(let bytes)? = try? Posix.read(path(dataDirectory)),
            let root = try? JSONParser.parse(bytes)
        else { return Health() }
        var health = Health()
        let o = try? JSONCursor(root).object()
        health.lastDeliver = try? o?.optional("lastDeliver")?.timestamp()
        health.channels = links(o?.optional("channels"), key: "channel")
        health.heartbeats = links(o?.optional("heartbeats"), key: "url")
        health.sync = links(o?.optional("sync"), key: "engine").values.first ?? LinkHealth()
        let inboxes = links(o?.optional("inboxes"), key: "url")
        for entry in (try? o?.optional("inboxes")?.array()) ?? [] {
            guard let e = try? entry.object(), let url = try? e.required("url").string(),
                let member = try? e.required("member").id()
            else { continue }
            health.inboxes[url] = InboxHealth(
                member: member, lastSeen: try? e.optional("lastSeen")?.string(), link: inboxes[url] ?? LinkHealth())
        }
        return health
    }

    /// Changes the health record under `body` (a lost race with another run loses one entry
    /// of history, nothing more).
    public static func update(dataDirectory: String, _ body: (inout Health) -> Void) {
        var health = read(dataDirectory: dataDirectory)
        body(&health)
        func entries(_ links: [String: LinkHealth], key: String, extra: [String: [(String, JSON)]] = [:]) -> JSON {
            .array(
                links.sorted { $0.key < $1.key }.map { name, link in
                    .object(
                        JSONObject(
                            [
                                (key, .string(name)), ("lastSuccess", .optional(link.lastSuccess?.rfc3339)),
                                ("lastFailure", .optional(link.lastFailure?.rfc3339)),
                                ("failingSince", .optional(link.failingSince?.rfc3339)),
                                ("lastError", .optional(link.lastError)), ("waiting", .int(Int64(link.waiting))),
                            ] + (extra[name] ?? [])))
                })
        }
        let json: JSON = .object(
            JSONObject([
                ("lastDeliver", .optional(health.lastDeliver?.rfc3339)),
                ("channels", entries(health.channels, key: "channel")),
                ("heartbeats", entries(health.heartbeats, key: "url")),
                ("sync", health.sync == LinkHealth() ? .array([]) : entries(["sync": health.sync], key: "engine")),
                (
                    "inboxes",
                    entries(
                        health.inboxes.mapValues(\.link), key: "url",
                        extra: health.inboxes.mapValues {
                            [("member", .string($0.member)), ("lastSeen", .optional($0.lastSeen))]
                        })
                ),
            ]))
        try? Posix.replace(path(dataDirectory), with: json.serializedBytes() + [0x0A], durable: false)
    }

    private static func links(_ cursor: JSONCursor?, key: String) -> [String: LinkHealth] {
        var links: [String: LinkHealth] = [:]
        for entry in (try? cursor?.array()) ?? [] {
            guard let o = try? entry.object(), let name = try? o.required(key).string() else { continue }
            links[name] = LinkHealth(
                lastSuccess: try? o.optional("lastSuccess")?.timestamp(),
                lastFailure: try? o.optional("lastFailure")?.timestamp(),
                failingSince: try? o.optional("failingSince")?.timestamp(),
                lastError: try? o.optional("lastError")?.string(),
                waiting: Int((try? o.optional("waiting")?.int()) ?? 0))
        }
        return links
    }
}
