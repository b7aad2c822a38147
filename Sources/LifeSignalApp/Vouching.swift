import LifeSignalCore
import LifeSignalStore

/// `contacts vouch`: a responder says they have seen the person and they are fine, within the
/// limits of `Vouches`.
extension App {
    /// What a vouch did: whom it was for, the miss it ended, and their next deadline.
    public struct VouchResult: Sendable {
        public var name: String
        public var missed: Timestamp
        public var status: CheckInStatus
        public var delivery: DeliveryReport?
    }

    /// Vouches for `text`, someone I watch over, during their miss: "I have seen them and they
    /// are fine" (see `Vouching`).
    public func vouch(for text: String, note: String?) throws(AppError) -> VouchResult {
        let now = self.now
        let result = try write(needs: .circleAndFeed) { transaction throws(AppError) -> VouchResult in
            let me = transaction.member
            let circle = transaction.circle
            let contact = try Self.find(text, in: circle.contacts(of: me))
            guard contact.kind == .member, circle.roles(of: me, toward: contact.id)?.dependent ?? false else {
                throw .refused(.contact(.vouchIsForDependents(name: contact.name, external: contact.kind != .member)))
            }
            guard circle.answersFor(contact.id, watcher: me) else {
                throw .refused(.contact(.vouchNeedsConfirmation(name: contact.name)))
            }
            let status = circle.status(of: contact.id, now: now)
            guard status.phase == .overdue, let deadline = status.deadline else {
                throw .refused(.contact(.notMissed(name: contact.name, deadline: status.deadline)))
            }
            guard status.vouchedInARow < Vouching.inARow else {
                throw .refused(.contact(.vouchedTooOften(name: contact.name, count: status.vouchedInARow)))
            }
            let window = Vouching.window(for: status.interval)
            guard now <= deadline + window else {
                throw .refused(.contact(.vouchTooLate(name: contact.name, deadline: deadline, window: window)))
            }
            transaction.record(Vouched(member: contact.id, deadline: deadline, note: note), at: now)
            transaction.noticeDue(now: now)
            return VouchResult(
                name: contact.name, missed: deadline, status: transaction.circle.status(of: contact.id, now: now))
        }
        var done = result
        done.delivery = try deliver()
        return done
    }
}
