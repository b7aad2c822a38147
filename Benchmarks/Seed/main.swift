import LifeSignalCore
import LifeSignalStore

// lifesignal-bench-seed: writes a benchmark store through the real store code.
//
//     lifesignal-bench-seed <data-dir> typical|one-year|ten-year|circle-<N>|coordinator-<N>|crowd-<N>
//
// typical    one year of daily check-ins (365), a note on some of them; 300 notifications
// one-year   one year of hourly check-ins (8,760); 1,000 notifications
// ten-year   ten years of hourly check-ins (87,600); 10,000 notifications
// circle-N   a circle of N members, each with a year of daily check-ins: the typical member
//            (whose data directory this is) is a responder of 100 of the others (see Circle.swift)
// coordinator-N  the same circle, where the 100 watched members have linked back (each names
//            the typical member as their responder in their own records): a team's coordinator
// crowd-N    a circle of N members in which the typical member is linked with no more than in
//            `typical` (its 10 members): what the size of a circle costs, apart from links
//
//     lifesignal-bench-seed --signature-cost
//
// prints what checking one signature costs: the median, in microseconds, of 2,000 checks of a
// 2 KiB log head (what a reader checks per changed log of someone it is linked with).
//
// Both have the design's 20 contacts: 10 members of the circle (each with its own device log
// holding a year of daily check-ins, written from its own data directory under
// <data-dir>.peers/) linked with mixed roles, two of them pinged, and 10 external responders.
//
// Events are appended in batches, one `Store.update` transaction per batch, so memory stays
// bounded and the store archives old events into segments exactly as the product does.
// The history ends shortly before `Seed.now`, so the member is on time at that instant;
// `scripts/bench` runs the commands with `LIFESIGNAL_NOW` set to it.
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fixed instant the generated history leads up to, and the shape of each store.
enum Seed {
    static let nowText = "2026-03-01T09:00:00Z"
    static let batchSize = 1_000

    struct Shape {
        var name: String
        var count: Int
        var step: TimeSpan
        /// How long before `now` the newest check-in is.
        var lastBeforeNow: TimeSpan
        /// A note on every n-th check-in.
        var noteEvery: Int
        /// Notifications in the feed (design.md: a few hundred; 10,000 at scale).
        var notifications: Int
    }

    static let shapes: [String: Shape] = [
        "typical": Shape(
            name: "typical", count: 365, step: .days(1), lastBeforeNow: .minutes(30), noteEvery: 5, notifications: 300),
        "one-year": Shape(
            name: "one-year", count: 365 * 24, step: .hours(1), lastBeforeNow: .minutes(20), noteEvery: 24,
            notifications: 1_000),
        "ten-year": Shape(
            name: "ten-year", count: 10 * 365 * 24, step: .hours(1), lastBeforeNow: .minutes(20), noteEvery: 24,
            notifications: 10_000),
    ]

    static let notes = [
        "morning walk", "leaving for work", "hiking Ben Nevis, back by 6pm", "at the gym",
        "flying to Lisbon", "home again", "doctor's appointment", "cycling the coast road",
    ]
}

func fail(_ message: String) -> Never {
    let text = "lifesignal-bench-seed: \(message)\n"
    _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(1)
}

/// Files and bytes under `path`, by walking it with opendir/lstat.
func usage(of path: String) -> (files: Int, bytes: Int64, segments: Int) {
    var files = 0
    var bytes: Int64 = 0
    var segments = 0
    func walk(_ directory: String) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let child = directory + "/" + name
            var info = stat()
            guard lstat(child, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                walk(child)
            } else {
                files += 1
                bytes += Int64(info.st_size)
                if directory.hasSuffix("/archive") { segments += 1 }
            }
        }
    }
    walk(path)
    return (files, bytes, segments)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--signature-cost"] {
    var generator = SystemRandomNumberGenerator()
    let key = SigningKey.generate(using: &generator)
    let head = [UInt8]((0..<2_048).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let signature = key.sign(head)
    var times: [Int64] = []
    for _ in 0..<2_000 {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        guard Ed25519.verify(signature: signature, message: head, publicKey: key.publicKey) else {
            fail("did not verify")
        }
        clock_gettime(CLOCK_MONOTONIC, &end)
        times.append(Int64(end.tv_sec - start.tv_sec) * 1_000_000_000 + Int64(end.tv_nsec - start.tv_nsec))
    }
    times.sort()
    print(String(Double(times[times.count / 2]) / 1_000))
    exit(0)
}
let kind = arguments.count == 2 ? arguments[1] : ""
// The circles' kinds are a prefix and a size.
let circleKind = ["circle-", "coordinator-", "crowd-"].first { kind.hasPrefix($0) }
let circleSize = circleKind.flatMap { Int(kind.dropFirst($0.count)) }
let linkedBack = circleKind == "coordinator-"
let crowd = circleKind == "crowd-"
guard arguments.count == 2, let shape = Seed.shapes[circleSize == nil ? kind : "typical"],
    arguments[0].hasPrefix("/")
else {
    fail(
        "usage: lifesignal-bench-seed <absolute data-dir> typical|one-year|ten-year|circle-<N>|coordinator-<N>|crowd-<N>"
    )
}
let dataDirectory = arguments[0]
guard let now = Timestamp(rfc3339: Seed.nowText) else { fail("bad built-in now") }
if access(Paths.join(dataDirectory, "identity.json"), F_OK) == 0 {
    fail("\(dataDirectory) already holds a store; give an empty or new directory")
}

let last = now - shape.lastBeforeNow
let first = Timestamp(seconds: last.seconds - Int64(shape.count - 1) * shape.step.seconds)
let profile = NewProfile(
    name: "Bench Mark", interval: Rules.defaultInterval, reminder: Rules.defaultReminder, circle: nil)

var written = 0
var transactions = 0
// With daily check-ins, the last 30 are written later, one by one, each after the run that
// noticed its reminder (see below): the feed keeps 30 days, and that is what fills it.
let tailDays = shape.step == .days(1) ? 30 : 0
func note(_ i: Int) -> String? { i % shape.noteEvery == 0 ? Seed.notes[(i / shape.noteEvery) % Seed.notes.count] : nil }
func checkInTime(_ i: Int) -> Timestamp { Timestamp(seconds: first.seconds + Int64(i) * shape.step.seconds) }
while written < shape.count - tailDays {
    let batch = min(Seed.batchSize, shape.count - tailDays - written)
    let start = written
    // The profile is created at the time of the first check-in, so its settings predate it.
    do {
        _ = try Store.update(
            dataDirectory: dataDirectory, lockTimeout: 5, creation: .ifMissing(profile), now: first
        ) { transaction in
            for i in start..<(start + batch) {
                transaction.record(CheckedIn(note: note(i)), at: checkInTime(i))
            }
        }
    } catch {
        fail("writing events \(start + 1)–\(start + batch) failed: \(error)")
    }
    written += batch
    transactions += 1
}

// The contacts: ten members with a year of daily check-ins each, and ten external people.
let peerRoot = dataDirectory + ".peers"
do {
    let circle = try Store.open(dataDirectory: dataDirectory).circleDirectory
    for peer in 0..<10 {
        let peerData = Paths.join(peerRoot, "\(peer)")
        let peerProfile = NewProfile(name: "Peer \(peer)", interval: .hours(24), reminder: .minutes(30), circle: circle)
        let peerFirst = Timestamp(seconds: now.seconds - 365 * 86_400 + Int64(peer) * 600)
        let code = try Store.update(
            dataDirectory: peerData, lockTimeout: 5, creation: .ifMissing(peerProfile), now: peerFirst
        ) { transaction in
            for day in 0..<365 {
                transaction.record(
                    CheckedIn(note: day % 7 == 0 ? "weekly note \(day)" : nil),
                    at: Timestamp(seconds: peerFirst.seconds + Int64(day) * 86_400))
            }
            return transaction.memberState.code?.value ?? ""
        }.value
        _ = try Store.update(dataDirectory: dataDirectory, lockTimeout: 5, creation: .never, now: last) { transaction in
            guard let other = transaction.circle.member(withCode: code) else { fail("peer \(peer) has no code") }
            let roles = Roles(responder: peer % 3 != 1, dependent: peer % 3 != 0)
            transaction.record(RelationSet(member: other, roles: roles), at: last)
            if roles.dependent && peer < 4 {
                var generator = SystemRandomNumberGenerator()
                transaction.record(PingSent(id: Identifier.make(using: &generator), to: other), at: last)
            }
        }
    }
    _ = try Store.update(dataDirectory: dataDirectory, lockTimeout: 5, creation: .never, now: last) { transaction in
        var generator = SystemRandomNumberGenerator()
        for external in 0..<10 {
            let contact = ExternalContact(
                name: "External \(external)", notify: ["ntfy:https://ntfy.sh/bench-\(external)"],
                email: ["person\(external)@example.org"],
                phone: ["+4420794609\(10 + external)"])
            transaction.record(ExternalSet(id: Identifier.make(using: &generator), contact: contact), at: last)
        }
    }
} catch {
    fail("adding the contacts failed: \(error)")
}

// circle-N: the rest of the N members, in the same circle folder.
if let circleSize {
    do {
        try BulkCircle.add(
            max(circleSize - 11, 0), to: dataDirectory, peerRoot: peerRoot, now: now,
            watched: crowd ? 0 : BulkCircle.watched, linkedBack: linkedBack)
    } catch {
        fail("adding the circle's members failed: \(error)")
    }
}

// The last month, as it happens: cron's run in each morning's reminder window notices the
// reminder (and the contact and ping notifications), then the check-in follows.
do {
    for i in (shape.count - tailDays)..<shape.count {
        let run = checkInTime(i) - .minutes(20)
        _ = try Store.update(
            dataDirectory: dataDirectory, lockTimeout: 5, creation: .never, now: run, needs: .circleAndFeed
        ) {
            transaction in
            transaction.noticeDue(now: run)
        }
        _ = try Store.update(dataDirectory: dataDirectory, lockTimeout: 5, creation: .never, now: checkInTime(i)) {
            transaction in
            transaction.record(CheckedIn(note: note(i)), at: checkInTime(i))
        }
        written += 1
    }
} catch {
    fail("writing the last month failed: \(error)")
}

// design.md's notification counts. The month above noticed about forty; the rest are ping
// rounds — I ping a dependent, they answer — made by the real notification builders and spread
// over the feed's 30 days (10,000 in a month is a stress shape, not a likely one). Nine in ten
// are read, as they would be. The pings themselves are not in the logs: only the feed grows.
do {
    _ = try Store.update(
        dataDirectory: dataDirectory, lockTimeout: 5, creation: .never, now: last, needs: .circleAndFeed
    ) {
        transaction in
        let me = transaction.member
        let circle = transaction.circle
        let dependents = circle.contacts(of: me).filter { $0.kind == .member && $0.roles.dependent }
        guard !dependents.isEmpty else { fail("the seed circle has no dependents to ping") }
        let rounds = (shape.notifications - transaction.feed.notifications.count + 1) / 2
        let start = last.seconds - 29 * 86_400
        var read: [String] = []
        var round = 0
        while transaction.feed.notifications.count < shape.notifications {
            let dependent = dependents[round % dependents.count].id
            let sent = Timestamp(seconds: start + Int64(round) * 29 * 86_400 / Int64(max(rounds, 1)))
            let cause = "bench-ping-\(round)"
            let made =
                Notifications.pingSent(cause, from: me, to: dependent, at: sent, circle: circle)
                + Notifications.pingEnded(
                    cause, from: me, to: dependent, end: .answered, at: sent + .minutes(7), circle: circle)
            for notification in made
            where notification.recipient == .member(me) && transaction.feed.notifications.count < shape.notifications {
                if transaction.notice(notification), round % 10 != 0 { read.append(notification.id) }
            }
            round += 1
        }
        transaction.markRead(read)
    }
} catch {
    fail("writing the notifications failed: \(error)")
}

let store: Store
let state: MemberState
let contacts: Int
do {
    store = try Store.open(dataDirectory: dataDirectory)
    let circle = try store.readCircle().state
    state = circle.members[store.identity.member] ?? MemberState()
    contacts = circle.contacts(of: store.identity.member).count
} catch {
    fail("reading the store back failed: \(error)")
}
let status = CheckInStatus(member: state, now: now)
let (files, bytes, segments) = usage(of: dataDirectory)
var logBytes: Int64 = 0
var logInfo = stat()
if stat(store.logPath(member: store.identity.member, device: store.identity.device), &logInfo) == 0 {
    logBytes = Int64(logInfo.st_size)
}

print("store \(shape.name) at \(dataDirectory)")
print(
    "  events: \(written) check-ins (+4 profile events) from \(first.rfc3339) to \(last.rfc3339), \(transactions) transactions of up to \(Seed.batchSize)"
)
print(
    "  check-in count in folded state: \(state.checkInCount); status at \(now.rfc3339): \(status.phase); contacts: \(contacts)"
)
print(
    "  notifications in the feed: \((try? store.memberFeed().feed.notifications.count) ?? -1), unread: \((try? store.unreadCount().count) ?? -1)"
)
print("  files: \(files) (\(segments) archive segments); total bytes: \(bytes); log.json bytes: \(logBytes)")
print("  peers' data directories are in \(peerRoot)")
