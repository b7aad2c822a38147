/// How delivery of one notification through one channel stands: tries, failures and the
/// pauses between them.

/// One try at delivering a notification through a channel.
public struct DeliveryAttempt: Equatable, Sendable {
    public var notification: String
    public var channel: String
    public var succeeded: Bool
    /// What went wrong, for a failure (the program's message, a timeout).
    public var error: String?

    public init(notification: String, channel: String, succeeded: Bool, error: String?) {
        self.notification = notification
        self.channel = channel
        self.succeeded = succeeded
        self.error = error
    }
}

public struct DeliveryKey: Hashable, Comparable, Sendable {
    public var notification: String
    public var channel: String

    public init(notification: String, channel: String) {
        self.notification = notification
        self.channel = channel
    }

    public static func < (a: DeliveryKey, b: DeliveryKey) -> Bool {
        (a.notification, a.channel) < (b.notification, b.channel)
    }
}

/// A delivery to an external contact as the circle records it: the stamp of the first device
/// that recorded it, and that device's member (the one the record is believed about).
public struct DeliveryRecord: Equatable, Sendable {
    public var stamp: Stamp
    public var by: String
}

/// Where one notification stands on one channel: attempts so far, the last one, and whether it
/// got through. Failures are retried with growing pauses (`nextAttempt`).
public struct DeliveryState: Equatable, Sendable {
    public var failures: Int = 0
    public var lastAttempt: Timestamp?
    public var deliveredAt: Timestamp?
    public var lastError: String?

    public init() {}

    /// Pauses before the 2nd, 3rd, … attempt: 1m, 5m, 15m, 1h, then every 4h.
    public static let backoff: [TimeSpan] = [.minutes(1), .minutes(5), .minutes(15), .hours(1), .hours(4)]
    /// After this many failures in a row, the member is told the channel keeps failing.
    public static let failuresBeforeWarning = 3

    public var isDelivered: Bool { deliveredAt != nil }

    /// When the next attempt may be made (nil: now, or never again once delivered).
    public var nextAttempt: Timestamp? {
        guard !isDelivered, failures > 0, let last = lastAttempt else { return nil }
        return last + DeliveryState.backoff[min(failures, DeliveryState.backoff.count) - 1]
    }

    public func isDue(now: Timestamp) -> Bool {
        !isDelivered && (nextAttempt.map { now >= $0 } ?? true)
    }

    public mutating func record(_ attempt: DeliveryAttempt, at time: Timestamp) {
        if attempt.succeeded {
            if deliveredAt.map({ time < $0 }) ?? true { deliveredAt = time }
        } else if !isDelivered {
            failures += 1
            if lastAttempt.map({ time >= $0 }) ?? true {
                lastAttempt = time
                lastError = attempt.error
            }
        }
        if attempt.succeeded, lastAttempt.map({ time >= $0 }) ?? true { lastAttempt = time }
    }

    public mutating func merge(_ other: DeliveryState) {
        if let theirs = other.deliveredAt, deliveredAt.map({ theirs < $0 }) ?? true { deliveredAt = theirs }
        failures = max(failures, other.failures)
        if let theirs = other.lastAttempt, lastAttempt.map({ theirs > $0 }) ?? true {
            lastAttempt = theirs
            lastError = other.lastError
        }
    }
}
