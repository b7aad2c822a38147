import LifeSignalCore

/// A private summary of the circle as last read, so that a run does not parse every device's
/// log when nothing changed — the cost of `status` must not grow with the circle's history.
///
/// It lives in the data directory (never in the circle) as `cache.json`. It holds this
/// device's folded state, everyone else's merged, and the key (inode, size, modification and
/// change times) of every directory and log it was built from. It is used only when every key
/// still matches; anything else — a changed or new file, a damaged or newer cache — means a
/// full read. It is never written from a read that skipped an unreadable log, so warnings
/// about that log keep appearing. Losing it costs one full read, so it is written without fsync.
struct CircleCache {
    static let schemaVersion: Int64 = 1

    /// A path relative to the circle, and the key it had when the cache was built.
    struct Entry {
        var path: String
        var key: Posix.FileKey
    }

    var circle: String
    var member: String
    var device: String
    var entries: [Entry]
    var own: CircleState
    var others: CircleState
    var othersClock: Int64
    /// This member's unread notifications, valid while every feed file of theirs still has the
    /// key in `feedEntries` (so `status` need not parse the feed).
    var unread: Int? = nil
    var feedEntries: [Entry] = []

    /// The unread count, when the feed files it was counted from are unchanged.
    var currentUnread: Int? {
        guard let unread, feedEntries.allSatisfy({ Posix.key(Paths.join(circle, $0.path)) == $0.key }) else { return nil }
        return unread
    }

    static func path(_ dataDirectory: String) -> String { Paths.join(dataDirectory, "cache.json") }

    /// The prefix of this device's own paths, which a writer reads itself.
    var ownPrefix: String { "members/\(member)/\(device)" }

    /// True when every directory and log still has the key it had. With `exceptOwn`, this
    /// device's own directory and log are not checked (a writer reads its log itself).
    func isCurrent(exceptOwn: Bool) -> Bool {
        entries.allSatisfy { entry in
            if exceptOwn, entry.path.hasPrefix(ownPrefix) { return true }
            return Posix.key(Paths.join(circle, entry.path)) == entry.key
        }
    }

    static func load(_ store: Store) -> CircleCache? {
        guard case .contents(let bytes)? = try? Posix.read(path(store.dataDirectory)),
            let root = try? JSONParser.parse(bytes)
        else { return nil }
        do throws(JSONShapeError) {
            let o = try JSONCursor(root).object()
            guard try o.required("schemaVersion").int() == schemaVersion else { return nil }
            var cache = CircleCache(
                circle: try o.required("circle").string(), member: try o.required("member").string(),
                device: try o.required("device").string(), entries: [], own: try Codec.decodeMerged(o.required("own")),
                others: try Codec.decodeMerged(o.required("others")), othersClock: try o.required("othersClock").int())
            guard cache.circle == store.circleDirectory, cache.member == store.identity.member, cache.device == store.identity.device
            else { return nil }
            func entries(_ key: String) throws(JSONShapeError) -> [Entry]? {
                var list: [Entry] = []
                for entry in try o.required(key).array() {
                    let fields = try entry.array()
                    guard fields.count == 6 else { return nil }
                    let fileKey = Posix.FileKey(
                        device: UInt64(bitPattern: try fields[1].int()), inode: UInt64(bitPattern: try fields[2].int()), size: try fields[3].int(),
                        modified: try fields[4].int(), changed: try fields[5].int())
                    list.append(Entry(path: try fields[0].string(), key: fileKey))
                }
                return list
            }
            guard let files = try entries("entries"), let feeds = try entries("feedEntries") else { return nil }
            cache.entries = files
            cache.feedEntries = feeds
            cache.unread = try o.optional("unread").map { c throws(JSONShapeError) in Int(clamping: try c.int()) }
            return cache
        } catch {
            return nil
        }
    }

    func save(_ dataDirectory: String) {
        func encode(_ list: [Entry]) -> JSON {
            .array(
                list.map { entry in
                    .array([
                        .string(entry.path), .int(Int64(bitPattern: entry.key.device)), .int(Int64(bitPattern: entry.key.inode)),
                        .int(entry.key.size), .int(entry.key.modified), .int(entry.key.changed),
                    ])
                })
        }
        let json: JSON = .object(
            JSONObject([
                ("schemaVersion", .int(Self.schemaVersion)), ("circle", .string(circle)), ("member", .string(member)),
                ("device", .string(device)), ("entries", encode(entries)),
                ("own", Codec.encodeMerged(own)), ("others", Codec.encodeMerged(others)), ("othersClock", .int(othersClock)),
                ("unread", unread.map { .int(Int64($0)) } ?? .null), ("feedEntries", encode(feedEntries)),
            ]))
        // Best effort: a cache that cannot be written only means the next run reads everything.
        try? Posix.replace(Self.path(dataDirectory), with: json.serializedBytes(pretty: false), durable: false)
    }
}
