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

extension BinaryWriter {
    mutating func digest(_ digest: FeedDigest?) {
        bool(digest != nil)
        guard let digest else { return }
        words(digest.ids)
        string(String(decoding: FeedFile.encode(digest.part, signer: nil), as: UTF8.self))
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
    /// The feed digest; without `decoding`, its fields are only stepped over (a dashboard
    /// never uses it, and its part is a feed in JSON, the costliest thing in a warm read).
    mutating func digest(decoding: Bool = true) throws(CacheCodec.Damaged) -> FeedDigest? {
        guard try bool() else { return nil }
        let ids = try words()
        let text = try string()
        var part = Feed()
        if decoding {
            do {
                part = try FeedFile.decode(Array(text.utf8), path: "cache.bin", backup: nil)
            } catch {
                throw CacheCodec.Damaged()
            }
        }
        var basis: [FeedDigest.Basis] = []
        for _ in 0..<(try count()) {
            let recipient = try self.recipient()
            var channels: [String] = []
            for _ in 0..<(try count()) { channels.append(try string()) }
            basis.append(FeedDigest.Basis(recipient: recipient, channels: channels, relays: try bool()))
        }
        let builtAt = Timestamp(seconds: try int(in: -Limits.counter...Limits.counter))
        return decoding ? FeedDigest(ids: ids, part: part, basis: basis, builtAt: builtAt) : nil
    }

    mutating func recipient() throws(CacheCodec.Damaged) -> Notification.Recipient {
        try bool() ? .member(try id()) : .external(owner: try id(), id: try id())
    }
}
