import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// The duress check-in's use cases: setting the word on this device, leaving a responder out,
/// noticing a check-in whose note is the word, sending the silent alarm and its all-clear
/// through the responders' own channels, and showing what was sent when the person asks.
///
/// Nothing here adds a notice, a warning or a record to the circle: a duress check-in must
/// look, to whoever watches the screen or reads the circle, like any check-in with a note.
/// What is to be sent goes to this device's private state first (`DuressStateFile.update`);
/// a `notify deliver` of this lifesignal, started in the background once the check-in has
/// shown its output, sends it, and cron's runs retry it until each channel took it.
extension App {
    /// Who a duress check-in on this device would tell, as `checkin duress set` reports it.
    public struct DuressReach: Sendable {
        public var told: [String]
        public var leftOut: [String]
    }

    /// Keeps `word` (checked against `Duress.problem(withWord:)` by the caller) as this
    /// device's duress word: its salted hash, never the word. `rounds` is for tests.
    public func setDuressWord(_ word: String, rounds: Int = Duress.defaultRounds) throws(AppError) -> DuressReach {
        let (store, snapshot) = try read()
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<Duress.saltLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
        guard let setting = Duress.setting(word: word, salt: salt, rounds: max(Duress.fewestRounds, rounds)) else {
            return DuressReach(told: [], leftOut: [])
        }
        let state = try updateDuress { state in
            state.setting = setting
            return state
        }
        return reach(store: store, circle: snapshot.state, leftOut: state.leftOut)
    }

    /// Forgets this device's duress word; alarms not sent yet still go out. Whether there was one.
    public func removeDuressWord() throws(AppError) -> Bool {
        _ = try openStore()
        return try updateDuress { state in
            defer { state.setting = nil }
            return state.setting != nil
        }
    }

    /// Includes or leaves out the contact `text` names from the duress alarm of this device.
    public func setDuress(of text: String, told: Bool) throws(AppError) -> Contact {
        let (store, snapshot) = try read()
        let contact = try Self.find(text, in: snapshot.state.contacts(of: store.identity.member))
        try updateDuress { state in
            if told { state.leftOut.remove(contact.id) } else { state.leftOut.insert(contact.id) }
        }
        return contact
    }

    private func reach(store: Store, circle: CircleState, leftOut: Set<String>) -> DuressReach {
        let me = store.identity.member
        let targets = Duress.targets(of: me, device: store.identity.device, circle: circle, leftOut: leftOut)
        let names = circle.contacts(of: me).filter { leftOut.contains($0.id) }.map(\.name)
        return DuressReach(told: targets.map(\.name), leftOut: names)
    }

    @discardableResult
    private func updateDuress<T>(_ change: (inout DuressState) -> T) throws(AppError) -> T {
        let directory = dataDirectory
        let timeout = lockTimeout
        return try AppError.wrap { () throws(StoreError) in
            try DuressStateFile.update(dataDirectory: directory, lockTimeout: timeout) { state throws(StoreError) in
                change(&state)
            }
        }
    }

    /// After a check-in with `note` at `at` was recorded, while a duress word is set: when the
    /// note is the word, the alarm is queued for everyone it tells. Either way the same work is
    /// done — the note hashed, `state.bin` written, a background `notify deliver` started after
    /// the output (`sendsAfterOutput`) — so that neither the time a check-in takes, nor the
    /// file's time, nor the processes running tell one note from another. Silent whatever
    /// happens: it must not change what the check-in shows.
    func noticeDuress(note: String, at: Timestamp, me: String, device: String, circle: CircleState) {
        guard let state = try? DuressStateFile.read(dataDirectory: dataDirectory), let setting = state.setting else {
            return
        }
        let matched = Duress.matches(note, setting)
        let targets = Duress.targets(of: me, device: device, circle: circle, leftOut: state.leftOut)
        let directory = dataDirectory
        _ = try? DuressStateFile.update(dataDirectory: directory, lockTimeout: lockTimeout, rewrite: true) {
            state throws(StoreError) in
            if matched { state.raise(at: at, device: device, targets: targets) }
        }
        sendsAfterOutput = true
    }

    /// Starts a `notify deliver` of this lifesignal (`executable`) in the background, for what
    /// this run queued: it outlives this command, which ends at once.
    public func startSendingAfterOutput(executable: String?) {
        guard sendsAfterOutput, let executable else { return }
        _ = ChildProcess.detach(executable, ["--home", dataDirectory, "notify", "deliver"], environment: environment)
    }

    /// What `checkin duress clear` did: who will be told it is over (nobody when there was no alarm
    /// to end and nobody to tell).
    public struct DuressCleared: Sendable {
        public var told: [String]
        /// No alarm of this device was in force: everyone it would tell is told.
        public var noAlarmHere: Bool
    }

    /// Ends the duress alarm: everyone it reached (or is reaching) from this device gets an
    /// all-clear; what was not sent yet is not sent. On a device with no alarm of its own, the
    /// all-clear goes to everyone a duress check-in here would tell (the alarm came from another
    /// of the person's devices, whose private state this one cannot see).
    public func clearDuress() throws(AppError) -> DuressCleared {
        let (store, snapshot) = try read()
        let me = store.identity.member
        let device = store.identity.device
        let now = self.now
        let circle = snapshot.state
        let (told, here) = try updateDuress { state -> (Set<String>, Bool) in
            guard state.alarmInForce else {
                let targets = Duress.targets(of: me, device: device, circle: circle, leftOut: state.leftOut)
                for target in targets {
                    for channel in target.channels {
                        state.sends.append(
                            DuressSend(
                                kind: .clear, alarmAt: now, cause: now, device: device, contact: target.contact,
                                member: target.member, channel: Duress.fingerprint(channel)))
                    }
                }
                return (Set(targets.map(\.contact)), false)
            }
            return (state.clear(at: now, device: device), true)
        }
        if !told.isEmpty { sendsAfterOutput = true }
        let names = circle.contacts(of: me).filter { told.contains($0.id) }.map(\.name)
        return DuressCleared(told: names, noAlarmHere: !here)
    }

    /// One line of `checkin duress status`: what went, or waits to go, to one person.
    public struct DuressSent: Sendable {
        public var name: String
        public var alarm: Bool
        public var about: Timestamp
        public var sent: Timestamp?
        public var tries: Int
    }

    /// What this device keeps: whether a word is set, whom it leaves out, and what was sent.
    public struct DuressView: Sendable {
        public var wordSet: Bool
        public var rounds: Int?
        public var reach: DuressReach
        public var sends: [DuressSent]
    }

    public func duressStatus() throws(AppError) -> DuressView {
        let (store, snapshot) = try read()
        let state = try AppError.wrap { () throws(StoreError) in
            try DuressStateFile.read(dataDirectory: store.dataDirectory)
        }
        let names = Dictionary(
            snapshot.state.contacts(of: store.identity.member).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a }
        )
        let sends = state.sends.map { send in
            DuressSent(
                name: names[send.contact] ?? "a removed contact (\(send.contact.prefix(8)))",
                alarm: send.kind == .alarm,
                about: send.kind == .alarm ? send.alarmAt : send.cause, sent: send.sent, tries: send.tries)
        }
        return DuressView(
            wordSet: state.setting != nil, rounds: state.setting?.rounds,
            reach: reach(store: store, circle: snapshot.state, leftOut: state.leftOut), sends: sends)
    }
}

extension App.ContactEdit {
    /// Whether it asks for any change at all (`contacts edit NAME --duress off` alone changes
    /// only this device's private state).
    public var changesAnything: Bool {
        changesAddresses || responder != nil || dependent != nil || name != nil || tier != nil
    }
}
