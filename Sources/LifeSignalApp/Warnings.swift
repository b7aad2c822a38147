import LifeSignalCore
import LifeSignalStore

/// A doubt about whether lifesignal is watching as the person believes, as data. Each has a
/// stable `code` that scripts can match (`--json` lists them under `warnings`); the CLI words
/// them. Doubt is loud: these are said on every run that shows where someone stands, until the
/// cause is fixed.
public enum Warning: Equatable, Sendable {
    /// Another device's records could not be read and were left out (they are read again once
    /// that device or the sync rewrites the file).
    case recordsLeftOut(StoreError)
    /// A log holds events or fields from a newer lifesignal: kept, but not counted here.
    case newerRecords(UnknownRecords)
    /// The copy of this device's records in the circle was missing, older than this machine's
    /// own copy, damaged, or ahead of it. `republished` says whether this run put the own copy
    /// back (a writer does; a read leaves it to the next write).
    case publishedCopy(PublishedCopy, path: String, republished: Bool)
    /// The profile exists but has never checked in: there is no deadline, so nobody would be
    /// told of anything.
    case neverCheckedIn
    /// Nobody is told when I miss a check-in or raise an alert.
    case noResponders

    /// The stable identifier of the kind of doubt.
    public var code: String {
        switch self {
        case .recordsLeftOut: return "records-left-out"
        case .newerRecords: return "records-from-newer-version"
        case .publishedCopy(.ahead, _, _): return "published-records-ahead"
        case .publishedCopy: return "published-records-repaired"
        case .neverCheckedIn: return "never-checked-in"
        case .noResponders: return "no-responders"
        }
    }
}

/// What was wrong with the circle's copy of this device's records.
public enum PublishedCopy: Equatable, Sendable {
    case missing
    /// It held fewer events (a sync engine or a restore put an older file back).
    case older(publishedSeq: Int64, ownSeq: Int64)
    case damaged(StoreError)
    /// It held more events than this machine's own copy: another data directory writes as this
    /// device, or this one was restored from an older backup.
    case ahead(publishedSeq: Int64)

    init?(_ publication: Store.Publication) {
        switch publication {
        case .current: return nil
        case .missing: self = .missing
        case .older(let published, let own): self = .older(publishedSeq: published, ownSeq: own)
        case .damaged(let error): self = .damaged(error)
        case .ahead(let seq): self = .ahead(publishedSeq: seq)
        }
    }
}

extension App {
    /// What could stop my responders from hearing about me, in the circle as `circle` shows it.
    static func watchWarnings(for me: String, in circle: CircleState, now: Timestamp) -> [Warning] {
        var warnings: [Warning] = []
        let state = circle.members[me] ?? MemberState()
        if state.lastCheckIn == nil { warnings.append(.neverCheckedIn) }
        if Notifications.responders(of: me, in: circle).isEmpty { warnings.append(.noResponders) }
        return warnings
    }
}
