import LifeSignalCore

/// Bringing the cache up to date by reading only what changed: the cost of a run after one
/// member checked in is one log, not the whole circle.
///
/// A log only grows: each version's state is the state of the one before with later facts
/// merged in, and merging is taking the latest of each fact, so merging a log's new state into
/// everyone's merged state gives what merging every log again would — except for check-in
/// counts, which add up across devices, so the log's count as cached is taken off again. The
/// cache entry of each log holds its last sequence number and that count.
///
/// Anything that is not growth is left to a full read, which also says what is wrong: a log
/// or folder that went away, a log whose sequence went back (a sync rolled it back) or stayed
/// while its text changed, one that cannot be read or holds records of a newer lifesignal, or
/// a changed own file.
extension Store {
    /// `cache` with every changed folder listed again and every changed log read again and
    /// merged in; nil when only a full read can tell (an error on the way is for the full
    /// read to report).
    func refreshed(_ cache: CircleCache, exceptOwn: Bool) -> CircleCache? {
        guard cache.coversTrust else { return nil }
        var cache = cache
        cache.seen = TrustMemory.load(dataDirectory).members
        var entries: [String: CircleCache.Entry] = [:]
        var own: [CircleCache.Entry] = []
        for entry in cache.entries {
            if entry.path.hasPrefix(cache.ownPrefix) || entry.path.hasPrefix("/") {
                // A writer reads its own log itself; a reader leaves a changed own file (a
                // rolled-back publication, another writer) to the full read.
                if !exceptOwn, Posix.key(cache.location(entry.path)) != entry.key { return nil }
                own.append(entry)
            } else {
                entries[entry.path] = entry
            }
        }
        // The names the cache knows in each folder: `members` and each member's folder.
        var children: [String: [String]] = [:]
        for path in entries.keys {
            let parts = path.split(separator: "/")
            if parts.count == 2 { children["members", default: []].append(String(parts[1])) }
            if parts.count == 4 { children["members/\(parts[1])", default: []].append(String(parts[2])) }
        }
        var fresh: [CircleCache.Entry] = []
        guard entries["members"] != nil,
            let members = listing("members", cached: entries, known: children["members"] ?? [], fresh: &fresh)
        else { return nil }
        for member in members {
            let folder = "members/\(member)"
            guard let devices = listing(folder, cached: entries, known: children[folder] ?? [], fresh: &fresh)
            else { return nil }
            for device in devices where !isOwn(member: member, device: device) {
                guard
                    let entry = refreshLog(
                        member: member, device: device, cached: entries["\(folder)/\(device)/log.json"],
                        into: &cache)
                else { return nil }
                fresh.append(entry)
            }
        }
        cache.entries = fresh + own
        cache.seen = [:]
        return cache.coversTrust ? cache : nil
    }

    /// The valid names in a folder of the circle: as the cache knows them when its key is
    /// unchanged, else listed again — nil when a name the cache knew is gone.
    private func listing(
        _ relative: String, cached: [String: CircleCache.Entry], known: [String], fresh: inout [CircleCache.Entry]
    ) -> [String]? {
        let key = Posix.key(Paths.join(circleDirectory, relative))
        guard key != .missing else { return nil }
        fresh.append(CircleCache.Entry(path: relative, key: key))
        if key == cached[relative]?.key { return known }
        // Anything but folders (a link put there) is for the full read to report.
        guard let listed = try? folders(in: Paths.join(circleDirectory, relative)), listed.refused.isEmpty else {
            return nil
        }
        let names = listed.names
        let present = Set(names)
        guard known.allSatisfy({ present.contains($0) }) else { return nil }
        return names
    }

    /// Another device's log entry, read again and merged into `cache.others` when its key
    /// changed; nil when the change is not growth.
    private func refreshLog(member: String, device: String, cached: CircleCache.Entry?, into cache: inout CircleCache)
        -> CircleCache.Entry?
    {
        if let cached, Posix.key(logPath(member: member, device: device)) == cached.key { return cached }
        // A log that held records of a newer lifesignal: its warning is the full read's to redo.
        if cache.unknown.contains(where: { $0.member == member && $0.device == device })
            || cache.foreign.contains(where: { $0.member == member && $0.device == device })
        {
            return nil
        }
        var key = Posix.FileKey.missing
        let read: (log: DeviceLog, bytes: [UInt8])?
        do {
            read = try readLogFile(member: member, device: device, key: &key, stateOnly: true)
        } catch {
            return nil
        }
        guard var log = read?.log, let bytes = read?.bytes else {
            // None there: fine for a new device that has not written yet, not for one that had.
            return (cached?.seq ?? 0) == 0 ? CircleCache.Entry(logOf: member, device: device, key: key, log: nil) : nil
        }
        switch refreshTrust(&log, bytes: bytes, in: cache) {
        case .fullRead: return nil
        case .keep(let problem):
            // The entry keeps its old key: every run checks the file again, and says so.
            guard let cached else { return nil }
            cache.rejected.append(.init(member: member, device: device, standing: .badSignature(problem)))
            return cached
        case .rolledBack(let seq, let verified):
            guard let cached else { return nil }
            cache.rejected.append(
                .init(member: member, device: device, standing: .rolledBack(seq: seq, verified: verified)))
            return cached
        case .fold:
            // Fewer records than verified here before: a sync or the git host put an older copy
            // back (which could undo a revocation or an alert). What was verified stands.
            if let cached, log.lastSeq < cached.seq, cache.speakers[member]?.devices[device]?.counts ?? false {
                cache.rejected.append(
                    .init(member: member, device: device, standing: .rolledBack(seq: log.lastSeq, verified: cached.seq))
                )
                return cached
            }
        }
        // Growth means new events: a log rewritten at the same sequence (edited by hand, by a
        // peer's bug) or an older one is not, and a full read takes it as it now is.
        guard log.unknownRecords == nil, log.foreign == nil, cached.map({ log.lastSeq > $0.seq }) ?? true,
            log.state.members.allSatisfy({ $0.key == member || $0.value.checkInCount == 0 })
        else { return nil }
        let before = cache.others.members[member]?.checkInCount ?? 0
        guard before < Int64.max - log.memberState.checkInCount else { return nil }
        cache.others.merge(log.state)
        cache.others.members[member]?.checkInCount = before + log.memberState.checkInCount - (cached?.count ?? 0)
        cache.othersClock = max(cache.othersClock, log.clock)
        cache.learn(log)
        return CircleCache.Entry(logOf: member, device: device, key: key, log: log)
    }
}
