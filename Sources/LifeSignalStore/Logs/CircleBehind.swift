import LifeSignalCore

/// `own/circle-behind`: since when, and why, this device's records could not be written into
/// the circle. Made under the lock by the first write whose publishing failed (a full or
/// read-only circle, a folder that cannot be made again) and removed by the first write that
/// published everything. Meanwhile every write publishes all of this device's files again (a
/// feed that missed the circle while the log did not is not left behind), and a copy found
/// missing or older in the circle is this machine's doing, not a sync tool's.
extension Store {
    public struct CircleBehind: Equatable, Sendable {
        /// When the first write that could not publish ran.
        public var since: Timestamp
        /// What the system said, when there was room to write it down (a disk too full for
        /// that leaves the file empty, and its time says since when).
        public var reason: String?
    }

    var circleBehindPath: String { DataFile.circleBehind.path(in: dataDirectory) }

    public func circleBehind() -> CircleBehind? {
        var key = Posix.FileKey.missing
        guard case .contents(let bytes)? = try? Posix.read(circleBehindPath, limit: 4096, key: &key) else {
            return nil
        }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
        let since = lines.first.flatMap { Timestamp(rfc3339: String(decoding: $0, as: UTF8.self)) }
        let reason = lines.dropFirst().first.map {
            String(decoding: $0.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        }
        return CircleBehind(
            since: since ?? Timestamp(seconds: key.modified / 1_000_000_000),
            reason: reason.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Notes that this write could not publish (`unpublished`), unless an earlier one did.
    func noteCircleBehind(_ unpublished: StoreError?, now: Timestamp) {
        guard case .notPublished(let path, let reason, _)? = unpublished, !Posix.exists(circleBehindPath) else {
            return
        }
        try? Posix.overwrite(circleBehindPath, with: Array("\(now.rfc3339)\n\(path): \(reason)\n".utf8))
    }

    /// Everything was published: the circle is no longer behind.
    func clearCircleBehind() { Posix.remove(circleBehindPath) }
}
