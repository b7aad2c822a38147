import LifeSignalCore

/// How a device's feed is kept on disk: `members/<member>/<device>/feed.json`, beside its log,
/// written only by that device. It is separate from the log so that a plain check-in never
/// reads or writes the feed; `notify` commands and deliveries do.
enum FeedFile {
    static let schemaVersion: Int64 = 1

    /// The file's text, written a notification at a time (a feed may hold thousands).
    static func encode(_ feed: Feed, signer: SigningKey?) -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 4096 + feed.notifications.count * 400 + feed.deliveries.count * 250)
        writer.field("schemaVersion", .int(schemaVersion))
        writer.array("notifications", feed.notifications.values.sorted { ($0.at, $0.id) < ($1.at, $1.id) }) {
            stored($0)
        }
        writer.array("read", feed.read.sorted(), JSON.string)
        writer.array("cleared", feed.cleared.sorted(), JSON.string)
        writer.array(
            "deliveries",
            feed.deliveries.sorted { ($0.key.notification, $0.key.channel) < ($1.key.notification, $1.key.channel) }
        ) { key, state in
            .object(
                JSONObject([
                    ("notification", .string(key.notification)), ("channel", .string(key.channel)),
                    ("failures", .int(Int64(state.failures))),
                    ("lastAttempt", .optional(state.lastAttempt?.rfc3339)),
                    ("deliveredAt", .optional(state.deliveredAt?.rfc3339)),
                    ("lastError", .optional(state.lastError)),
                ]))
        }
        var bytes = writer.bytes()
        bytes.append(0x0A)
        return signer.map { Signing.sign(bytes, domain: .feed, key: $0) } ?? bytes
    }

    /// A notification as the feed keeps it: its JSON form, the thread it belongs to, and for a
    /// repeat which notice it is (older versions read a repeat as a notification of its own).
    static func stored(_ n: Notification) -> JSON {
        guard let thread = n.thread, case .object(var o) = n.json else { return n.json }
        o["thread"] = .string(thread)
        if n.notice > 1 { o["notice"] = .int(Int64(n.notice)) }
        return .object(o)
    }

    static func decodeNotification(_ cursor: JSONCursor) throws(JSONShapeError) -> Notification {
        let o = try cursor.object()
        let typeCursor = try o.required("type")
        guard let kind = Notification.Kind(rawValue: try typeCursor.string()) else {
            throw typeCursor.fail("unknown notification type")
        }
        let r = try o.required("recipient").object()
        let recipient: Notification.Recipient
        if let member = r.optional("member") {
            recipient = .member(try member.id())
        } else {
            recipient = .external(owner: try r.required("owner").id(), id: try r.required("external").id())
        }
        var n = Notification(
            id: try o.required("id").string(), kind: kind, title: try o.required("title").string(),
            message: try o.required("message").string(),
            at: try o.required("at").timestamp(), subject: try o.required("subject").id(), recipient: recipient,
            thread: try o.optional("thread")?.string())
        if let notice = o.optional("notice") {
            let value = try notice.int()
            guard (2...100_000).contains(value) else { throw notice.fail("must be a number from 2 to 100000") }
            n.notice = Int(value)
        }
        return n
    }

    /// A feed file's text as a feed. Its notifications are decoded one at a time as they are
    /// parsed, never held as one JSON tree: a feed can hold thousands of them.
    static func decode(_ bytes: [UInt8], path: String, backup: String?) throws(StoreError) -> Feed {
        var feed = Feed()
        var index = 0
        var problem: JSONShapeError?
        return try Files.object(
            bytes, path: path, backup: backup, supported: schemaVersion,
            streaming: (
                "notifications",
                { element in
                    defer { index += 1 }
                    guard problem == nil else { return }
                    do throws(JSONShapeError) {
                        let n = try decodeNotification(JSONCursor(element, path: "notifications[\(index)]"))
                        feed.notifications[n.id] = n
                    } catch {
                        problem = error
                    }
                }
            )
        ) { o throws(JSONShapeError) in
            _ = try o.required("notifications").array()
            if let problem { throw problem }
            feed.read = Set(try o.required("read").array().map { c throws(JSONShapeError) in try c.string() })
            feed.cleared = Set(try o.required("cleared").array().map { c throws(JSONShapeError) in try c.string() })
            for c in try o.required("deliveries").array() {
                let e = try c.object()
                var state = DeliveryState()
                let failures = try e.required("failures")
                state.failures = Int(clamping: try failures.int())
                guard state.failures >= 0 else { throw failures.fail("must not be negative") }
                state.lastAttempt = try e.optional("lastAttempt")?.timestamp()
                state.deliveredAt = try e.optional("deliveredAt")?.timestamp()
                state.lastError = try e.optional("lastError")?.string()
                feed.deliveries[
                    DeliveryKey(
                        notification: try e.required("notification").string(),
                        channel: try e.required("channel").string())] = state
            }
            return feed
        }
    }
}

extension Store {
    public func feedPath(member: String, device: String) -> String {
        Paths.join(deviceDirectory(member: member, device: device), "feed.json")
    }

    /// A device's feed; empty when it has none yet. This device's comes from its private copy,
    /// and from the circle only in a directory written before private copies existed (one with
    /// no private log either): the circle's copy of a feed this device never wrote is not its.
    /// A private feed that is missing while its backup exists is damage, never an empty feed.
    /// `signedBy` is the public key of another device of this member that signs: a feed it did
    /// not sign is not believed.
    func readFeed(member: String, device: String, signedBy: String? = nil) throws(StoreError) -> Feed {
        var path = feedPath(member: member, device: device)
        if isOwn(member: member, device: device),
            Posix.exists(ownFeedPath) || Posix.exists(ownFeedPath + ".bak") || Posix.exists(ownLogPath)
        {
            path = ownFeedPath
        }
        let backup = path + ".bak"
        var key = Posix.FileKey.missing
        let own = path == ownFeedPath
        let feed = try Self.readStill(
            path, key: &key,
            reading: { (key: inout Posix.FileKey) throws(StoreError) in
                try own ? readFile(path, key: &key) : readPlain(path, backup: backup, key: &key)
            },
            decode: { bytes throws(StoreError) in
                if !own, let signedBy, let problem = Signing.problem(bytes, domain: .feed, publicKey: signedBy) {
                    throw .damaged(
                        path: path, problem: "\(problem), so it is not believed to be device \(device)'s", backup: nil)
                }
                return try FeedFile.decode(bytes, path: path, backup: Posix.exists(backup) ? backup : nil)
            })
        return feed ?? Feed()
    }

    /// Another device's file: its bytes, or `.missing` (its `.bak`, if any, named when it is
    /// unreadable).
    private func readPlain(_ path: String, backup: String, key: inout Posix.FileKey) throws(StoreError)
        -> Posix.ReadResult
    {
        do {
            return try Posix.read(path, key: &key)
        } catch {
            throw error.asReadError(backup: Posix.exists(backup) ? backup : nil)
        }
    }

    /// This member's unread notifications: from the cache when their feed files are unchanged,
    /// else counted from the feeds (and remembered in the cache).
    public func unreadCount() throws(StoreError) -> (count: Int, skipped: [StoreError]) {
        var cache = CircleCache.load(self)
        if let unread = cache?.currentUnread { return (unread, []) }
        let counted = try countUnread()
        if counted.skipped.isEmpty, cache != nil {
            cache?.remember(unread: counted.count, feedEntries: counted.entries)
            cache?.save(dataDirectory)
        }
        return (counted.count, counted.skipped)
    }

    /// This member's unread count from their feeds, and the keys of the feed files it was
    /// counted from (taken before they were read).
    func countUnread() throws(StoreError) -> (count: Int, skipped: [StoreError], entries: [CircleCache.Entry]) {
        let entries = try feedEntries()
        let loaded = try memberFeed()
        return (loaded.feed.unreadCount(for: .member(identity.member)), loaded.skipped, entries)
    }

    /// This member's feed, merged from all their devices that count (`speakers`, read from
    /// their logs when not given): this device's must be readable, another device's that is
    /// not is skipped (and reported).
    public func memberFeed(speakers given: Speakers? = nil) throws(StoreError) -> (
        feed: Feed, own: Feed, skipped: [StoreError]
    ) {
        var merged = Feed()
        var own = Feed()
        var skipped: [StoreError] = []
        let speakers: Speakers
        if let given { speakers = given } else { speakers = try ownSpeakers() }
        var devices = try devices(of: identity.member).filter { speakers.believed.contains($0) }
        if !devices.contains(identity.device) { devices.append(identity.device) }
        for device in devices {
            do {
                let feed = try readFeed(member: identity.member, device: device, signedBy: speakers.keys[device])
                if device == identity.device { own = feed }
                merged.merge(feed)
            } catch {
                if device == identity.device { throw error }
                skipped.append(error)
            }
        }
        return (merged, own, skipped)
    }
}
