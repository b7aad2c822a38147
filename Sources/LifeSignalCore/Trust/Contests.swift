/// Two sets of devices that each claim to be one member, neither vouching for the other, and
/// no code the reader was given to tell which is theirs: a clone of the member's log signed
/// with someone else's key, put beside the real one before this reader had a key of theirs,
/// or pins of two such sets. It is never settled silently for either side:
/// - a set that holds a key the reader took from the member's own code (`KeyPinned.fromCode`)
///   is theirs, and the others are not (that is how a contest is settled);
/// - otherwise, while it lasts, the reader counts the set that checked in least recently, so
///   that no one can make a silent member look fine by checking in for them (the cost, when
///   the clone is the stale one, is an alarm that says why), says so on every run, and pins
///   none of their keys.
/// A set with no check-in at all is not taken while another has one (a planted empty log must
/// not leave the member with no deadline); with no check-in anywhere, none is.
public struct Contest: Equatable, Sendable {
    /// Each set of devices that claims the member, by device id, each sorted, in order.
    public var groups: [[String]]
    /// The set counted while it lasts (nil: none).
    public var taken: [String]?

    /// The devices of the sets not counted.
    public var untaken: [String] { groups.filter { $0 != taken }.flatMap { $0 } }
}

extension Speakers {
    /// Each of `devices`' reach through enrollments (revocations aside).
    static func reaches(of devices: [String], in voices: [String: DeviceVoice], member: String) -> [String: Set<String>]
    {
        var reaches: [String: Set<String>] = [:]
        for device in devices {
            reaches[device] = Set(reach(from: [device], in: voices, member: member, revoked: [:]).keys)
        }
        return reaches
    }

    /// First sight (no key pinned): the sets of signed devices that vouch for each other, each
    /// with a device every one of them vouches for back (a device planted beside the member's,
    /// vouching for theirs but not vouched for by them, makes no set). One set: its root. More:
    /// a contest, and the root of the set taken. None taken: empty.
    mutating func firstSightRoots(_ signed: [DeviceVoice], in voices: [String: DeviceVoice], member: String)
        -> Set<String>
    {
        let reaches = Self.reaches(of: signed.map(\.device), in: voices, member: member)
        var groups: [Set<String>: String] = [:]
        for voice in signed.sorted(by: { $0.device < $1.device }) {
            let group = reaches[voice.device] ?? []
            guard group.allSatisfy({ reaches[$0].map { $0.contains(voice.device) } ?? true }) else { continue }
            if groups[group] == nil { groups[group] = voice.device }
        }
        guard groups.count > 1 else { return Set(groups.values) }
        let sets = groups.keys.sorted { $0.sorted().lexicographicallyPrecedes($1.sorted()) }
        guard let taken = contend(sets, in: voices) else { return [] }
        return groups[taken].map { [$0] } ?? []
    }

    /// Pinned roots (another member's): when they fall in more than one set that does not
    /// vouch for the other, the one holding a key from the member's code, else a contest.
    mutating func settle(
        _ roots: Set<String>, fromCode: Set<String>, in voices: [String: DeviceVoice], member: String
    ) -> Set<String> {
        guard roots.count > 1 else { return roots }
        let reaches = Self.reaches(of: roots.sorted(), in: voices, member: member)
        // Roots joined when either reaches the other.
        var clusters: [Set<String>] = []
        for root in roots.sorted() {
            let joined = clusters.indices.filter { index in
                clusters[index].contains {
                    reaches[$0]?.contains(root) ?? false || reaches[root]?.contains($0) ?? false
                }
            }
            var merged: Set<String> = [root]
            for index in joined.reversed() { merged.formUnion(clusters.remove(at: index)) }
            clusters.append(merged)
        }
        guard clusters.count > 1 else { return roots }
        let scanned = clusters.filter { cluster in
            cluster.contains { voices[$0]?.key.flatMap(KeyText.fingerprint(ofKey:)).map(fromCode.contains) ?? false }
        }
        if scanned.count == 1, let settled = scanned.first { return settled }
        let sets = clusters.map { cluster in cluster.reduce(into: Set<String>()) { $0.formUnion(reaches[$1] ?? []) } }
        guard let taken = contend(sets, in: voices), let index = sets.firstIndex(of: taken) else { return [] }
        return clusters[index]
    }

    /// Records the contest among `sets` and returns the set counted while it lasts: the one
    /// whose latest check-in is earliest, among those with one.
    private mutating func contend(_ sets: [Set<String>], in voices: [String: DeviceVoice]) -> Set<String>? {
        func latest(_ set: Set<String>) -> Timestamp? { set.compactMap { voices[$0]?.lastCheckIn }.max() }
        let taken =
            sets.filter { latest($0) != nil }.min { a, b in
                let (x, y) = (latest(a) ?? Timestamp(seconds: 0), latest(b) ?? Timestamp(seconds: 0))
                return x != y ? x < y : a.sorted().lexicographicallyPrecedes(b.sorted())
            }
        contest = Contest(groups: sets.map { $0.sorted() }, taken: taken.map { $0.sorted() })
        return taken
    }
}
