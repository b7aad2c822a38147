import Foundation
import LifeSignalCore
import TestSupport
import Testing

@testable import LifeSignalStore

/// Every file a device writes in the circle carries its signature (Signing.swift): a log's
/// covers its head and, through the hash in it, its tail; feeds and archive segments are signed
/// whole. Any change after signing is found, and the key never leaves the data directory.
@Suite struct SigningTests {
    let directory: String

    init() {
        directory =
            Scratch.root.appendingPathComponent("lifesignal-signing-\(UUID().uuidString)")
            .path
    }

    func write(_ count: Int, start: Int64 = 0) throws {
        _ = try Store.update(
            dataDirectory: directory, lockTimeout: 5, creation: .ifMissing(StoreTests.profile), now: StoreTests.t0
        ) { transaction in
            for i in 0..<count {
                transaction.record(
                    CheckedIn(note: "n\(i)"), at: Timestamp(seconds: StoreTests.t0.seconds + (start + Int64(i)) * 60))
            }
        }
    }

    func published(_ store: Store) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: store.publishedLogPath)))
    }

    func decodeChecked(_ bytes: [UInt8], _ store: Store, stateOnly: Bool) throws -> DeviceLog {
        var log =
            stateOnly
            ? try DeviceLog.decodeState(
                bytes, path: "log.json", member: store.identity.member, device: store.identity.device, backup: nil)
            : try DeviceLog.decode(
                bytes, path: "log.json", member: store.identity.member, device: store.identity.device, backup: nil)
        log.checkSignature(bytes)
        return log
    }

    @Test func aWrittenLogIsSignedByTheDevicesKeyWhichStaysPrivate() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write(3)
        let store = try Store.open(dataDirectory: directory)
        let bytes = try published(store)
        #expect(String(decoding: bytes.prefix(16), as: UTF8.self) == "{\n\"signature\": \"")
        let key = try #require(try store.readDeviceKey())
        for stateOnly in [true, false] {
            let log = try decodeChecked(bytes, store, stateOnly: stateOnly)
            #expect(log.key == key.publicKeyText)
            #expect(log.signature == .valid)
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: store.deviceKeyPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // The seed is nowhere in the circle.
        let seed = KeyText.hex(key.seed)
        let circle = store.circleDirectory
        for file in FileManager.default.enumerator(atPath: circle)?.compactMap({ $0 as? String }) ?? [] {
            let text = (try? String(contentsOfFile: circle + "/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains(seed), "\(file) holds the device's seed")
        }
    }

    @Test func aChangeAnywhereAfterSigningIsFound() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write(3)
        let store = try Store.open(dataDirectory: directory)
        let bytes = try published(store)
        let text = String(decoding: bytes, as: UTF8.self)
        // The head: the last check-in's note in the state.
        let head = Array(text.replacingOccurrences(of: "\"note\":\"n2\"", with: "\"note\":\"n9\"").utf8)
        #expect(head != bytes)
        if case .invalid? = try decodeChecked(head, store, stateOnly: true).signature {
        } else {
            Issue.record("an edited head verified")
        }
        // The tail: an event's note, which a reader of the state alone does not decode.
        let events = try #require(text.range(of: "\"events\": ["))
        let tail =
            text[..<events.upperBound]
            + text[events.upperBound...].replacingOccurrences(of: "\"note\":\"n1\"", with: "\"note\":\"n8\"")
        let edited = Array(tail.utf8)
        #expect(edited != bytes)
        #expect(try decodeChecked(edited, store, stateOnly: true).signature == .valid)
        if case .invalid? = try decodeChecked(edited, store, stateOnly: false).signature {
        } else {
            Issue.record("an edited tail verified")
        }
        // A log re-laid out (the same JSON written by another program) is not signed as read.
        let relaid = Array(text.replacingOccurrences(of: ",\n\"lastSeq\"", with: ", \"lastSeq\"").utf8)
        if case .invalid? = try decodeChecked(relaid, store, stateOnly: true).signature {
        } else {
            Issue.record("a re-laid-out log verified")
        }
    }

    @Test func segmentsAndFeedsAreSignedAndCheckedWhereTheyAreRead() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write(DeviceLog.tailLimit + 1)
        let store = try Store.open(dataDirectory: directory)
        let key = try #require(try store.readDeviceKey())
        let archive = store.publishedDirectory + "/archive"
        let names = try FileManager.default.contentsOfDirectory(atPath: archive)
        #expect(names.count == 1)
        let segment = [UInt8](try Data(contentsOf: URL(fileURLWithPath: archive + "/" + names[0])))
        #expect(Signing.problem(segment, domain: .segment, publicKey: key.publicKeyText) == nil)
        // Signed for one kind of file, it is no signature for another.
        #expect(Signing.problem(segment, domain: .feed, publicKey: key.publicKeyText) != nil)
        let parsed = try #require(ArchiveSegment(fileName: names[0]))
        var edited = segment
        if let i = edited.lastIndex(of: UInt8(ascii: "n")) { edited[i] = UInt8(ascii: "m") }
        #expect(throws: StoreError.self) {
            try parsed.decode(
                edited, path: "s", member: store.identity.member, device: store.identity.device,
                key: key.publicKeyText)
        }
        let feed = FeedFile.encode(Feed(), signer: key)
        #expect(Signing.problem(feed, domain: .feed, publicKey: key.publicKeyText) == nil)
        #expect(try FeedFile.decode(feed, path: "feed.json", backup: nil) == Feed())
    }

    @Test func aKeyThatIsGoneOrChangedIsAnErrorNeverANewKeyInSilence() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write(1)
        let store = try Store.open(dataDirectory: directory)
        let saved = try Data(contentsOf: URL(fileURLWithPath: store.deviceKeyPath))
        try FileManager.default.removeItem(atPath: store.deviceKeyPath)
        #expect(
            performing: { try write(1, start: 1) },
            throws: { error in
                guard case .deviceKey(_, let problem)? = error as? StoreError else { return false }
                return problem.contains("is missing")
            })
        try Data(#"{"schemaVersion": 1, "seed": "\#(String(repeating: "07", count: 32))"}"#.utf8).write(
            to: URL(fileURLWithPath: store.deviceKeyPath))
        #expect(
            performing: { try write(1, start: 1) },
            throws: { error in
                guard case .deviceKey(_, let problem)? = error as? StoreError else { return false }
                return problem.contains("is not the key this device's records are signed with")
            })
        try saved.write(to: URL(fileURLWithPath: store.deviceKeyPath))
        try write(1, start: 1)
    }

    @Test func anUnsignedLogOfAnOlderLifesignalIsSignedWithItsArchiveOnTheNextWrite() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write(DeviceLog.tailLimit + 1)
        let store = try Store.open(dataDirectory: directory)
        // As an older lifesignal left it: no key, nothing signed.
        var key = Posix.FileKey.missing
        let own = try #require(try store.readOwnLog(key: &key).log)
        var legacy = own
        legacy.key = nil
        let unsigned = legacy.encoded(signer: nil)
        for path in [store.ownLogPath, store.publishedLogPath] {
            try Data(unsigned).write(to: URL(fileURLWithPath: path))
        }
        for folder in [store.ownArchiveDirectory, store.publishedDirectory + "/archive"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                let path = folder + "/" + name
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                try Data(Signing.unsigned(bytes)).write(to: URL(fileURLWithPath: path))
            }
        }
        try FileManager.default.removeItem(atPath: store.deviceKeyPath)
        try write(1, start: 500)
        let made = try #require(try store.readDeviceKey())
        let log = try decodeChecked(try published(store), store, stateOnly: false)
        #expect(log.key == made.publicKeyText)
        #expect(log.signature == .valid)
        #expect(log.lastSeq == own.lastSeq + 1)
        let archive = store.publishedDirectory + "/archive"
        for name in try FileManager.default.contentsOfDirectory(atPath: archive) {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: archive + "/" + name)))
            #expect(Signing.problem(bytes, domain: .segment, publicKey: made.publicKeyText) == nil)
        }
        let read = try store.readMember()
        let history = try store.checkIns(of: store.identity.member, in: read, limit: nil, since: nil)
        #expect(history.checkIns.count == DeviceLog.tailLimit + 2)
    }

    /// Where the signed head ends: the first `,` newline `"events": [` at a line's start, found
    /// wherever it lies (first byte, last place it fits, after near misses), and nothing when
    /// it is not there or the file does not end as a log does. Checked against a plain search.
    @Test func theHeadEndsAtTheFirstEventsLine() {
        func plain(_ bytes: [UInt8]) -> Int? {
            let marker = Array(",\n\"events\": [".utf8)
            guard bytes.count > 64, bytes.suffix(4).elementsEqual(Array("]\n}\n".utf8)) else { return nil }
            return (0...(bytes.count - marker.count)).first { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }
        }
        let padding = String(repeating: "x", count: 70)
        let cases = [
            ",\n\"events\": [\n]\n}\n" + padding + "]\n}\n",
            "{\n\"state\": {\"a\": \"\(padding)\"},\n\"events\": [\n]\n}\n",
            "{\n\"a\": 1,\n\"event\": [,\n\"events\" [\n\n,\n\"events\": [\n  {}\n]\n}\n,\n\"events\": [\n]\n}\n\(padding)]\n}\n",
            "{\n\(padding)\n\n\n,\n\"events\": []\n}\n",
            "{\n\(padding),\n\"events\": ]\n}\n",
            "{\n\(padding),\n\"events\": [\n]\n}",
            "\(padding),\n\"events\": [",
            "",
        ]
        for text in cases {
            let bytes = Array(text.utf8)
            #expect(DeviceLog.stateEnd(in: bytes) == plain(bytes), "\(text.debugDescription)")
        }
        #expect(DeviceLog.stateEnd(in: Array(cases[1].utf8)) == cases[1].utf8.count - 18)
    }
}
