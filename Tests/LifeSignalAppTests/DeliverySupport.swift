import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Helpers for the delivery rule tests (issue #41): what a sandbox's wire carried, read by
/// kind, and the feed a person's device holds.
enum Told {
    static let sam = DeliveryUseCaseTests.sam

    static func time(_ text: String) -> Timestamp { DeliveryUseCaseTests.time(text) }

    /// What went to `uri`, of `kind` only.
    static func sent(_ box: Sandbox, to uri: String = sam, _ kind: LifeSignalCore.Notification.Kind)
        -> [Wire.Sent]
    {
        box.wire.sent(to: uri).filter { $0.notification.kind == kind }
    }

    /// The kinds that went to `uri`, in order.
    static func kinds(_ box: Sandbox, to uri: String = sam) -> [LifeSignalCore.Notification.Kind] {
        box.wire.sent(to: uri).map(\.notification.kind)
    }

    /// The misses Sam was told of.
    static func misses(_ box: Sandbox, to uri: String = sam) -> [Wire.Sent] {
        sent(box, to: uri, .dependentNonResponsive)
    }

    /// Runs `person`'s delivery at each of `times`.
    static func deliver(_ box: Sandbox, _ person: String = "ana", at times: [String]) throws {
        for now in times { _ = try box.app(person, at: now).deliver() }
    }

    /// Everything in `person`'s feed at `now`.
    static func feed(_ box: Sandbox, _ person: String, at now: String) throws -> [LifeSignalCore.Notification] {
        try box.app(person, at: now).notifications(App.FeedFilter(everything: true)).entries
    }

    /// The latest notification of `kind` in `person`'s feed at `now`.
    static func entry(
        _ box: Sandbox, _ person: String, at now: String, _ kind: LifeSignalCore.Notification.Kind
    ) throws -> LifeSignalCore.Notification? {
        try feed(box, person, at: now).first { $0.kind == kind }
    }

    /// `person` says "I'm on it" for the latest miss in their feed, at `now`.
    @discardableResult
    static func acknowledgeMiss(_ box: Sandbox, _ person: String, at now: String) throws -> (
        acknowledged: LifeSignalCore.Notification, holdsUntil: Timestamp, delivery: App.DeliveryReport
    ) {
        let miss = try #require(try entry(box, person, at: now, .dependentNonResponsive))
        return try box.app(person, at: now).acknowledge(String(miss.id.prefix(8)))
    }
}
