import LifeSignalCore
import LifeSignalStore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The large circle of `circle-N`: a lone-worker team or a care home, where hundreds of people
/// share one circle folder and the member benchmarked watches over 100 of them.
///
/// Each further member is written through the real store code in its own data directory with
/// a private circle, and its folder is then moved into the shared circle: what a sync engine
/// would deliver, without every new member reading every earlier one (which would make
/// generating 10,000 members quadratic).
enum BulkCircle {
    /// How many of the added members the benchmarked member watches over, unless told otherwise.
    static let watched = 100

    /// The benchmarked member watches over the first `watched` of the added members. With
    /// `linkedBack`, each of those names the benchmarked one as their responder in their own
    /// records, as a team would after exchanging codes.
    static func add(
        _ count: Int, to dataDirectory: String, peerRoot: String, now: Timestamp, watched: Int,
        linkedBack: Bool = false
    ) throws {
        let coordinator = try Store.open(dataDirectory: dataDirectory)
        let circle = coordinator.circleDirectory
        var added: [String] = []
        for index in 0..<count {
            let peerData = Paths.join(peerRoot, "bulk-\(index)")
            let profile = NewProfile(
                name: "Member \(index)", interval: .hours(24), reminder: .minutes(30), circle: nil)
            // Each one's year ends within the last day, so every one is on time at `now`.
            let first = Timestamp(seconds: now.seconds - 365 * 86_400 + Int64(index % 1_440) * 60)
            _ = try Store.update(dataDirectory: peerData, lockTimeout: 5, creation: .ifMissing(profile), now: first) {
                transaction in
                if linkedBack && index < watched {
                    transaction.record(
                        RelationSet(
                            member: coordinator.identity.member, roles: Roles(responder: true, dependent: false)),
                        at: first)
                }
                for day in 0..<365 {
                    transaction.record(
                        CheckedIn(note: day % 7 == 0 ? "weekly note \(day)" : nil),
                        at: Timestamp(seconds: first.seconds + Int64(day) * 86_400))
                }
            }
            let member = try Store.open(dataDirectory: peerData).identity.member
            let from = Paths.join(peerData, "circle", "members", member)
            let to = Paths.join(circle, "members", member)
            guard rename(from, to) == 0 else {
                throw StoreError.unreadable(
                    path: to, reason: "could not move \(from) there (errno \(errno))", backup: nil)
            }
            added.append(member)
        }
        let last = now - .minutes(30)
        _ = try Store.update(dataDirectory: dataDirectory, lockTimeout: 5, creation: .never, now: last) {
            transaction in
            for member in added.prefix(watched) {
                transaction.record(
                    RelationSet(member: member, roles: Roles(responder: false, dependent: true)), at: last)
            }
        }
    }
}
