import LifeSignalCore
import LifeSignalStore

/// My notification feed: list it (noticing first what became due), mark read, clear, and the
/// preferences that set its default filter and where my own notifications go.
extension App {
    /// Which notifications to list; nil fields fall back to my saved default filter.
    public struct FeedFilter: Sendable {
        public var category: Notification.Category?
        public var unreadOnly: Bool?
        /// Every category, read or not, whatever the default filter says.
        public var everything = false

        public init(category: Notification.Category? = nil, unreadOnly: Bool? = nil, everything: Bool = false) {
            self.category = category
            self.unreadOnly = unreadOnly
            self.everything = everything
        }
    }

    /// A page of my feed.
    public struct FeedPage: Sendable {
        public var entries: [Notification]
        public var read: Set<String>
        public var unread: Int
        /// Whether a filter narrowed the list (for what to say when it is empty).
        public var filtered: Bool
    }

    public func notifications(_ filter: FeedFilter) throws(AppError) -> FeedPage {
        let now = self.now
        let (feed, preferences, me) = try write(needs: .circleAndFeed) { transaction throws(AppError) in
            transaction.noticeDue(now: now)
            return (transaction.feed, transaction.memberState.effectivePreferences, transaction.member)
        }
        var category = filter.category ?? preferences.category
        var unreadOnly = filter.unreadOnly ?? preferences.unreadOnly
        if filter.everything {
            category = nil
            unreadOnly = false
        }
        let entries = feed.entries(for: .member(me), category: category, unreadOnly: unreadOnly)
        return FeedPage(
            entries: entries, read: feed.read, unread: feed.unreadCount(for: .member(me)),
            filtered: unreadOnly || category != nil)
    }

    /// Which notifications to mark.
    public enum FeedSelection: Sendable {
        /// The one whose id starts with this (4 characters or more).
        case id(String)
        case all
        case category(Notification.Category)
    }

    /// Marks the selected notifications read, or clears them from the feed; returns how many.
    public func mark(_ selection: FeedSelection, clear: Bool) throws(AppError) -> Int {
        let now = self.now
        return try write(needs: .circleAndFeed) { transaction throws(AppError) in
            transaction.noticeDue(now: now)
            let visible = transaction.feed.entries(for: .member(transaction.member))
            let chosen: [Notification]
            switch selection {
            case .all: chosen = visible
            case .category(let category): chosen = visible.filter { $0.kind.category == category }
            case .id(let text): chosen = [try Self.notification(text, in: visible)]
            }
            if clear { transaction.markCleared(chosen.map(\.id)) } else { transaction.markRead(chosen.map(\.id)) }
            return chosen.count
        }
    }

    /// The one notification whose id starts with `text` (at least 4 characters).
    static func notification(_ text: String, in visible: [Notification]) throws(AppError) -> Notification {
        let wanted = text.lowercased()
        let matches = wanted.count >= 4 ? visible.filter { $0.id.hasPrefix(wanted) } : []
        guard let only = matches.first else { throw .refused(.feed(.notFound(text))) }
        if matches.count > 1 { throw .refused(.feed(.ambiguous(text, count: matches.count))) }
        return only
    }

    /// Acknowledges the missed check-in or alert a notification of mine is about: "I'm on it".
    /// The person and their other responders are told at once, and the repeats and further
    /// tiers wait for `Escalation.acknowledgementHold`. Returns the notification acknowledged
    /// and until when my acknowledgement holds it (an earlier one of mine that still holds is
    /// not given again).
    public func acknowledge(_ text: String) throws(AppError) -> (
        acknowledged: Notification, holdsUntil: Timestamp, delivery: DeliveryReport
    ) {
        let now = self.now
        let (chosen, since) = try write(needs: .circleAndFeed) {
            transaction throws(AppError) -> (Notification, Timestamp) in
            transaction.noticeDue(now: now)
            let notification = try Self.notification(
                text, in: transaction.feed.entries(for: .member(transaction.member)))
            guard notification.subject != transaction.member, let thread = notification.thread,
                [.dependentNonResponsive, .dependentAlert, .dependentAlertUpdated].contains(notification.kind)
            else { throw .refused(.feed(.notAcknowledgeable(text))) }
            let circle = transaction.circle
            guard circle.answersFor(notification.subject, watcher: transaction.member) else {
                throw .refused(.feed(.notConfirmed(name: Self.name(notification.subject, in: circle))))
            }
            if let mine = circle.acknowledgements[thread]?[transaction.member],
                now < mine.at + Escalation.acknowledgementHold
            {
                return (notification, mine.at)
            }
            transaction.record(Acknowledged(thread: thread), at: now)
            return (notification, now)
        }
        return (chosen, since + Escalation.acknowledgementHold, try deliver())
    }

    /// A change of preferences; nil fields stay as they are.
    public struct PreferencesChange: Sendable {
        /// `.some(nil)` means every category.
        public var category: Notification.Category??
        public var unreadOnly: Bool?
        public var channels: [String]?
        /// E-mail's `From` and `Reply-To`: `.some(nil)` removes one.
        public var mailFrom: String??
        public var replyTo: String??

        public init() {}

        var isEmpty: Bool { category == nil && unreadOnly == nil && channels == nil }
        var changesMail: Bool { mailFrom != nil || replyTo != nil }
    }

    /// Applies `change` (recorded only when it changes something) and returns the preferences
    /// and how my e-mail is addressed.
    public func preferences(_ change: PreferencesChange) throws(AppError) -> (FeedPreferences, MailSettings) {
        let now = self.now
        return try write { transaction throws(AppError) in
            let current = transaction.memberState.effectivePreferences
            var p = current
            if let category = change.category { p.category = category }
            if let unreadOnly = change.unreadOnly { p.unreadOnly = unreadOnly }
            if let channels = change.channels {
                // A damaged phone.json (doctor says so) cannot be compared with: it holds nothing usable.
                let topics = (try? transaction.store.phoneTopics()) ?? PhoneTopics()
                try Self.refusePrivate(channels, topics: topics)
                p.channels = channels
            }
            if !change.isEmpty, p != current { transaction.record(PreferencesSet(preferences: p), at: now) }
            let mailNow = transaction.memberState.mail?.value ?? MailSettings(from: nil, replyTo: nil)
            var mail = mailNow
            if let from = change.mailFrom { mail.from = from }
            if let replyTo = change.replyTo { mail.replyTo = replyTo }
            if mail != mailNow { transaction.record(MailSet(mail: mail), at: now) }
            return (p, mail)
        }
    }
}
