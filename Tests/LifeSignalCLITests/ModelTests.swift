import Foundation
import Testing

/// A model-based test: random sequences of check-ins, interval changes, deleted and rolled-back
/// and damaged files, against one data directory. After every step, whatever the files went
/// through: no command exits 0 while showing less than was acknowledged, and no deadline lies
/// later than the time + the interval. A command may refuse (loudly); it may not quietly forget.
@Suite struct ModelTests {
    /// A small deterministic generator, so a failure can be replayed from its seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// What was acknowledged (a command exited 0 after recording it).
    struct Model {
        var checkIns: [Int64] = []
        var interval: Int64 = 86_400
    }

    enum Step: CaseIterable {
        case checkIn, interval, deletePublished, deleteMemberFolder, rollBackPublished, damagePublished
        case damageOwn, rollBackOwn
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func acknowledgedRecordsAreNeverQuietlyLost(seed: UInt64) throws {
        let fixture = try ReliabilityFixture.make()
        var random = Generator(state: seed)
        var model = Model()
        var now: Int64 = 1_772_355_600  // 2026-03-01T09:00:00Z, after the fixture's check-ins
        var snapshots: [(own: Data, published: Data)] = []
        var failures: [String] = []
        for index in 0..<60 {
            now += Int64.random(in: 600...20_000, using: &random)
            let step = Step.allCases.randomElement(using: &random) ?? .checkIn
            try apply(step, fixture: fixture, model: &model, now: now, snapshots: &snapshots, random: &random)
            if let failure = check(fixture, model: model, now: now) {
                failures.append("seed \(seed) step \(index) after \(step): \(failure)")
                break
            }
            if let own = FileManager.default.contents(atPath: fixture.log),
                let published = FileManager.default.contents(atPath: fixture.publishedLog)
            {
                snapshots.append((own, published))
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    func time(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    func apply(
        _ step: Step, fixture: ReliabilityFixture, model: inout Model, now: Int64,
        snapshots: inout [(own: Data, published: Data)], random: inout Generator
    ) throws {
        let home = fixture.home
        switch step {
        case .checkIn:
            if home.run(["checkin", "--quiet"], now: time(now)).code == 0 { model.checkIns.append(now) }
        case .interval:
            let hours = [8, 16, 24, 48].randomElement(using: &random) ?? 24
            if home.run(["checkin", "interval", "\(hours)h", "--quiet"], now: time(now)).code == 0 {
                model.interval = Int64(hours) * 3600
            }
        case .deletePublished:
            try? FileManager.default.removeItem(atPath: fixture.publishedLog)
        case .deleteMemberFolder:
            try? FileManager.default.removeItem(atPath: fixture.memberDirectory)
        case .rollBackPublished:
            if let old = snapshots.randomElement(using: &random) {
                try? FileManager.default.createDirectory(
                    atPath: fixture.deviceDirectory, withIntermediateDirectories: true)
                try old.published.write(to: URL(fileURLWithPath: fixture.publishedLog))
            }
        case .damagePublished:
            try damage(fixture.publishedLog, random: &random)
        case .damageOwn, .rollBackOwn:
            // The private copy damaged: never read without a word (the copy this device signed
            // is read in its place, or the command stops). Put back: every command stops
            // (checked below), and the person restores it as the message says.
            let good = FileManager.default.contents(atPath: fixture.log)
            if step == .damageOwn {
                try damage(fixture.log, random: &random)
            } else if let old = snapshots.randomElement(using: &random) {
                try old.own.write(to: URL(fileURLWithPath: fixture.log))
            }
            let status = home.run(["checkin", "status"], now: time(now))
            let changed = FileManager.default.contents(atPath: fixture.log) != good
            if changed && status.code == 0 && step == .damageOwn && !status.stderr.contains("are damaged") {
                Issue.record("a damaged own log was read without complaint: \(status.stdout)")
            }
            try good?.write(to: URL(fileURLWithPath: fixture.log))
        }
    }

    func damage(_ path: String, random: inout Generator) throws {
        guard var bytes = FileManager.default.contents(atPath: path), !bytes.isEmpty else { return }
        for _ in 0..<3 {
            bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    /// What `checkin status` and `checkin history` show, against the model.
    func check(_ fixture: ReliabilityFixture, model: Model, now: Int64) -> String? {
        let status = fixture.home.run(["checkin", "status", "--json"], now: time(now))
        guard status.code == 0 || status.code == 3 || status.code == 4 else { return nil }  // loud: fine
        let json = jsonObject(status.stdout)
        let formatter = ISO8601DateFormatter()
        let last = ((json["lastCheckIn"] as? [String: Any])?["at"] as? String).flatMap { formatter.date(from: $0) }
        let lastSeconds = last.map { Int64($0.timeIntervalSince1970) }
        if let acknowledged = model.checkIns.last, (lastSeconds ?? 0) < acknowledged {
            return
                "status shows the last check-in \(last.map { "\($0)" } ?? "none"), before one acknowledged at \(time(acknowledged))"
        }
        if let deadline = (json["deadline"] as? String).flatMap({ formatter.date(from: $0) }),
            Int64(deadline.timeIntervalSince1970) > now + model.interval + 300
        {
            return "the deadline \(deadline) lies beyond now + the interval"
        }
        let history = fixture.home.run(["checkin", "history", "--limit", "1000", "--json"], now: time(now))
        if history.code == 0 {
            let total = jsonObject(history.stdout)["total"] as? Int ?? 0
            if total < model.checkIns.count + 3 {
                return "history counts \(total) check-ins; \(model.checkIns.count + 3) were acknowledged"
            }
        }
        return nil
    }
}
