import LifeSignalCore

/// The feed's part of the cache: this member's unread count and the feed's digest (see
/// `FeedDigest`), both valid only while every file the feed is read from still has the key
/// it had when they were made. The keys are taken before the files are read, so a file that
/// changes while it is read only makes the next run read it again.
extension Store {
    /// The files this member's feed is read from, with their keys now: every device's feed,
    /// this device's private copy, and the member's folder (a new device brings a new feed).
    func feedEntries() throws(StoreError) -> [CircleCache.Entry] {
        let folder = "members/\(identity.member)"
        var entries = [CircleCache.Entry(path: folder, key: Posix.key(Paths.join(circleDirectory, folder)))]
        for device in try devices(of: identity.member) {
            let path = feedPath(member: identity.member, device: device)
            entries.append(CircleCache.Entry(path: "\(folder)/\(device)/feed.json", key: Posix.key(path)))
        }
        entries.append(CircleCache.Entry(path: ownFeedPath, key: Posix.key(ownFeedPath)))
        return entries
    }

    /// The entries of `before` with this device's own feed files keyed again: what a write of
    /// the feed leaves (the other devices' feeds keep the keys they had when they were read).
    func feedEntries(afterWriting before: [CircleCache.Entry]) -> [CircleCache.Entry] {
        let own = "members/\(identity.member)/\(identity.device)/feed.json"
        return before.map { entry in
            guard entry.path == own || entry.path == ownFeedPath else { return entry }
            let path = entry.path == own ? feedPath(member: identity.member, device: identity.device) : entry.path
            return CircleCache.Entry(path: entry.path, key: Posix.key(path))
        }
    }
}

/// The feed's digest as the cache holds it: its part, a feed in JSON and the costliest thing in
/// the cache, is parsed only by a run that uses it (a delivery run with nothing to do); any
/// other write carries it over as it lies. In a coordinator's circle that spared a check-in
/// parsing and writing 40 KB of JSON, a tenth of its time.
struct StoredDigest: Equatable, Sendable {
    var ids: [UInt64]
    /// `FeedDigest.part`, as `FeedFile.encode` writes it.
    var text: String
    var basis: [FeedDigest.Basis]
    var builtAt: Timestamp

    init(ids: [UInt64], text: String, basis: [FeedDigest.Basis], builtAt: Timestamp) {
        (self.ids, self.text, self.basis, self.builtAt) = (ids, text, basis, builtAt)
    }

    init(_ digest: FeedDigest) {
        self.init(
            ids: digest.ids, text: String(decoding: FeedFile.encode(digest.part, signer: nil), as: UTF8.self),
            basis: digest.basis, builtAt: digest.builtAt)
    }

    /// The digest; nil when its part does not parse (the feed is then read instead).
    var decoded: FeedDigest? {
        guard let part = try? FeedFile.decode(Array(text.utf8), path: "cache.bin", backup: nil) else { return nil }
        return FeedDigest(ids: ids, part: part, basis: basis, builtAt: builtAt)
    }
}

extension BinaryWriter {
    mutating func digest(_ digest: StoredDigest?) {
        bool(digest != nil)
        guard let digest else { return }
        words(digest.ids)
        string(digest.text)
        count(digest.basis.count)
        for basis in digest.basis {
            recipient(basis.recipient)
            count(basis.channels.count)
            for channel in basis.channels { string(channel) }
            bool(basis.relays)
        }
        int(digest.builtAt.seconds)
    }

    mutating func recipient(_ recipient: Notification.Recipient) {
        switch recipient {
        case .member(let id):
            bool(true)
            string(id)
        case .external(let owner, let id):
            bool(false)
            string(owner)
            string(id)
        }
    }
}

extension BinaryReader {
    /// The feed digest, its part left unparsed; without `keeping`, its fields are only stepped
    /// over (a dashboard never uses it).
    mutating func digest(keeping: Bool = true) throws(CacheCodec.Damaged) -> StoredDigest? {
        guard try bool() else { return nil }
        let ids = try words()
        let text = try string()
        var basis: [FeedDigest.Basis] = []
        for _ in 0..<(try count()) {
            let recipient = try self.recipient()
            var channels: [String] = []
            for _ in 0..<(try count()) { channels.append(try string()) }
            basis.append(FeedDigest.Basis(recipient: recipient, channels: channels, relays: try bool()))
        }
        let builtAt = Timestamp(seconds: try int(in: -Limits.counter...Limits.counter))
        return keeping ? StoredDigest(ids: ids, text: text, basis: basis, builtAt: builtAt) : nil
    }

    mutating func recipient() throws(CacheCodec.Damaged) -> Notification.Recipient {
        try bool() ? .member(try id()) : .external(owner: try id(), id: try id())
    }
}
