import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a device's log back (see DeviceLog.swift for its layout): the whole file or only
/// its head, the checks of its header and sequence, and of its signature.
extension DeviceLog {
    /// Checks the signature of the log read from `bytes` (and, when its events were decoded,
    /// the hash of its tail) against the key its header names.
    mutating func checkSignature(_ bytes: [UInt8]) {
        guard let key else {
            signature = Signing.isSigned(bytes) ? .invalid("it is signed but names no key") : .unsigned
            return
        }
        guard let cut = Self.stateEnd(in: bytes) else {
            signature = .invalid("it is not laid out as lifesignal signs a log")
            return
        }
        if let problem = Signing.problem(bytes, domain: .log, publicKey: key, signedEnd: cut) {
            signature = .invalid(problem)
        } else if hasEvents, tail != Signing.hash(bytes[cut...]) {
            signature = .invalid("its events are not the ones its signed head names (changed since it was signed)")
        } else {
            signature = .valid
        }
    }

    /// Parses and checks a log file read from `path`, which must belong to `member`/`device`.
    /// With `member` and `device` nil (a private copy, which lies in no member's folder), the
    /// file names them itself.
    static func decode(
        _ bytes: [UInt8], path: String, member: String?, device: String?, backup: String?, events: Bool = true
    ) throws(StoreError) -> DeviceLog {
        let root = try Files.parse(bytes, path: path, backup: backup, supported: schemaVersion)
        do throws(JSONShapeError) {
            let o = try JSONCursor(root).object()
            var log = try header(o, member: member, device: device)
            let state = try JSONRecordReader.state(o.required("state"), member: log.member, device: log.device)
            let attributed = state.state.attributed(to: log.member)
            log.state = attributed.state
            if var foreign = attributed.foreign {
                foreign.member = log.member
                foreign.device = log.device
                log.foreign = foreign
            }
            if !state.unknownKeys.isEmpty {
                log.keptState = Files.rawFields(state.unknownKeys, under: "state", in: bytes, parsed: o)
            }
            log.hasEvents = events
            if events {
                log.events = try Files.events(o.required("events"), in: bytes)
                try log.checkSequence()
                log.tail = try o.optional("tail")?.string()
            }
            return log
        } catch {
            throw .damaged(path: path, problem: "at \(error.path): \(error.message)", backup: backup)
        }
    }

    /// The log's header and state, without decoding its tail of events: what a reader of the
    /// circle's state needs (the state is the fold of every event), at a cost that does not
    /// grow with the tail. `events` stays empty.
    ///
    /// It takes the text before the top-level `"events"` line that `encoded()` writes, and
    /// checks that the file still ends as written (a cut-off copy is read in full, and so
    /// reported). Anything else — another layout, a log written by a newer lifesignal (whose
    /// tail may hold records to warn about), a prefix that does not parse — is read in full,
    /// so a damaged file is reported exactly as before.
    static func decodeState(_ bytes: [UInt8], path: String, member: String, device: String, backup: String?)
        throws(StoreError) -> DeviceLog
    {
        guard let cut = stateEnd(in: bytes),
            let log = try? decode(
                Array(bytes[..<cut]) + Array("\n}\n".utf8), path: path, member: member,
                device: device, backup: backup, events: false),
            Release.isNotNewer(log.writer)
        else {
            return try decode(bytes, path: path, member: member, device: device, backup: backup)
        }
        return log
    }

    /// Where the text before `,\n"events": [` ends, when the file also ends as `encoded()`
    /// ends it. A newline cannot occur inside a JSON string, so the marker at a line's start is
    /// the top-level key.
    ///
    /// Only the line breaks are visited (memchr): the state is one line, tens of KiB in a large
    /// circle, which a byte-by-byte search read through on every check of a signature.
    static func stateEnd(in bytes: [UInt8]) -> Int? {
        let ending = Array("]\n}\n".utf8)
        guard bytes.count > 64, bytes.suffix(ending.count).elementsEqual(ending) else { return nil }
        let marker = Array(",\n\"events\": [".utf8)
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            // Where the marker may start, from `i` to `last`: a line break one byte further on.
            var i = 0
            let last = buffer.count - marker.count
            while i <= last {
                guard let newline = memchr(base + i + 1, Int32(UInt8(ascii: "\n")), last - i + 1) else { return nil }
                i = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) - 1
                if memcmp(base + i, marker, marker.count) == 0 { return i }
                i += 1
            }
            return nil
        }
    }

    /// The fields before the state, checked against the folder the file lies in.
    private static func header(_ o: JSONObjectCursor, member: String?, device: String?) throws(JSONShapeError)
        -> DeviceLog
    {
        try Files.checkVersion(o)
        let memberCursor = try o.required("member")
        let deviceCursor = try o.required("device")
        var log = DeviceLog(member: try memberCursor.string(), device: try deviceCursor.string())
        guard Identifier.isValid(log.member) else { throw memberCursor.fail("is not a lifesignal id") }
        guard Identifier.isValid(log.device) else { throw deviceCursor.fail("is not a lifesignal id") }
        guard log.member == member ?? log.member, log.device == device ?? log.device else {
            throw JSONShapeError(
                path: "member",
                message:
                    "names member \(log.member) device \(log.device) but the file lies in the folder of member \(member ?? "") device \(device ?? "")"
            )
        }
        log.writer = try o.optional("writer")?.string()
        if let keyCursor = o.optional("key") {
            let key = try keyCursor.string()
            guard KeyText.isPublicKey(key) else {
                throw keyCursor.fail("must be a public key (64 lowercase hex digits)")
            }
            log.key = key
        }
        log.lastSeq = try o.required("lastSeq").int()
        log.archivedThrough = try o.required("archivedThrough").int()
        let clockCursor = try o.required("clock")
        log.clock = try clockCursor.int()
        // Every write counts on from the highest clock in the circle: one log's clock
        // at the top of Int64 must not stop every device from checking in.
        guard (0...Limits.counter).contains(log.clock) else {
            throw clockCursor.fail("must be from 0 to \(Limits.counter)")
        }
        return log
    }

    /// The events follow `archivedThrough` in order, within the log's clock, up to `lastSeq`.
    private func checkSequence() throws(JSONShapeError) {
        var previous = archivedThrough
        for (i, event) in events.enumerated() {
            guard event.seq > previous else {
                throw JSONShapeError(path: "events[\(i)].seq", message: "\(event.seq) does not follow \(previous)")
            }
            previous = event.seq
            guard event.clock <= clock else {
                throw JSONShapeError(
                    path: "events[\(i)].clock", message: "\(event.clock) is above the log's clock \(clock)")
            }
        }
        guard (0...Limits.counter).contains(archivedThrough) else {
            throw JSONShapeError(path: "archivedThrough", message: "must be from 0 to \(Limits.counter)")
        }
        guard lastSeq == (events.last?.seq ?? archivedThrough) else {
            throw JSONShapeError(path: "lastSeq", message: "\(lastSeq) does not match the events the file holds")
        }
    }
}

extension Store {
    /// A device's log, or nil when that device has not written one yet.
    public func readLog(member: String, device: String) throws(StoreError) -> DeviceLog? {
        var key = Posix.FileKey.missing
        return try readLog(member: member, device: device, key: &key)
    }

    /// With `stateOnly`, the log's tail of events is not decoded (see `DeviceLog.decodeState`).
    /// With `checked`, its signature is checked too (see `DeviceLog.signature`).
    func readLog(
        member: String, device: String, key: inout Posix.FileKey, stateOnly: Bool = false, checked: Bool = false
    ) throws(StoreError) -> DeviceLog? {
        guard let (log, bytes) = try readLogFile(member: member, device: device, key: &key, stateOnly: stateOnly)
        else { return nil }
        guard checked else { return log }
        var signed = log
        signed.checkSignature(bytes)
        return signed
    }

    /// A device's log and the text it was read from, or nil when there is none yet.
    func readLogFile(member: String, device: String, key: inout Posix.FileKey, stateOnly: Bool)
        throws(StoreError) -> (log: DeviceLog, bytes: [UInt8])?
    {
        let path = logPath(member: member, device: device)
        let limit = isOwn(member: member, device: device) ? Posix.fileLimit : ReadBudget.logLimit
        return try Self.readStill(
            path, key: &key,
            reading: { (key: inout Posix.FileKey) throws(StoreError) in
                try readFile(path, key: &key, limit: limit)
            },
            decode: { bytes throws(StoreError) in
                // The backup is looked for only when the log turns out damaged, to be named then.
                let backup = path + ".bak"
                do throws(StoreError) {
                    var log =
                        stateOnly
                        ? try DeviceLog.decodeState(bytes, path: path, member: member, device: device, backup: nil)
                        : try DeviceLog.decode(bytes, path: path, member: member, device: device, backup: nil)
                    if member != identity.member { log.state.keepOwnTaps(of: member) }
                    return (log, bytes)
                } catch .damaged(let path, let problem, nil) where Posix.exists(backup) {
                    throw .damaged(path: path, problem: problem, backup: backup)
                }
            })
    }
}
