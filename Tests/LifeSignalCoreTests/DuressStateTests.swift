import Testing

@testable import LifeSignalCore

/// The duress word's matching and the private state's rules and binary form.
@Suite struct DuressStateTests {
    static let setting = Duress.setting(word: "Blue Heron", salt: Array(0..<16), rounds: 10)

    @Test func theWordMatchesTrimmedAndInAnyCaseAndNothingElse() throws {
        let setting = try #require(Self.setting)
        #expect(setting.hash.count == Duress.hashLength && setting.rounds == 10)
        for note in ["blue heron", "  BLUE HERON ", "Blue Heron\t"] {
            #expect(Duress.matches(note, setting), "\(note)")
        }
        for note in ["blue  heron", "blueheron", "blue heron.", "", "Blue Hero"] {
            #expect(!Duress.matches(note, setting), "\(note)")
        }
        // The hash is PBKDF2-HMAC-SHA-512 of the normalised word, cut to 32 bytes.
        let expected = try PBKDF2.sha512(
            password: Array("blue heron".utf8), salt: Array(0..<16), iterations: 10, length: 32)
        #expect(setting.hash == expected)
        // Another salt, another hash: the same word set twice is not recognisable as such.
        #expect(Duress.setting(word: "blue heron", salt: Array(1...16), rounds: 10)?.hash != setting.hash)
    }

    @Test func aWordMustBeLongEnoughAndPlainText() {
        #expect(Duress.problem(withWord: " abc ") != nil)
        #expect(Duress.problem(withWord: "ab\ncd") != nil)
        #expect(Duress.problem(withWord: "abcd") == nil)
    }

    static func state() throws -> DuressState {
        var state = DuressState(setting: Self.setting, leftOut: ["tom-id"])
        state.raise(
            at: Timestamp(seconds: 1_000), device: "dev-1",
            targets: [
                Duress.Target(
                    contact: "sam-id", name: "Sam", member: false,
                    channels: ["mailto:sam@example.org", "ntfy:https://n/t"]),
                Duress.Target(contact: "ana-id", name: "Ana", member: true, channels: ["https://hook.example.org/a"]),
            ])
        return state
    }

    @Test func theBinaryFormRoundTripsAndNamesNoAddress() throws {
        var state = try Self.state()
        state.sends[0].sent = Timestamp(seconds: 1_010)
        state.sends[1].tries = 3
        state.sends[2].claimedUntil = Timestamp(seconds: 1_200)
        let bytes = state.encoded()
        #expect(try DuressState(decoding: bytes) == state)
        let text = String(decoding: bytes, as: UTF8.self)
        for secret in ["sam@example.org", "hook.example.org", "Sam", "Ana", "heron", "duress"] {
            #expect(!text.contains(secret), "\(secret)")
        }
        // Every truncation is refused, never read as less.
        for length in 0..<bytes.count {
            #expect(throws: DuressState.Damaged.self) { try DuressState(decoding: Array(bytes.prefix(length))) }
        }
        var newer = bytes
        newer[4] = 9
        #expect(throws: DuressState.Damaged.newerVersion(9)) { try DuressState(decoding: newer) }
        #expect(throws: DuressState.Damaged.notOurs) { try DuressState(decoding: Array("{}".utf8)) }
    }

    @Test func aClaimKeepsOthersOffUntilItRunsOut() throws {
        var state = try Self.state()
        #expect(state.due(clock: Timestamp(seconds: 5)) == [0, 1, 2])
        state.sends[1].claimedUntil = Timestamp(seconds: 100)
        state.sends[2].sent = Timestamp(seconds: 2)
        #expect(state.due(clock: Timestamp(seconds: 99)) == [0])
        #expect(state.due(clock: Timestamp(seconds: 100)) == [0, 1])
    }

    @Test func clearingTellsOnlyThoseReachedAndDropsWhatWasNotSent() throws {
        var state = try Self.state()
        #expect(state.alarmInForce)
        state.sends[0].sent = Timestamp(seconds: 1_001)  // Sam by mail
        state.sends[2].claimedUntil = Timestamp(seconds: 1_100)  // Ana, being sent
        let told = state.clear(at: Timestamp(seconds: 2_000), device: "dev-2")
        #expect(told == ["sam-id", "ana-id"])
        #expect(!state.alarmInForce)
        let clears = state.sends.filter { $0.kind == .clear }
        #expect(clears.count == 2)
        #expect(clears.allSatisfy { $0.cause == Timestamp(seconds: 2_000) && $0.alarmAt == Timestamp(seconds: 1_000) })
        // Sam's ntfy message was never sent: it is dropped, and gets no all-clear.
        #expect(state.sends.filter { $0.kind == .alarm }.count == 2)
        #expect(state.clear(at: Timestamp(seconds: 3_000), device: "dev-2").isEmpty, "nothing is cleared twice")
    }

    /// Sam's ntfy topic failed and Sam now has another: the alarm to it moves to his channels
    /// of now, each once (his e-mail already has one), tried from the start; a sent one stays
    /// as it is, and with no channel left nothing is tried.
    @Test func aSendFollowsItsRecipientsNewChannels() throws {
        var state = try Self.state()
        state.sends[0].sent = Timestamp(seconds: 1_010)
        state.sends[1].tries = 4
        state.sends[1].claimedUntil = Timestamp(seconds: 1_200)
        let old = state.sends[1]
        let mail = Duress.fingerprint("mailto:sam@example.org")
        let topic = Duress.fingerprint("ntfy:https://n/sam-new")
        state.follow(old, to: [mail, topic])
        let sam = state.sends.filter { $0.contact == "sam-id" }
        #expect(sam.map(\.channel) == [mail, topic])
        #expect(sam.last?.tries == 0 && sam.last?.claimedUntil == nil && sam.last?.sent == nil)
        #expect(sam.last?.alarmAt == old.alarmAt && sam.last?.kind == .alarm)
        #expect(state.due(clock: Timestamp(seconds: 1_100)).map { state.sends[$0].channel }.contains(topic))
        state.follow(state.sends[0], to: [])
        #expect(state.sends.contains { $0.channel == mail }, "a sent message is not taken back")
        let ana = try #require(state.sends.first { $0.contact == "ana-id" })
        state.follow(ana, to: [])
        #expect(!state.sends.contains { $0.contact == "ana-id" })
    }

    @Test func fingerprintsTellChannelsApart() {
        #expect(Duress.fingerprint("mailto:a@example.org") == Duress.fingerprint("mailto:a@example.org"))
        #expect(Duress.fingerprint("mailto:a@example.org") != Duress.fingerprint("mailto:b@example.org"))
    }
}
