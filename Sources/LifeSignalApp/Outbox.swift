import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// Delivering notifications, outbox style: under the lock, notice what is due and pick the
/// deliveries that are due; without the lock, run the channels; under the lock again, record
/// how each went. A crash between sending and recording means the next run sends again — a
/// duplicate, never a loss; every message carries the notification's id for de-duplication.
extension App {
    /// Seconds one channel may take before its process group is ended.
    public static let channelTimeout: Double = 10
    /// The `LIFESIGNAL_*` variables a channel's program gets, and what each holds.
    public static let channelVariables = Delivery.variables
    /// The variables of lifesignal's own environment a channel's program gets, when set.
    public static let channelPassedThrough = Delivery.passedThrough

    /// One notification to send through one channel.
    public struct DeliveryJob: Sendable {
        public var notification: Notification
        public var channel: String
        /// What the recipient reads.
        public var message: Message
        /// How this machine's member addresses e-mail.
        var mail: MailSettings?
        /// Where the channel really sends, when its name is not its address (this device's
        /// phone and button topics, kept out of the circle: see `DeliveryRules.phoneChannel`).
        var address: String? = nil

        /// The channel as a person knows it: its URI, or what a channel of this device alone is
        /// (whose address is said nowhere that could reach the circle).
        public var channelName: String {
            if channel == DeliveryRules.phoneChannel { return "your phone topic on this device" }
            if DeliveryRules.buttonContact(of: channel) != nil {
                return "\(message.recipientName)'s button topic on this device"
            }
            return channel
        }
    }

    /// How a channel changed in a delivery run.
    public enum ChannelChange: Equatable, Sendable {
        case startedFailing
        case recovered(failingSince: Timestamp)
    }

    /// A delivery that failed, or one that waits for its next try after earlier failures.
    public struct DeliveryProblem: Sendable {
        public var job: DeliveryJob
        public var error: String
        /// When the next try may be made (for one that waits).
        public var next: Timestamp?
    }

    /// What a delivery cycle did.
    public struct DeliveryReport: Sendable {
        public var noticed: [Notification] = []
        public var delivered: [DeliveryJob] = []
        public var failures: [DeliveryProblem] = []
        /// Deliveries that failed before and wait for their next try (not attempted this run).
        public var waiting: [DeliveryProblem] = []
        /// With `dryRun`: the deliveries that are due and would be attempted now.
        public var planned: [DeliveryJob] = []
        /// Channels that started failing or worked again in this run (what cron should mail).
        public var changes: [String: ChannelChange] = [:]
        /// The inboxes to read next run, and how reading them went (nil: not worked out); what
        /// was found in them that changed nothing.
        var inboxes: [String: InboxHealth]?
        var tapsIgnored: [Warning] = []

        /// Nothing failed and nothing waits: what cron reads as success.
        public var isComplete: Bool { failures.isEmpty && waiting.isEmpty }

        /// A channel of this report as a person knows it (see `DeliveryJob.channelName`).
        public func name(of channel: String) -> String {
            let jobs = delivered + failures.map(\.job) + waiting.map(\.job) + planned
            return jobs.first { $0.channel == channel }?.channelName ?? channel
        }
    }

    /// Notices what is due and delivers what is pending: the cron entry point, and what the
    /// commands that cause urgent notifications (an alert, a ping) run at once.
    ///
    /// On a bad day (a full disk, an I/O error) what is already due is still sent — sending
    /// twice beats not sending — and then the error is reported with how many were sent.
    /// With `retryingNow`, channels that are failing are tried at once rather than after their
    /// pause (`notify deliver --now`, once the person has fixed one). With `dryRun`, what is due
    /// and would be attempted (`planned`), recording and sending nothing.
    public func deliver(retryingNow: Bool = false, dryRun: Bool = false) throws(AppError) -> DeliveryReport {
        if !dryRun { sendDuress() }
        let now = self.now
        var report = DeliveryReport()
        var heartbeats: Heartbeats?
        let zone = displayZone
        let sync = try deliverySyncView()
        let reads = readInboxes()  // A dry run too: a miss is confirmed only by a read after it.
        let pick = { (transaction: inout Transaction) throws(AppError) -> [DeliveryJob] in
            (report.inboxes, report.tapsIgnored) = Self.recordTaps(reads, in: &transaction, now: now)
            let sync = Self.syncView(sync, reading: report.inboxes)
            report.noticed = transaction.noticeDue(now: now)
            Self.recordLiveness(&transaction, engine: sync.engine, now: now)
            heartbeats = transaction.memberState.heartbeats?.value
            // A button's token is committed to in this transaction: one that will not be
            // written (a dry run, or nothing can be recorded) hands out none, as a tap on it
            // would be ignored.
            return Self.dueJobs(
                &transaction, now: now, zone: zone, retryingNow: retryingNow, sync: sync, buttons: !transaction.dryRun,
                report: &report)
        }
        let jobs: [DeliveryJob]
        do {
            jobs = try write(needs: .delivery(sync), dryRun: dryRun, pick)
        } catch .store(let error) where error.isDiskTrouble && !dryRun {
            report = DeliveryReport()
            try sendUnrecorded(error, pick: pick)
            return report
        }
        if dryRun {
            report.planned = jobs
            return report
        }
        guard !jobs.isEmpty else {
            finish(&report, heartbeats: heartbeats)
            return report
        }
        let (attempts, held) = send(jobs)
        // Test failpoint: die between sending and recording, as a power cut would. The next
        // run must send again (a duplicate the receiver can drop by id), never lose anything.
        crashAfterSend?()
        do {
            try write(needs: .circleAndFeed) { transaction throws(AppError) in
                for (job, attempt) in attempts {
                    Self.record(attempt, of: job, in: &transaction, at: now, report: &report)
                }
                // Held back behind a failure: they wait with their channel, paused as long.
                for (job, attempt) in held {
                    transaction.recordDelivery(attempt, at: now)
                    let next = transaction.feed.deliveries[
                        DeliveryKey(notification: job.notification.id, channel: job.channel)]?.nextAttempt
                    report.waiting.append(DeliveryProblem(job: job, error: attempt.error ?? "failed", next: next))
                }
            }
        } catch .store(let error) where error.isDiskTrouble {
            try notRecorded(error, sent: (attempts, held))
        }
        finish(&report, heartbeats: heartbeats)
        return report
    }

    /// Nothing can be recorded (`error`): works out what is due without writing, and sends it.
    /// When a write earlier in this run (an alert's) is said to be unfinished already, with the
    /// way out, the run fails with that once the command has shown its result.
    private func sendUnrecorded(
        _ error: StoreError, pick: (inout Transaction) throws(AppError) -> [DeliveryJob]
    ) throws(AppError) {
        let due = try write(needs: .circleAndFeed, dryRun: true, pick)
        try notRecorded(error, sent: send(due))
    }

    /// What was `sent` could not be recorded (`error`): said with how much of what was due went
    /// out, unless a write earlier in this run (an alert's) is said to be unfinished already, at
    /// the run's end.
    private func notRecorded(
        _ error: StoreError, sent: (attempts: [(DeliveryJob, DeliveryAttempt)], held: [(DeliveryJob, DeliveryAttempt)])
    ) throws(AppError) {
        guard unfinished == nil else { return }
        let succeeded = sent.attempts.filter { $0.1.succeeded }.count
        throw .sentButNotRecorded(error, sent: succeeded, due: sent.attempts.count + sent.held.count)
    }

    /// Now and then, that this device watches: the circle can tell when cron stopped, and a
    /// watcher elsewhere that its copy is current (see `DeliverRan.period(for:)`).
    private static func recordLiveness(_ transaction: inout Transaction, engine: SyncEngine, now: Timestamp) {
        let period = DeliverRan.period(for: engine)
        if transaction.log.memberState.deliverRun.map({ now - $0.at >= period }) ?? true {
            transaction.recordDeliverRun(at: now)
        }
    }

    /// After a delivery run: how each channel did and that the run happened go to this
    /// machine's health record, and the heartbeat URLs for delivery runs are requested.
    private func finish(_ report: inout DeliveryReport, heartbeats: Heartbeats?) {
        let now = self.now
        let attempts =
            report.delivered.map { ($0.channel, String?.none) } + report.failures.map { ($0.job.channel, $0.error) }
        var changes: [String: ChannelChange] = [:]
        var waiting: [String: Int] = [:]
        for problem in report.failures + report.waiting { waiting[problem.job.channel, default: 0] += 1 }
        let inboxes = report.inboxes
        HealthFile.update(dataDirectory: dataDirectory) { health in
            health.lastDeliver = now
            if let inboxes { health.inboxes = inboxes }
            for channel in Set(attempts.map(\.0) + waiting.keys) {
                health.channels[channel, default: LinkHealth()].waiting = waiting[channel] ?? 0
            }
            for (channel, error) in attempts {
                let before = health.channels[channel]?.failingSince
                health.channels[channel, default: LinkHealth()].record(error: error, at: now)
                // Said once when a channel starts failing and once when it works again.
                if error != nil, before == nil, changes[channel] == nil { changes[channel] = .startedFailing }
                if error == nil, let since = before { changes[channel] = .recovered(failingSince: since) }
            }
        }
        report.changes = changes
        for warning in report.tapsIgnored + pulse(.deliver, heartbeats: heartbeats) { notice(.warning(warning)) }
    }

    /// Runs the channels, without the lock: a channel that hangs cannot stop a check-in. Each
    /// channel takes its deliveries in order and stops at its first failure, so nothing
    /// overtakes what it follows; what it did not try is `held`, as failed with that failure.
    private func send(_ jobs: [DeliveryJob]) -> (
        attempts: [(DeliveryJob, DeliveryAttempt)], held: [(DeliveryJob, DeliveryAttempt)]
    ) {
        let environment = self.environment
        var failed: [String: String] = [:]
        var attempts: [(DeliveryJob, DeliveryAttempt)] = []
        var held: [(DeliveryJob, DeliveryAttempt)] = []
        for job in jobs {
            if let error = failed[job.channel] {
                let reason = "not tried: an earlier notification through this channel failed (\(error))"
                held.append(
                    (
                        job,
                        DeliveryAttempt(
                            notification: job.notification.id, channel: job.channel, succeeded: false, error: reason)
                    ))
                continue
            }
            var attempt = channels.send(
                job.notification, job.message, job.address ?? job.channel, job.mail, environment, channels.timeout)
            attempt.channel = job.channel
            if !attempt.succeeded { failed[job.channel] = attempt.error ?? "failed" }
            attempts.append((job, attempt))
        }
        return (attempts, held)
    }

    /// The deliveries that are due now (see `DeliveryRules`), per channel in the order of their
    /// causes; those waiting for their channel's next try go to `report.waiting`.
    private static func dueJobs(
        _ transaction: inout Transaction, now: Timestamp, zone: Message.Zone, retryingNow: Bool, sync: SyncView,
        buttons: Bool, report: inout DeliveryReport
    ) -> [DeliveryJob] {
        let circle = transaction.circle
        let feed = transaction.feed
        let me = transaction.member
        let device = transaction.store.identity.device
        let mail = circle.members[me]?.mail?.value
        let topics = privateTopics(withdrawingReadable: &transaction, now: now)
        let plan = DeliveryRules.plan(
            feed: feed, circle: circle, me: me, device: device, now: now, retryingNow: retryingNow, sync: sync,
            local: topics.channels)
        func job(_ planned: DeliveryRules.Job) -> DeliveryJob {
            let telling = Messages.Telling(
                me: me, device: device, confirmed: planned.confirmed, evidence: planned.evidence, sync: sync)
            let message = Messages.make(
                planned.notification, circle: circle, feed: feed, sentAt: now, zone: zone, telling: telling)
            return DeliveryJob(
                notification: planned.notification, channel: planned.channel, message: message, mail: mail)
        }
        report.waiting = plan.waiting.map { DeliveryProblem(job: job($0.job), error: $0.error, next: $0.next) }
        return plan.jobs.map { planned in
            var made = job(planned)
            made.address = topics.address(of: planned.channel)
            guard buttons else { return made }
            if let button = okButton(for: planned, in: &transaction, now: now) {
                made.message.buttons = [button]
            } else if let button = onItButton(for: planned, in: &transaction, now: now) {
                // Her channels got the same alarm: this one is told apart by what it asks.
                made.message.buttons = [button]
                made.message.title = "Are you on it? " + made.message.title
            }
            return made
        }
    }

    /// Records one attempt; after the third failure in a row the member is told the channel
    /// keeps failing.
    private static func record(
        _ attempt: DeliveryAttempt, of job: DeliveryJob, in transaction: inout Transaction, at now: Timestamp,
        report: inout DeliveryReport
    ) {
        transaction.recordDelivery(attempt, at: now)
        if attempt.succeeded {
            report.delivered.append(job)
            // Told to an external contact: the whole circle learns it, and nobody sends it again.
            if case .external = job.notification.recipient {
                transaction.record(Delivered(notification: job.notification.id, channel: job.channel), at: now)
            }
            return
        }
        let error = attempt.error ?? "failed"
        let key = DeliveryKey(notification: job.notification.id, channel: job.channel)
        report.failures.append(
            DeliveryProblem(job: job, error: error, next: transaction.feed.deliveries[key]?.nextAttempt))
        let failures = transaction.feed.deliveries[key]?.failures ?? 0
        if failures == DeliveryState.failuresBeforeWarning, job.notification.kind != .system {
            transaction.notice(
                Notifications.channelFailing(
                    job.channelName, error: error, member: transaction.member, at: now, failures: failures))
        }
    }

    /// How one channel did in a test.
    public struct ChannelTest: Sendable {
        public var channel: String
        public var succeeded: Bool
        public var error: String?
    }

    /// Sends a test through my channels, or through those of the contact `text` names.
    public func testChannels(of text: String?) throws(AppError) -> [ChannelTest] {
        let (store, snapshot) = try read()
        let circle = snapshot.state
        let me = store.identity.member
        var channels = circle.members[me]?.effectivePreferences.channels ?? []
        var recipient = Notification.Recipient.member(me)
        var label: String? = nil
        if let text {
            let contact = try Self.find(text, in: circle.contacts(of: me))
            label = contact.name
            if let external = contact.external {
                channels = external.channels
                recipient = .external(owner: me, id: contact.id)
            } else {
                channels = circle.members[contact.id]?.effectivePreferences.channels ?? []
                recipient = .member(contact.id)
            }
        }
        guard !channels.isEmpty else { throw .refused(.feed(.noChannels(contactName: label))) }
        // This device's phone topic, or the contact's button topic here, is tried too.
        let topics = store.privateTopics(circle: circle)
        channels += DeliveryRules.localChannels(to: recipient, me: me, circle: circle, local: topics.channels)
        let name = circle.members[me]?.name?.value ?? "lifesignal"
        let notification = Notification(
            kind: .system, cause: "test|\(now.seconds)",
            message: "This is a test from \(name)'s lifesignal. If you can read this, this channel works.",
            at: now, subject: me, recipient: recipient)
        var message = Messages.make(notification, circle: circle, feed: Feed(), sentAt: now, zone: displayZone)
        message.title = "Test from \(name)'s lifesignal"
        let mail = circle.members[me]?.mail?.value
        return channels.map { channel in
            let address = topics.address(of: channel)
            let attempt = self.channels.send(
                notification, message, address ?? channel, mail, environment, self.channels.timeout)
            let shown = address.map { "\(label.map { "\($0)'s button" } ?? "your phone") topic on this device, \($0)" }
            return ChannelTest(channel: shown ?? channel, succeeded: attempt.succeeded, error: attempt.error)
        }
    }
}
