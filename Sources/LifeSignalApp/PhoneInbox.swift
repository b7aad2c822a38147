import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// Check-ins from the phone (see `PhoneCheckIns`): my inbox setting, the "I'm OK" buttons of the
/// messages to me, and reading the inboxes of my member and my dependents in every delivery run.
extension App {
    /// My inbox and this device's phone topic, as they stand.
    public struct InboxSetting: Sendable {
        /// The inbox, an ntfy topic URL in my records (every device of the circle reads it).
        public var inbox: String?
        /// Where this device sends my reminders with the "I'm OK" button: kept on this machine.
        public var phone: String?
    }

    /// Sets my inbox, an ntfy topic URL (nil: none), and with `phone` this device's phone topic
    /// (`.some(nil)`: none; removing the inbox removes it too).
    public func setInbox(_ url: String?, phone asked: String?? = nil) throws(AppError) -> InboxSetting {
        let phone = asked.map { $0 == Self.newTopic ? Self.privateTopic(beside: url) : $0 }
        for topic in [url, phone ?? nil].compactMap({ $0 }) {
            if let problem = Address.problem(withChannel: ChannelKind.ntfy.channel(topic)) {
                throw .refused(.setting(.notAnInbox(topic, problem: problem)))
            }
        }
        let now = self.now
        // Removing the inbox removes the phone topic too.
        let keptPhone: String?? = url == nil ? .some(nil) : phone
        let (store, me) = try write(needs: .circleAndFeed) { transaction throws(AppError) -> (Store, String) in
            // A damaged phone.json (doctor says so) cannot be compared with: it holds nothing usable.
            let topics = (try? transaction.store.phoneTopics()) ?? PhoneTopics()
            if let url { try Self.refusePrivate([url], topics: topics, except: phone == nil ? nil : topics.phone) }
            transaction.record(InboxSet(url: url), at: now)
            // A phone topic replaced or removed takes its buttons with it.
            if let keptPhone, keptPhone != topics.phone {
                Self.withdrawButtons(of: [PhoneCheckIns.phone], in: &transaction, now: now)
            }
            if let topic = phone ?? nil,
                let problem = Address.problem(
                    withPrivateTopic: topic, in: transaction.circle, taken: Array(topics.responders.values))
            {
                throw .refused(.setting(.notAPhoneTopic(topic, problem: problem)))
            }
            return (transaction.store, transaction.member)
        }
        if let keptPhone {
            try AppError.wrap { () throws(StoreError) in try store.setPhoneTopic(keptPhone, lockTimeout: lockTimeout) }
        }
        // Read from the next delivery run on (the runs learn the inboxes of dependents too).
        if let url {
            HealthFile.update(dataDirectory: dataDirectory) {
                $0.inboxes[url] = $0.inboxes[url] ?? InboxHealth(member: me)
            }
        }
        return InboxSetting(inbox: url, phone: (try? store.phoneTopic()) ?? nil)
    }

    /// Refuses `urls` — channels or an inbox about to go into the circle folder — that are one of
    /// this device's private topics (`except` one being replaced in the same change): there,
    /// anyone in the circle could read the tokens of its buttons.
    static func refusePrivate(_ urls: [String], topics: PhoneTopics, except: String? = nil) throws(AppError) {
        let mine = ([topics.phone].compactMap { $0 } + topics.responders.values).filter { $0 != except }
        for url in urls where mine.contains(where: { Address.comparableTopic($0) == Address.comparableTopic(url) }) {
            throw .refused(.setting(.privateTopicInCircle(url)))
        }
    }

    /// My inbox, if I set one, and this device's phone topic.
    public func inbox() throws(AppError) -> InboxSetting {
        let (store, snapshot) = try read()
        let inbox = snapshot.state.members[store.identity.member]?.inbox?.value ?? nil
        return InboxSetting(inbox: inbox, phone: try AppError.wrap { () throws(StoreError) in try store.phoneTopic() })
    }

    /// What one inbox held this run.
    struct InboxRead: Sendable {
        var url: String
        /// What this device knew of it before (whose it is, the last message seen).
        var before: InboxHealth
        var result: Result<[Inbox.Message], HTTP.Failure>
    }

    /// `sync`, knowing when each phone inbox here was last read: a dependent's miss is confirmed
    /// only by a read after it (a tap not read yet may be the check-in that answers it).
    static func syncView(_ sync: SyncView, reading inboxes: [String: InboxHealth]?) -> SyncView {
        var sync = sync
        for (url, inbox) in inboxes ?? [:] {
            let earlier = sync.inboxReads[url] ?? nil
            sync.inboxReads[url] = [inbox.link.lastSuccess, earlier].compactMap { $0 }.max()
        }
        return sync
    }

    /// Reads the inboxes the last run found, without the lock (one short request each; none at
    /// all without an inbox). A device's first delivery run has no run before it, and finds
    /// them in the circle: else its first run after a deadline could confirm no miss. A dry run
    /// reads them too: reading records nothing, and a dependent's miss is confirmed only by a
    /// read after it.
    func readInboxes() -> [InboxRead] {
        let health = HealthFile.read(dataDirectory: dataDirectory)
        var inboxes = health.inboxes
        if health.lastDeliver == nil, let store = try? openStore(), let circle = try? store.snapshot().state {
            inboxes.merge(Self.inboxes(readBy: store.identity.member, in: circle).inboxes) { known, _ in known }
        }
        return inboxes.sorted { $0.key < $1.key }.map { url, inbox in
            InboxRead(url: url, before: inbox, result: channels.poll(url, inbox.lastSeen, environment))
        }
    }

    /// The inboxes `me`'s devices read: mine and my dependents', each once, whoever else names
    /// it too (a tap is judged by whose token it carries, not by whose settings name the
    /// topic); and the members they are read for.
    static func inboxes(readBy me: String, in circle: CircleState) -> (
        inboxes: [String: InboxHealth], readFor: [String]
    ) {
        var inboxes: [String: InboxHealth] = [:]
        let readFor =
            [me] + circle.linkedMembers(of: me).filter { circle.roles(of: me, toward: $0)?.dependent ?? false }
        for member in readFor.sorted() {
            if let url = circle.members[member]?.inbox?.value ?? nil, inboxes[url] == nil {
                inboxes[url] = InboxHealth(member: member)
            }
        }
        return (inboxes, readFor)
    }

    /// Under the lock, before anything is noticed: records each tap whose token counts for the
    /// inbox's member (so a miss is never told after it), reports the others, and works out
    /// the inboxes to read next time — mine and my dependents'.
    static func recordTaps(_ reads: [InboxRead], in transaction: inout Transaction, now: Timestamp) -> (
        inboxes: [String: InboxHealth], warnings: [Warning]
    ) {
        let circle = transaction.circle
        var (inboxes, readFor) = Self.inboxes(readBy: transaction.member, in: circle)
        var warnings: [Warning] = []
        for read in reads where inboxes[read.url]?.member == read.before.member {
            var inbox = read.before
            let member = inbox.member
            switch read.result {
            case .failure(let failure):
                inbox.link.record(error: failure.message, at: now)
            case .success(let messages):
                inbox.link.record(error: nil, at: now)
                inbox.lastSeen = messages.last?.id ?? inbox.lastSeen
                for message in messages {
                    guard
                        let (committer, token, verdict) = judge(
                            message, inboxOf: member, readFor: readFor, transaction.circle)
                    else { continue }
                    if verdict == .counts {
                        let known = transaction.circle.members[committer]?.phoneTaps
                        if known?[PhoneCheckIns.commitment(of: token)] == nil {
                            transaction.record(
                                PhoneTapped(member: committer, token: token, at: message.time), at: now)
                        }
                    } else {
                        let name = circle.members[member]?.name?.value ?? member
                        warnings.append(.tapIgnored(name: name, at: message.time, verdict: verdict))
                    }
                }
            }
            inboxes[read.url] = inbox
        }
        return (inboxes, warnings)
    }

    /// A message of `member`'s inbox: a tap of their "I'm OK" (a token of theirs), or of an
    /// external responder's "I'm on it" (a token of the member's own device, which sent her the
    /// alarm); the member whose token it is, and what it does. Nil: not a tap of ours.
    static func judge(_ message: Inbox.Message, inboxOf member: String, readFor: [String], _ circle: CircleState)
        -> (committer: String, token: String, verdict: PhoneCheckIns.Verdict)?
    {
        if let token = PhoneCheckIns.token(inMessage: message.text) {
            let hash = PhoneCheckIns.commitment(of: token)
            let owner = readFor.first { circle.members[$0]?.tokens[hash] != nil } ?? member
            let verdict = PhoneCheckIns.verdict(
                of: token, at: message.time, for: circle.members[owner] ?? MemberState())
            return (owner, token, verdict)
        }
        guard let token = PhoneCheckIns.ackToken(inMessage: message.text) else { return nil }
        // Whoever of those read for committed to it, about themselves (another member who set
        // the same inbox URL cannot make a tap unknown by sorting first).
        let hash = PhoneCheckIns.commitment(of: token)
        let committer = readFor.first { circle.members[$0]?.ackTokens[hash]?.owner == $0 } ?? member
        return (
            committer, token, PhoneCheckIns.ackVerdict(of: token, at: message.time, committedBy: committer, in: circle)
        )
    }

    /// The "I'm on it" button of an alarm about me sent to an external responder's button
    /// topic (kept on this machine only: see `DeliveryRules.buttonChannel`), when I have an
    /// inbox: a fresh token, committed to in my records first, that the button posts to my inbox.
    static func onItButton(for planned: DeliveryRules.Job, in transaction: inout Transaction, now: Timestamp)
        -> Message.Button?
    {
        let n = planned.notification
        guard case .external(let owner, let contact) = n.recipient, owner == n.subject, owner == transaction.member,
            DeliveryRules.buttonContact(of: planned.channel) == contact,
            [.dependentNonResponsive, .dependentAlert, .dependentAlertUpdated].contains(n.kind), let thread = n.thread,
            let inbox = transaction.circle.members[n.subject]?.inbox?.value ?? nil
        else { return nil }
        let token = freshToken()
        transaction.record(
            AckTokenIssued(hash: PhoneCheckIns.commitment(of: token), thread: thread, owner: owner, contact: contact),
            at: now)
        return Message.Button(label: "I'm on it", url: inbox, body: PhoneCheckIns.ackPrefix + token)
    }

    /// This device's private topics that may be sent to (see `Store.privateTopics`), after
    /// withdrawing the buttons handed out through any the circle can now read (it became
    /// someone's channel or inbox there): their unused tokens could be taken by anyone in the
    /// circle, so they stop counting (see `ButtonsWithdrawn`).
    static func privateTopics(withdrawingReadable transaction: inout Transaction, now: Timestamp) -> PhoneTopics {
        let all = (try? transaction.store.phoneTopics()) ?? PhoneTopics()
        let kept = all.keeping(privateIn: transaction.circle)
        guard all != kept else { return kept }
        var keys = all.responders.keys.filter { kept.responders[$0] == nil }.sorted()
        if all.phone != nil && kept.phone == nil { keys.insert(PhoneCheckIns.phone, at: 0) }
        withdrawButtons(of: keys, in: &transaction, now: now)
        return kept
    }

    /// Withdraws the buttons still out for each of `keys` (see `ButtonsWithdrawn.of`).
    static func withdrawButtons(of keys: [String], in transaction: inout Transaction, now: Timestamp) {
        for key in keys where transaction.memberState.hasButtonsOut(for: key) {
            transaction.record(ButtonsWithdrawn(of: key), at: now)
        }
    }

    /// What asks for a new private topic instead of naming one (`--phone new`,
    /// `--button-topic new`).
    public static let newTopic = "new"

    /// A new private topic with a random name on the server of `url`.
    static func privateTopic(beside url: String?) -> String {
        var generator = SystemRandomNumberGenerator()
        return Address.newPrivateTopic(
            beside: url, random: (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func freshToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return KeyText.hex((0..<PhoneCheckIns.tokenLength).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The "I'm OK" button of a reminder or a missed check-in sent to my own ntfy channel: a
    /// fresh token, committed to in my records (this transaction commits before anything is
    /// sent), that the button posts to my inbox.
    static func okButton(for planned: DeliveryRules.Job, in transaction: inout Transaction, now: Timestamp)
        -> Message.Button?
    {
        guard planned.channel == DeliveryRules.phoneChannel, let inbox = transaction.memberState.inbox?.value ?? nil
        else { return nil }
        let token = freshToken()
        transaction.record(TokenIssued(hash: PhoneCheckIns.commitment(of: token)), at: now)
        return Message.Button(label: "I'm OK", url: inbox, body: PhoneCheckIns.prefix + token)
    }
}
