import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// Check-ins from the phone (see `PhoneCheckIns`): my inbox setting, the "I'm OK" buttons of the
/// messages to me, and reading the inboxes of my member and my dependents in every delivery run.
extension App {
    /// Sets my inbox, an ntfy topic URL (nil: none).
    public func setInbox(_ url: String?) throws(AppError) -> String? {
        if let url, let problem = Address.problem(withChannel: "ntfy:" + url) {
            throw .refused(.setting(.notAnInbox(url, problem: problem)))
        }
        let now = self.now
        let me = try write(feed: .whole) { transaction throws(AppError) -> String in
            transaction.record(InboxSet(url: url), at: now)
            return transaction.member
        }
        // Read from the next delivery run on (the runs learn the inboxes of dependents too).
        if let url, !dryRun {
            Store.updateHealth(dataDirectory: dataDirectory) {
                $0.inboxes[url] = $0.inboxes[url] ?? InboxHealth(member: me)
            }
        }
        return url
    }

    /// My inbox, if I set one.
    public func inbox() throws(AppError) -> String? { try readMine().inbox?.value ?? nil }

    /// What one inbox held this run.
    struct InboxRead: Sendable {
        var url: String
        /// What this device knew of it before (whose it is, the last message seen).
        var before: InboxHealth
        var result: Result<[Inbox.Message], HTTP.Failure>
    }

    /// Reads the inboxes the last run found, without the lock (one short request each; none at
    /// all without an inbox).
    func readInboxes() -> [InboxRead] {
        Store.health(dataDirectory: dataDirectory).inboxes.sorted { $0.key < $1.key }.map { url, inbox in
            InboxRead(url: url, before: inbox, result: Inbox.poll(url, since: inbox.lastSeen, environment: environment))
        }
    }

    /// Under the lock, before anything is noticed: records each tap whose token counts for the
    /// inbox's member (so a miss is never told after it), reports the others, and works out
    /// the inboxes to read next time — mine and my dependents'.
    static func recordTaps(_ reads: [InboxRead], in transaction: inout Transaction, now: Timestamp) -> (
        inboxes: [String: InboxHealth], warnings: [Warning]
    ) {
        let circle = transaction.circle
        let me = transaction.member
        var inboxes: [String: InboxHealth] = [:]
        for member in [me] + circle.linkedMembers(of: me)
        where member == me || circle.roles(of: me, toward: member)?.dependent ?? false {
            if let url = circle.members[member]?.inbox?.value ?? nil { inboxes[url] = InboxHealth(member: member) }
        }
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
                    guard let token = PhoneCheckIns.token(inMessage: message.text) else { continue }
                    let state = transaction.circle.members[member] ?? MemberState()
                    let verdict = PhoneCheckIns.verdict(of: token, at: message.time, for: state)
                    if verdict == .counts {
                        if state.phoneTaps[PhoneCheckIns.commitment(of: token)] == nil {
                            transaction.record(
                                PhoneTapped(member: member, token: token, at: message.time), at: now)
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

    /// The "I'm OK" button of a reminder or a missed check-in sent to my own ntfy channel: a
    /// fresh token, committed to in my records (this transaction commits before anything is
    /// sent), that the button posts to my inbox.
    static func okButton(for planned: DeliveryRules.Job, in transaction: inout Transaction, now: Timestamp)
        -> Message.Button?
    {
        let me = transaction.member
        guard planned.notification.recipient == .member(me), planned.channel.hasPrefix("ntfy:"),
            planned.notification.kind == .checkInReminder || planned.notification.kind == .missedCheckIn,
            let inbox = transaction.memberState.inbox?.value ?? nil
        else { return nil }
        var generator = SystemRandomNumberGenerator()
        let token = KeyText.hex(
            (0..<PhoneCheckIns.tokenLength).map { _ in UInt8.random(in: 0...255, using: &generator) })
        transaction.record(TokenIssued(hash: PhoneCheckIns.commitment(of: token)), at: now)
        return Message.Button(label: "I'm OK", url: inbox, body: PhoneCheckIns.prefix + token)
    }
}
