import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// Sending the duress alarms and all-clears this device queued: part of every `notify deliver`
/// run, before anything else, and reported nowhere — not in the run's output, its exit code,
/// the health record or the feed. Each send is claimed under the lock before its channel runs
/// (so a cron run and the check-in's background run never both send it) and marked sent under
/// the lock after; a claim a crashed run left runs out after `DuressState.claimSeconds`.
extension App {
    func sendDuress(followingChanges: Bool = true) {
        guard DuressStateFile.exists(dataDirectory: dataDirectory) else { return }
        let claimed = claimDue()
        guard !claimed.isEmpty, let store = try? openStore(), let snapshot = try? store.snapshot() else { return }
        let circle = snapshot.state
        let me = store.identity.member
        let device = store.identity.device
        let mail = circle.members[me]?.mail?.value
        let zone = displayZone
        let state = try? DuressStateFile.read(dataDirectory: dataDirectory)
        let alarms = Set((state?.sends ?? []).map(\.alarmAt))
        let setting = state?.setting
        let wasDuress = { (checkIn: MemberState.CheckIn) -> Bool in
            guard !alarms.contains(checkIn.at) else { return true }
            guard let setting, let note = checkIn.note else { return false }
            return Duress.matches(note, setting)
        }
        var outcomes: [(DuressSend, Bool)] = []
        var moved: [(DuressSend, [UInt64])] = []
        for send in claimed {
            let recipient: Notification.Recipient =
                send.member ? .member(send.contact) : .external(owner: me, id: send.contact)
            guard let contact = circle.contacts(of: me).first(where: { $0.id == send.contact }) else {
                moved.append((send, []))
                continue
            }
            let channels = Duress.channels(to: recipient, me: me, device: device, circle: circle)
            guard let channel = channels.first(where: { Duress.fingerprint($0) == send.channel }) else {
                // A recipient with no channel just now (their records unreadable here, say) is
                // tried again later, never given up.
                if channels.isEmpty {
                    outcomes.append((send, false))
                } else {
                    moved.append((send, channels.map(Duress.fingerprint)))
                }
                continue
            }
            let target = Duress.Target(
                contact: contact.id, name: contact.name, member: send.member, channels: [channel])
            let (notification, message) = Duress.message(
                send, to: target, me: me, circle: circle, sentAt: now, zone: zone, wasDuress: wasDuress)
            let succeeded = attempt(notification, message, channel, mail)
            outcomes.append((send, succeeded))
        }
        _ = try? updateDuressState { state in
            for (send, succeeded) in outcomes {
                guard let index = state.sends.firstIndex(where: { $0.isSame(as: send) }) else { continue }
                state.sends[index].claimedUntil = nil
                if succeeded { state.sends[index].sent = now } else { state.sends[index].tries += 1 }
            }
            for (send, channels) in moved { state.follow(send, to: channels) }
        }
        // What moved to a recipient's new channels goes now, not a cron run later.
        if followingChanges, !moved.isEmpty { sendDuress(followingChanges: false) }
    }

    /// The sends due now, each claimed under the lock so that no other run sends it meanwhile.
    private func claimDue() -> [DuressSend] {
        let clock = self.clock()
        return
            (try? updateDuressState { state -> [DuressSend] in
                let due = state.due(clock: clock)
                for index in due {
                    state.sends[index].claimedUntil = clock + TimeSpan(seconds: DuressState.claimSeconds)
                }
                return due.map { state.sends[$0] }
            }) ?? []
    }

    private func attempt(_ notification: Notification, _ message: Message, _ channel: String, _ mail: MailSettings?)
        -> Bool
    {
        channels.send(notification, message, channel, mail, environment, channels.timeout).succeeded
    }

    private func updateDuressState<T>(_ change: (inout DuressState) -> T) throws(StoreError) -> T {
        try DuressStateFile.update(dataDirectory: dataDirectory, lockTimeout: lockTimeout) {
            state throws(StoreError) in change(&state)
        }
    }
}
