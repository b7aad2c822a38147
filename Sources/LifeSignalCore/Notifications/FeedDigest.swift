/// What a delivery run needs of a member's feed, so that a run with nothing to do does not read
/// a feed of thousands of notifications: every id noticed (to tell what is new), and only the
/// notifications that can still lead to a delivery or a notice. Derived from the feed and kept
/// in the store's cache; the feed stays the only record.
///
/// It is trusted in one direction only. A run that finds nothing new and nothing to send with
/// it is done; one that finds anything reads the whole feed and works it out again. So the
/// digest may hold fewer ids than the feed (an unknown id only costs that read), but never
/// less than what can still be sent: `part` holds every notification the rules could act on
/// while `basis` (each recipient's channels, and whether this device relays for them) and the
/// feed itself are unchanged and time does not run backwards.
public struct FeedDigest: Equatable, Sendable {
    /// The id of every notification in the feed's window, sorted.
    public var ids: [UInt64]
    /// The notifications the rules can still act on, with their delivery states.
    public var part: Feed
    /// What choosing `part` rested on, per recipient in the feed.
    public var basis: [Basis]
    public var builtAt: Timestamp

    public struct Basis: Equatable, Sendable {
        public var recipient: Notification.Recipient
        public var channels: [String]
        public var relays: Bool

        public init(recipient: Notification.Recipient, channels: [String], relays: Bool) {
            self.recipient = recipient
            self.channels = channels
            self.relays = relays
        }

        init(_ recipient: Notification.Recipient, me: String, device: String, circle: CircleState, local: [String]) {
            self.recipient = recipient
            channels =
                DeliveryRules.channels(to: recipient, me: me, device: device, circle: circle)
                + DeliveryRules.localChannels(to: recipient, me: me, circle: circle, local: local)
            relays = DeliveryRules.relays(to: recipient, me: me, circle: circle)
        }
    }

    public init(ids: [UInt64], part: Feed, basis: [Basis], builtAt: Timestamp) {
        self.ids = ids
        self.part = part
        self.basis = basis
        self.builtAt = builtAt
    }

    /// The digest of `feed` as `me`'s device `device` sees it at `now`; nil when an id is not
    /// one this version makes (16 hex digits), so the feed is always read.
    public init?(of feed: Feed, me: String, device: String, circle: CircleState, now: Timestamp, local: [String] = []) {
        let window = now - Feed.window
        var ids: [UInt64] = []
        ids.reserveCapacity(feed.notifications.count)
        for n in feed.notifications.values where n.at >= window {
            guard let id = Self.number(n.id) else { return nil }
            ids.append(id)
        }
        ids.sort()
        var recipients: [Notification.Recipient] = []
        var seen = Set<String>()
        var earliestLink: [String: Notification] = [:]
        var kept: [String: Notification] = [:]
        for n in feed.notifications.values {
            if seen.insert(n.recipient.key).inserted { recipients.append(n.recipient) }
            if n.kind == .contactAdded || n.kind == .roleChanged,
                earliestLink[n.subject].map({ n.at < $0.at }) ?? true
            {
                earliestLink[n.subject] = n
            }
            let open =
                n.kind == .dependentNonResponsive
                && !Self.has(Notifications.allClearID(of: n), in: ids)
            if open || Repeats.mayRepeat(n, circle: circle, now: now)
                || DeliveryRules.mayAct(
                    on: n, feed: feed, me: me, device: device, circle: circle, now: now, local: local)
            {
                kept[n.id] = n
            }
        }
        for n in earliestLink.values { kept[n.id] = n }
        // An end is sent only where its start was: its thread's starts come with it.
        let endedThreads = Set(kept.values.filter { DeliveryRules.ends($0.kind) }.compactMap(\.thread))
        if !endedThreads.isEmpty {
            for n in feed.notifications.values where n.thread.map(endedThreads.contains) ?? false { kept[n.id] = n }
        }
        var part = Feed()
        part.notifications = kept
        for (key, state) in feed.deliveries where kept[key.notification] != nil { part.deliveries[key] = state }
        self.init(
            ids: ids, part: part,
            basis: recipients.map { Basis($0, me: me, device: device, circle: circle, local: local) },
            builtAt: now)
    }

    /// Whether the feed this was made from holds a notification with this id.
    public func has(_ id: String) -> Bool { Self.has(id, in: ids) }

    /// Whether what `part` was chosen by still holds for `me`'s device `device` at `now`.
    public func holds(me: String, device: String, circle: CircleState, now: Timestamp, local: [String] = []) -> Bool {
        now >= builtAt
            && basis.allSatisfy { $0 == Basis($0.recipient, me: me, device: device, circle: circle, local: local) }
    }

    /// Whether a delivery run of `me`'s device at `now` has nothing to do, by this digest:
    /// what it rests on still holds, nothing due is new, and nothing is to be sent or waits.
    public func showsNothingToDo(
        me: String, device: String, circle: CircleState, now: Timestamp, unreadable: [String: Timestamp],
        sync: SyncView, local: [String] = []
    ) -> Bool {
        guard holds(me: me, device: device, circle: circle, now: now, local: local) else { return false }
        let due = Notifications.due(circle: circle, feed: part, me: me, now: now, unreadable: unreadable)
        guard due.allSatisfy({ part.notifications[$0.id] != nil || has($0.id) }) else { return false }
        let plan = DeliveryRules.plan(
            feed: part, circle: circle, me: me, device: device, now: now, sync: sync, local: local)
        return plan.channels.isEmpty && plan.waiting.isEmpty
    }

    static func number(_ id: String) -> UInt64? {
        guard id.utf8.count == 16 else { return nil }
        return UInt64(id, radix: 16)
    }

    static func has(_ id: String, in ids: [UInt64]) -> Bool { number(id).map { has($0, in: ids) } ?? false }

    static func has(_ id: UInt64, in ids: [UInt64]) -> Bool {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id
    }
}
