import LifeSignalCore

/// What a use case asks of the store: what it needs, never how to get it.
extension Store {
    /// What a use case needs of the circle and the feed. It says what, never how: the store
    /// decides whether the logs are read in full or caches serve it, and a cache only serves
    /// what a full read would answer the same (`CacheDifferentialTests` holds them to that).
    public enum Need: Sendable {
        /// The whole circle (a change of settings, contacts or links).
        case circle
        /// The whole circle and this member's whole feed: for a use case that lists, marks,
        /// notices or records deliveries.
        case circleAndFeed
        /// A check-in: it records only about this member, and shows only what concerns the
        /// members linked with it.
        case checkIn
        /// A delivery run under `sync`: the feed matters only when something in it is to be
        /// noticed or sent.
        case delivery(SyncView)

        /// How much of the feed the store reads for it.
        var feed: FeedUse {
            switch self {
            case .circle, .checkIn: .none
            case .circleAndFeed: .whole
            case .delivery(let sync): .digest(sync)
            }
        }

        /// How much of everyone else the store reads for it.
        var others: OthersUse {
            switch self {
            case .checkIn: .linked
            case .circle, .circleAndFeed, .delivery: .all
            }
        }
    }

    /// What a reader needs of the circle (see `snapshot(for:)`).
    public enum Reading: Sendable {
        /// Everything this device knows of the circle.
        case everything
        /// What `status` shows: this member and the members its dashboard names.
        case dashboard
    }

    /// How much of the member's feed the store reads for a `Need`.
    enum FeedUse: Sendable {
        case none
        /// All of it.
        case whole
        /// Its digest, when that is current and shows nothing to notice or send (a delivery
        /// run with nothing to do, as `sync` lets this device relay); else all of it.
        case digest(SyncView)
    }

    /// How much of everyone else the store reads for a `Need`.
    enum OthersUse: Sendable {
        case all
        /// The members linked with this one, while the cache holds everyone and their files
        /// are unchanged: for a transaction that records only about this member and shows
        /// only what concerns those linked with it (a check-in). See `CircleCache.Scope`.
        case linked
    }
}
