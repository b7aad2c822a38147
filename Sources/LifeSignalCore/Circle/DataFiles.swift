/// Every file of a data directory, named once: what each holds, and whether it is part of the
/// truth (this device's signed records), a cache of it (rebuilt when lost), this machine's own
/// memory, or a secret. The store takes its paths from here, the sync engines' ignore patterns
/// are made from it (`SyncIgnore`), and the tests hold a data directory to it.
public enum DataFile: String, CaseIterable, Sendable {
    case identity = "identity.json"
    case deviceKey = "device.key"
    case lock = "lock"
    case ownLog = "own/log.json"
    case ownFeed = "own/feed.json"
    case ownArchive = "own/archive"
    case circleBehind = "own/circle-behind"
    case cache = "cache.bin"
    case circleCache = "cache-circle.bin"
    case linkedCache = "cache-linked.bin"
    case health = "health.json"
    case verified = "verified.bin"
    case phoneTopics = "phone.json"
    case privateState = "state.bin"
    case enrollment = "enrollment.json"
    case syncSettings = "sync.json"

    public enum Kind: Sendable {
        /// This device's signed records (published copies of them lie in the circle).
        case truth
        /// Made from the records for speed, and made again when deleted.
        case cache
        /// What this machine did or verified; lost, it only forgets.
        case memory
        /// Never shown, never shared.
        case secret
    }

    public var kind: Kind {
        switch self {
        case .ownLog, .ownFeed, .ownArchive: .truth
        case .cache, .circleCache, .linkedCache: .cache
        case .identity, .lock, .circleBehind, .health, .verified, .privateState, .syncSettings: .memory
        case .deviceKey, .phoneTopics, .enrollment: .secret
        }
    }

    /// The file's path in `dataDirectory`.
    public func path(in dataDirectory: String) -> String { Paths.join(dataDirectory, rawValue) }

    /// The names a sync engine must never carry, should one ever find them in a shared folder:
    /// every file at the top of a data directory.
    public static var neverShared: [String] { allCases.map(\.rawValue).filter { !$0.contains("/") } }
}
