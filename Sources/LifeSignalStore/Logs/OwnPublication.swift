import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The copy of this device's records published in the circle (`members/<member>/<device>/`):
/// how it stands against the private copy, and writing it, its folders and its archive
/// segments. The private copy is the durable one (see OwnRecords.swift); a lost publication is
/// published again.
extension Store {
    /// How the published copy of this device's log stands against the private one.
    public enum Publication: Equatable, Sendable {
        case current
        case missing
        /// Holds fewer records (a rollback by a sync engine or a restore).
        case older(publishedSeq: Int64, ownSeq: Int64)
        case damaged(StoreError)
        /// Not a copy of this data directory's records: ahead of the private copy, or differing
        /// from it where both have events (another data directory writes as this device, this
        /// one was restored from an older backup, or someone who can write the circle folder
        /// changed it). A writer publishes its own copy over it; a reader (which holds no lock,
        /// and may have read the private copy just before a writer replaced both) reads again,
        /// then says so.
        case notOurs(publishedSeq: Int64)
        /// The device's folder in the circle is a symbolic link (or a file): nothing is read or
        /// written through it; a writer puts a real folder in its place.
        case notAFolder
    }

    /// Copies a damaged private file to `keptAs` (over an older one) for a person to look at.
    func keepAside(_ damage: OwnDamage) throws(StoreError) {
        guard case .contents(let bytes)? = try? Posix.read(damage.path) else { return }
        try Store.write(bytes, to: damage.keptAs, backup: false)
    }

    /// Compares the published log with the private one (`own`, whose text is `bytes`).
    func publication(of own: DeviceLog, bytes: [UInt8]) -> Publication {
        for folder in [publishedDirectory, Paths.join(publishedDirectory, "archive")]
        where !Posix.isRealDirectory(folder) && Posix.exists(folder) {
            return .notAFolder
        }
        let path = publishedLogPath
        var key = Posix.FileKey.missing
        let read: (log: DeviceLog?, bytes: [UInt8])?
        do throws(StoreError) {
            read = try Self.readStill(
                path, key: &key,
                reading: { (key: inout Posix.FileKey) throws(StoreError) in
                    do throws(SystemError) {
                        return try Posix.read(path, key: &key)
                    } catch {
                        throw error.asReadError(backup: nil)
                    }
                },
                decode: { published throws(StoreError) in
                    Self.same(published, bytes)
                        ? (nil, published)
                        : (
                            try DeviceLog.decode(
                                published, path: path, member: identity.member, device: identity.device, backup: nil),
                            published
                        )
                })
        } catch {
            return .damaged(error)
        }
        guard let read else { return .missing }
        guard let theirs = read.log else { return .current }
        // Older is only a prefix of this history: the same event where both have it. One that
        // differs there was written by another data directory with this device's identity.
        if theirs.lastSeq < own.lastSeq, Self.samePrefix(theirs, own) {
            return .older(publishedSeq: theirs.lastSeq, ownSeq: own.lastSeq)
        }
        return .notOurs(publishedSeq: theirs.lastSeq)
    }

    /// Whether `a` and `b` hold the same bytes: memcmp, which compares the tens of KiB of a log
    /// many bytes at a time (Array's `==` went through them one by one).
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count
            && a.withUnsafeBytes { first in
                b.withUnsafeBytes { second in
                    guard let x = first.baseAddress, let y = second.baseAddress else { return true }
                    return memcmp(x, y, first.count) == 0
                }
            }
    }

    /// Whether `older`'s last event is the one `own` has at that sequence number (true when
    /// `own` no longer holds it in its log: archived events were written here).
    static func samePrefix(_ older: DeviceLog, _ own: DeviceLog) -> Bool {
        guard let theirs = older.events.last, let mine = own.events.first(where: { $0.seq == theirs.seq }) else {
            return true
        }
        return theirs.at == mine.at && theirs.clock == mine.clock
            && type(of: theirs.body).typeName == type(of: mine.body).typeName
    }

    /// Writes `bytes` as the published copy of one of this device's files (not fsync'd: the
    /// private copy is the durable one, and a lost publication is published again). Called
    /// once the private copy is written, so a failure here means "recorded, not published".
    func publish(_ bytes: [UInt8], as relative: String, moving circle: String? = nil) throws(StoreError) {
        do {
            try publishing(bytes, as: relative)
        } catch {
            // A move into `circle` is refused; anything else leaves the circle behind.
            guard let circle else {
                throw StoreError.notPublished(path: error.path, reason: error.reason, privateCopy: ownDirectory)
            }
            throw StoreError.circleRefused(circle: circle, path: error.path, reason: error.reason, cause: error.cause)
        }
    }

    private func publishing(_ bytes: [UInt8], as relative: String) throws(SystemError) {
        let path = Paths.join(publishedDirectory, relative)
        do {
            try makePublishedFolders(Paths.parent(of: path))
            // A segment is written once; a log or feed is replaced over its spare (see `replaceCopy`).
            if relative.hasPrefix("archive/") {
                try Posix.replace(path, with: bytes, durable: false, mode: sharing.files)
            } else {
                try Posix.replaceCopy(path, with: bytes, spare: path + ".bak", mode: sharing.files)
            }
        } catch {
            // The file named, not the temporary file beside it that the write went through.
            guard Paths.parent(of: error.path) == Paths.parent(of: path) else { throw error }
            throw SystemError(operation: error.operation, path: path, code: error.code)
        }
    }

    /// `publish`, remembering in `failure` that the circle could not be written rather than
    /// throwing it: a transaction writes everything private first (the log, its segments, the
    /// feed, with the deliveries it recorded), then says once that the circle is behind.
    func publish(_ bytes: [UInt8], as relative: String, failure: inout StoreError?) {
        do {
            try publish(bytes, as: relative)
        } catch {
            failure = failure ?? error
        }
    }

    /// Creates the folders from the circle down to `directory` (in this device's folder), each a
    /// real folder: nothing is written through a link. A link or file where this device's own
    /// folders belong is removed (only this device writes there); one higher up, where other
    /// devices' folders are, is an error for a person to look at.
    private func makePublishedFolders(_ directory: String) throws(SystemError) {
        let circle = circleDirectory
        guard directory.hasPrefix(circle + "/") else { return try Posix.makeDirectories(directory) }
        var path = circle
        for part in directory.dropFirst(circle.count + 1).split(separator: "/") {
            path = Paths.join(path, String(part))
            if Posix.isRealDirectory(path) { continue }
            if Posix.exists(path) {
                guard path.hasPrefix(publishedDirectory) else {
                    throw SystemError(operation: "open", path: path, code: Posix.isSymbolicLink(path) ? ELOOP : ENOTDIR)
                }
                Posix.remove(path)
            }
            try Posix.makeDirectories(path, mode: sharing.directories)
        }
    }

    /// Copies the published archive segments into the private folder, for a directory written
    /// before private copies existed (once, when it adopts its published log).
    func adoptPublishedSegments() throws(StoreError) {
        let published = Paths.join(publishedDirectory, "archive")
        let names: [String]
        do {
            names = try Posix.list(published) ?? []
        } catch {
            throw error.asReadError(backup: nil)
        }
        guard !names.isEmpty else { return }
        do {
            try Posix.makeDirectories(ownArchiveDirectory)
        } catch {
            throw error.asCreateError
        }
        for name in names where ArchiveSegment(fileName: name) != nil {
            let target = Paths.join(ownArchiveDirectory, name)
            if !Posix.exists(target) {
                try Store.write(try Files.read(Paths.join(published, name)), to: target, backup: false)
            }
        }
    }

    /// Publishes the private archive segments the circle lacks.
    func publishMissingSegments(moving circle: String? = nil) throws(StoreError) {
        let own: [String]
        do {
            own = try Posix.list(ownArchiveDirectory) ?? []
        } catch {
            throw error.asReadError(backup: nil)
        }
        let archive = Paths.join(publishedDirectory, "archive")
        // What lies behind a link is not the circle's: everything is published into a real folder.
        let published = Set(Posix.isRealDirectory(archive) ? ((try? Posix.list(archive)) ?? nil) ?? [] : [])
        for name in own where ArchiveSegment(fileName: name) != nil && !published.contains(name) {
            try publish(try Files.read(Paths.join(ownArchiveDirectory, name)), as: "archive/" + name, moving: circle)
        }
    }
}
