import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `init --circle DIR` on an existing profile: this device's records move into DIR. Crash-safe
/// because the private copy of the records is the authoritative one: they are published into
/// DIR first, then `identity.json` is replaced (durably, the commit point) to name DIR. Killed
/// before that, the old circle is untouched and a retry takes up the half-published copy;
/// killed after, DIR holds what was published and the next write publishes anything missing.
/// Only then is this device's folder removed from the old circle, when that was the data
/// directory's own private one (a shared folder keeps it for the others, who are told).
extension Store {
    public struct CircleMove: Sendable {
        public var from: String
        public var to: String
        /// The old folder was the data directory's private one, and this device's records were
        /// removed from it.
        public var cleanedUp: Bool
    }

    public static func moveCircle(dataDirectory: String, to circle: String, lockTimeout: Int) throws(StoreError)
        -> CircleMove
    {
        try holdingLock(dataDirectory: dataDirectory, timeout: lockTimeout) {
            Result { () throws(StoreError) in try move(dataDirectory: dataDirectory, to: circle) }
        }.get()
    }

    private static func move(dataDirectory: String, to circle: String) throws(StoreError) -> CircleMove {
        let store = try Store.open(dataDirectory: dataDirectory)
        let from = store.circleDirectory
        try checkWritable(circle)
        var identity = store.identity
        identity.circle = circle
        let target = Store(dataDirectory: dataDirectory, identity: identity)
        var key = Posix.FileKey.missing
        let own = try store.readOwnLog(key: &key)
        if let log = own.log {
            let bytes = own.bytes ?? log.encoded(signer: nil)
            // Already there: our own half-done move (the same or an older copy), or someone else's.
            let found = target.publication(of: log, bytes: bytes)
            if case .notOurs(let seq) = found {
                throw .heldElsewhere(published: target.publishedLogPath, publishedSeq: seq)
            }
            // One that fails is refused: identity.json still names the old circle, and what this
            // move put there goes again (a copy left behind would look, to anyone who reads DIR,
            // like a person who stopped checking in).
            do {
                try target.publish(bytes, as: "log.json", moving: circle)
                if own.bytes != nil { try target.publishMissingSegments(moving: circle) }
                if case .contents(let feed)? = try? Posix.read(store.ownFeedPath) {
                    try target.publish(feed, as: "feed.json", moving: circle)
                }
            } catch {
                if found == .missing {
                    removeTree(target.publishedDirectory)
                    _ = rmdir(target.memberDirectory(identity.member))
                    _ = rmdir(Paths.join(circle, "members"))
                }
                throw error
            }
        }
        try Store.write(identity.encoded(), to: store.identityPath, backup: true)
        let privateCircle = Paths.join(dataDirectory, "circle")
        let cleanedUp = from == privateCircle && own.bytes != nil
        if cleanedUp {
            removeTree(store.publishedDirectory)
            // Folders left empty go too (rmdir leaves any that still hold something).
            _ = rmdir(store.memberDirectory(store.identity.member))
            _ = rmdir(Paths.join(from, "members"))
            _ = rmdir(from)
        }
        return CircleMove(from: from, to: circle, cleanedUp: cleanedUp)
    }

    /// DIR exists or can be made, and a file can be written in it.
    static func checkWritable(_ circle: String) throws(StoreError) {
        do {
            try Posix.makeDirectories(circle)
            let probe = Paths.join(circle, ".lifesignal-write-test")
            try Posix.replace(probe, with: [], durable: false)
            Posix.remove(probe)
        } catch {
            throw error.asCreateError
        }
    }

    /// Removes a folder this device wrote, and everything in it.
    static func removeTree(_ path: String) {
        if let names = try? Posix.list(path) {
            for name in names { removeTree(Paths.join(path, name)) }
            _ = rmdir(path)
        } else {
            Posix.remove(path)
        }
    }
}
