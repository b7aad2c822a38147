import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// Sending the duress alarms and all-clears this device queued: part of every `notify deliver`
/// run, before anything else, and reported nowhere — not in the run's output, its exit code,
/// the health record or the feed. Each send is claimed under the lock before its channel runs
/// (so a cron run and the check-in's background run never both send it) and marked sent under
/// the lock after; a claim a crashed run left runs out after `DuressState.claimSeconds`.
extension App {
    func sendDuress() {
        guard DuressStateFile.exists(dataDirectory: dataDirectory) else { return }
        let clock = self.clock()
        let claimed =
            (try? updateDuressState { state -> [DuressSend] in
                let due = state.due(clock: clock)
                for index in due {
                    state.sends[index].claimedUntil = clock + TimeSpan(seconds: DuressState.claimSeconds)
                }
                return due.map { state.sends[$0] }
            }) ?? []
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
        for send in claimed {
            let recipient: Notification.Recipient =
                send.member ? .member(send.contact) : .external(owner: me, id: send.contact)
            let channels = Duress.channels(to: recipient, me: me, device: device, circle: circle)
            guard let channel = channels.first(where: { Duress.fingerprint($0) == send.channel }),
                let contact = circle.contacts(of: me).first(where: { $0.id == send.contact })
            else {
                outcomes.append((send, false))
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
        }
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

extension DuressSend {
    /// The same message to the same channel (whatever its progress).
    func isSame(as other: DuressSend) -> Bool {
        kind == other.kind && alarmAt == other.alarmAt && device == other.device && contact == other.contact
            && channel == other.channel && cause == other.cause
    }
}
