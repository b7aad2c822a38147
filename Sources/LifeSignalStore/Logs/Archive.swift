import LifeSignalCore

/// Archiving and history: how a device's older events leave its log for immutable segments in
/// `archive/` when the log is saved, and how check-in history reads them back, opening only
/// the segments a request needs.

/// An immutable segment of a device's older events: `archive/<first>-<last>-<newest time>.json`.
/// The name carries the sequence range and the newest time in it, so history can pick the
/// segments it needs without opening the others.
public struct ArchiveSegment: Equatable, Sendable {
    public var firstSeq: Int64
    public var lastSeq: Int64
    public var newest: Timestamp

    public var fileName: String { "\(pad(firstSeq))-\(pad(lastSeq))-\(newest.seconds).json" }

    init(firstSeq: Int64, lastSeq: Int64, newest: Timestamp) {
        self.firstSeq = firstSeq
        self.lastSeq = lastSeq
        self.newest = newest
    }

    /// Reads a segment's range back from its file name; nil for names that are not segments.
    init?(fileName: String) {
        guard fileName.hasSuffix(".json") else { return nil }
        let parts = fileName.dropLast(5).split(separator: "-")
        guard parts.count == 3, let first = Int64(parts[0]), let last = Int64(parts[1]), let newest = Int64(parts[2]),
            first > 0, last >= first
        else { return nil }
        self.init(firstSeq: first, lastSeq: last, newest: Timestamp(seconds: newest))
    }

    private func pad(_ n: Int64) -> String {
        let s = String(n)
        return s.count >= 12 ? s : String(repeating: "0", count: 12 - s.count) + s
    }

    /// The segment's text, on one line. Events of types this version does not know go in as
    /// they were read.
    static func encode(_ events: [Event], member: String, device: String, signer: SigningKey?) -> [UInt8] {
        var out = JSONRecordWriter(capacity: 256 + events.count * 160)
        out.open()
        out.rawField("schemaVersion", JSON.int(DeviceLog.schemaVersion).serializedBytes(pretty: false))
        out.rawField("member", JSON.string(member).serializedBytes(pretty: false))
        out.rawField("device", JSON.string(device).serializedBytes(pretty: false))
        out.key("events")
        out.bytes.append(UInt8(ascii: "["))
        for (i, event) in events.enumerated() {
            if i > 0 { out.bytes.append(UInt8(ascii: ",")) }
            out.event(event)
        }
        out.bytes.append(UInt8(ascii: "]"))
        out.close()
        out.bytes.append(0x0A)
        return signer.map { Signing.sign(out.bytes, domain: .segment, key: $0) } ?? out.bytes
    }

    /// The segment's events. `key` is the public key of the device that wrote it, when that
    /// device signs: a segment not signed by it is not believed.
    func decode(_ bytes: [UInt8], path: String, member: String, device: String, key: String?) throws(StoreError)
        -> [Event]
    {
        if let key, let problem = Signing.problem(bytes, domain: .segment, publicKey: key) {
            throw .damaged(
                path: path, problem: "\(problem), so it is not believed to be device \(device)'s", backup: nil)
        }
        return try Files.object(bytes, path: path, backup: nil, supported: DeviceLog.schemaVersion) {
            o throws(JSONShapeError) in
            guard try o.required("member").string() == member, try o.required("device").string() == device else {
                throw JSONShapeError(path: "member", message: "belongs to another member or device than its folder")
            }
            let events = try Files.events(o.required("events"), in: bytes)
            guard events.first?.seq == firstSeq, events.last?.seq == lastSeq else {
                throw JSONShapeError(
                    path: "events", message: "does not hold events \(firstSeq)–\(lastSeq) as its name says")
            }
            return events
        }
    }
}

extension Store {
    /// Where a device's segments are read from, in order: this device's from its private
    /// folder, then from its copy in the circle (which holds what a lost private file held);
    /// everyone else's from the circle. A folder that is a link is not read.
    func archiveDirectories(member: String, device: String) -> [String] {
        let published = Paths.join(deviceDirectory(member: member, device: device), "archive")
        let folders = isOwn(member: member, device: device) ? [ownArchiveDirectory, published] : [published]
        return folders.filter { !Posix.exists($0) || Posix.isRealDirectory($0) }
    }

    /// Moves old events to an archive segment when the tail is long, then replaces log.json:
    /// each file first in the private folder (durably), then published in the circle. The
    /// segment is written first: a crash in between leaves a segment past `archivedThrough`,
    /// which readers ignore and the next save rewrites.
    func save(_ log: inout DeviceLog, hadValidFile: Bool, signer: SigningKey, unpublished: inout StoreError?)
        throws(StoreError)
    {
        let archive = ownArchiveDirectory
        if log.events.count > DeviceLog.tailLimit {
            // A segment starting past `archivedThrough` was left by a save that crashed before
            // replacing log.json; its events are still in the tail. Rewriting it by name is not
            // enough: when this save records a different number of events, its segment is cut
            // differently, and once `archivedThrough` passes the old one history would list
            // its events twice. Readers ignore it today, so removing it is safe.
            for directory in [archive, Paths.join(publishedDirectory, "archive")] {
                for name in (try? Posix.list(directory)) ?? [] {
                    if let segment = ArchiveSegment(fileName: name), segment.firstSeq > log.archivedThrough {
                        Posix.remove(Paths.join(directory, name))
                    }
                }
            }
        }
        while log.events.count > DeviceLog.tailLimit {
            let moving = Array(log.events.prefix(min(log.events.count - DeviceLog.tailKeep, DeviceLog.tailLimit)))
            guard let first = moving.first, let last = moving.last else { break }
            let newest = moving.map(\.at).max() ?? last.at
            let segment = ArchiveSegment(firstSeq: first.seq, lastSeq: last.seq, newest: newest)
            do {
                try Posix.makeDirectories(archive)
            } catch {
                throw error.asCreateError
            }
            let bytes = ArchiveSegment.encode(moving, member: log.member, device: log.device, signer: signer)
            try Store.write(bytes, to: Paths.join(archive, segment.fileName), backup: false)
            publish(bytes, as: "archive/" + segment.fileName, failure: &unpublished)
            log.events.removeFirst(moving.count)
            log.archivedThrough = last.seq
        }
        log.key = signer.publicKeyText
        let bytes = log.encoded(signer: signer)
        try Store.write(bytes, to: ownLogPath, backup: hadValidFile)
        // Not past a segment the circle could not take: its log stays older, so the next write
        // publishes the missing segments with it.
        if unpublished == nil { publish(bytes, as: "log.json", failure: &unpublished) }
    }

    /// Signs this device's archive segments with `signer` (they were written by an older
    /// lifesignal, or signed with a key this device no longer holds), privately and in the circle.
    func signSegments(with signer: SigningKey, unpublished: inout StoreError?) throws(StoreError) {
        let names: [String]
        do {
            names = try Posix.list(ownArchiveDirectory) ?? []
        } catch {
            throw error.asReadError(backup: nil)
        }
        for name in names where ArchiveSegment(fileName: name) != nil {
            let path = Paths.join(ownArchiveDirectory, name)
            let bytes = Signing.sign(Signing.unsigned(try Files.read(path)), domain: .segment, key: signer)
            try Store.write(bytes, to: path, backup: false)
            publish(bytes, as: "archive/" + name, failure: &unpublished)
        }
    }

    /// A device's archived events that no segment holds any more, in this copy or the
    /// circle's: history before them is incomplete, and says so.
    public struct Gap: Equatable, Sendable {
        public var directory: String
        public var firstSeq: Int64
        public var lastSeq: Int64
    }

    /// The member's check-ins, newest first, at or after `since`, at most `limit` of them, and
    /// the gaps in their archives. Reads the archive segments only as far back as the request
    /// needs.
    public func checkIns(
        of member: String, in read: CircleRead, limit: Int?, since: Timestamp?, until: Timestamp? = nil
    ) throws(StoreError) -> (checkIns: [MemberState.CheckIn], gaps: [Gap]) {
        var found: [MemberState.CheckIn] = []
        func take(_ events: [Event], device: String) {
            for event in events {
                guard let checkIn = event.body as? CheckedIn, since.map({ event.at >= $0 }) ?? true,
                    until.map({ event.at < $0 }) ?? true
                else { continue }
                found.append(MemberState.CheckIn(stamp: event.stamp(device: device), note: checkIn.note))
            }
        }
        let logs = read.logs.filter { $0.member == member }
        for log in logs { take(log.events, device: log.device) }
        let (segments, gaps) = try self.segments(of: logs)
        for (log, segment, path) in segments {
            if let since, segment.newest < since { break }
            if let limit, limit > 0, found.count >= limit {
                // Nothing older than the last one shown can be shown, nor an earlier event of its
                // device in the same second (its clock and sequence are lower).
                let last = found.sorted { Stamp.earlierInTime($1.stamp, $0.stamp) }[limit - 1].stamp
                if segment.newest < last.at { break }
                if segment.newest == last.at, last.device == log.device, segment.lastSeq < last.seq { continue }
            }
            let bytes = try Files.read(path)
            // This device's own private segments are its own; every copy in the circle is checked.
            let key = path.hasPrefix(ownArchiveDirectory) ? nil : log.key
            take(
                try segment.decode(bytes, path: path, member: member, device: log.device, key: key), device: log.device)
        }
        found.sort { Stamp.earlierInTime($1.stamp, $0.stamp) }
        if let limit, found.count > limit { found.removeLast(found.count - max(limit, 0)) }
        return (found, gaps)
    }

    /// The archive segments of `logs`, newest first, each where it is read from, and the
    /// archived events no segment holds.
    private func segments(of logs: [DeviceLog]) throws(StoreError) -> (
        [(log: DeviceLog, segment: ArchiveSegment, path: String)], [Gap]
    ) {
        var segments: [(log: DeviceLog, segment: ArchiveSegment, path: String)] = []
        var gaps: [Gap] = []
        for log in logs {
            var found: [String: (segment: ArchiveSegment, path: String)] = [:]
            let directories = archiveDirectories(member: log.member, device: log.device)
            for directory in directories {
                let names: [String]
                do {
                    names = try Posix.list(directory) ?? []
                } catch {
                    throw error.asReadError(backup: nil)
                }
                // A segment past `archivedThrough` was left by a crash before the log was
                // rewritten; its events are still in the log's tail.
                for name in names where found[name] == nil {
                    if let segment = ArchiveSegment(fileName: name), segment.lastSeq <= log.archivedThrough {
                        found[name] = (segment, Paths.join(directory, name))
                    }
                }
            }
            var next: Int64 = 1
            for (segment, _) in found.values.sorted(by: { $0.segment.firstSeq < $1.segment.firstSeq }) {
                if segment.firstSeq > next {
                    gaps.append(Gap(directory: directories.first ?? "", firstSeq: next, lastSeq: segment.firstSeq - 1))
                }
                next = max(next, segment.lastSeq + 1)
            }
            if next <= log.archivedThrough {
                gaps.append(Gap(directory: directories.first ?? "", firstSeq: next, lastSeq: log.archivedThrough))
            }
            segments += found.values.map { (log, $0.segment, $0.path) }
        }
        segments.sort { $0.segment.newest > $1.segment.newest }
        return (segments, gaps)
    }
}
