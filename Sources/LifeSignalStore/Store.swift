import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A data directory opened for reading: its identity and where its files are. Reads need no
/// lock, because every file is replaced atomically.
///
/// What a store does is split by responsibility: Identity.swift (which member and device this
/// directory is), CircleRead.swift (reading the circle), Transaction.swift (a locked write),
/// Archive.swift (archive segments and history), FeedFile.swift (the feed), CircleCache.swift
/// (the private read cache), Files.swift (parsing and crash-safe replacement).
public struct Store: Sendable {
    public let dataDirectory: String
    public let identity: Identity

    public var circleDirectory: String { identity.circle ?? Paths.join(dataDirectory, "circle") }
    public var identityPath: String { Store.identityPath(dataDirectory) }

    static func lockPath(_ dataDirectory: String) -> String { DataFile.lock.path(in: dataDirectory) }

    public func memberDirectory(_ member: String) -> String { Paths.join(circleDirectory, "members", member) }

    /// How records are written in the circle. Private (0700 folders, 0600 files) unless the
    /// circle folder itself grants its group access — a circle shared between the accounts of
    /// one machine, set up with e.g. `install -d -m 2750 -g family DIR` — in which case folders
    /// take the circle's group bits and files are group-readable, so the family can read each
    /// other's records. Only the owner ever writes them; nothing outside the circle changes.
    public var sharing: (directories: mode_t, files: mode_t) {
        guard let mode = Posix.directoryMode(circleDirectory), mode & 0o040 != 0 else { return (0o700, 0o600) }
        return (0o700 | (mode & 0o2070), 0o640)
    }
    /// Whether another account of this machine can write the circle folder (its group or
    /// anyone may): then one could put an older copy of someone's records back.
    public var circleWritableByOthers: Bool { Posix.directoryMode(circleDirectory).map { $0 & 0o022 != 0 } ?? false }
    public func deviceDirectory(member: String, device: String) -> String {
        Paths.join(memberDirectory(member), device)
    }
    public func logPath(member: String, device: String) -> String {
        Paths.join(deviceDirectory(member: member, device: device), "log.json")
    }
}

extension Store {
    /// Runs `body` holding this data directory's lock: what a circle sync does while it moves
    /// files, so that no check-in is written in between.
    public static func holdingLock<T>(dataDirectory: String, timeout: Int, _ body: () -> T) throws(StoreError) -> T {
        let lock: FileLock
        do {
            lock = try FileLock.acquire(lockPath(dataDirectory), timeout: timeout)
        } catch let busy as FileLock.Busy {
            throw StoreError.lockBusy(path: busy.path, waitedSeconds: busy.waitedSeconds)
        } catch {
            throw StoreError.io(path: lockPath(dataDirectory), operation: "lock", reason: "\(error)")
        }
        defer { lock.release() }
        return body()
    }

    /// Why a write here would fail, or nil when it would not: what every write does first —
    /// open the lock file, make a temporary file in the data directory's private folder and
    /// in this device's folder of the circle — tried and undone. (`doctor`: a read-only data
    /// directory must fail the checkup, not only the next check-in.)
    public func writeProblem() -> StoreError? {
        if let problem = Posix.openingForWriting(Store.lockPath(dataDirectory)) { return problem.asIOError }
        for directory in [ownDirectory, publishedDirectory] where Posix.isDirectory(directory) {
            let probe = Paths.join(directory, ".doctor.tmp.\(getpid())")
            do {
                try Posix.replace(probe, with: [], durable: false)
            } catch {
                return error.asCreateError
            }
            Posix.remove(probe)
        }
        return nil
    }

    /// This device's folder in the circle, relative to the circle: what only it writes.
    public var ownRelativePath: String { "members/\(identity.member)/\(identity.device)" }
}
