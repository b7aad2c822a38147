import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// The rules of when a responder is told, run in-process: Ana (24h interval, checked in at
/// 09:00 on 1 March) with Sam, an external responder on a played channel, and cron's
/// `notify deliver` as the runs at the times given.
@Suite struct ScheduleRuleTests {
    static let sam = DeliveryUseCaseTests.sam

    func kinds(_ box: Sandbox) -> [LifeSignalCore.Notification.Kind] {
        box.wire.sent(to: Self.sam).map(\.notification.kind)
    }

    @Test func nothingIsToldBeforeTheDeadlineAndTheMissOnceAfterIt() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: "2026-03-02T08:55:00Z").deliver()
        #expect(kinds(box).isEmpty, "not yet due")
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-02T09:10:00Z").deliver()
        #expect(kinds(box) == [.dependentNonResponsive], "told once, not again by the next run")
    }

    @Test func aCheckInAfterTheMissSendsTheAllClear() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-02T09:30:00Z").checkIn(note: "phone was flat")
        _ = try box.app("ana", at: "2026-03-02T09:35:00Z").deliver()
        #expect(kinds(box) == [.dependentNonResponsive, .dependentCheckedIn])
        let clear = try #require(box.wire.sent(to: Self.sam).last)
        #expect(
            clear.message.summary
                == "Ana has checked in again, at 2026-03-02 09:30 UTC, after missing the check-in due 2026-03-02 09:00 UTC."
        )
        #expect(clear.message.follows == box.wire.sent(to: Self.sam).first?.message.id, "it follows the miss")
        #expect(clear.message.details.contains { $0.value.contains("phone was flat") }, "\(clear.message.details)")
    }

    @Test func aCheckInBeforeTheDeadlineTellsNobody() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-03T07:55:00Z").deliver()
        #expect(kinds(box).isEmpty)
        _ = try box.app("ana", at: "2026-03-03T08:05:00Z").deliver()
        #expect(kinds(box) == [.dependentNonResponsive], "the countdown restarted from 08:00")
    }

    @Test func aGracePeriodHoldsTheAlarmBackUntilItEnds() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).setGrace(.hours(2))
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-02T10:55:00Z").deliver()
        #expect(kinds(box).isEmpty, "within the grace period")
        _ = try box.app("ana", at: "2026-03-02T11:05:00Z").deliver()
        #expect(kinds(box) == [.dependentNonResponsive])
    }

    @Test func aPauseTellsItsStartAndNoMissUntilItEnds() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let until = try #require(Timestamp(rfc3339: "2026-03-05T09:00:00Z"))
        _ = try box.app("ana", at: "2026-03-01T10:00:00Z").pause(until: until, note: "in hospital", long: false)
        _ = try box.app("ana", at: "2026-03-01T10:05:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-03T09:05:00Z").deliver()
        #expect(kinds(box) == [.dependentPaused], "no miss while paused")
        let paused = try #require(box.wire.sent(to: Self.sam).first)
        #expect(paused.message.summary.contains("in hospital"), "\(paused.message.summary)")
    }

    @Test func aMissedTripIsToldWithItsNote() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let back = try #require(Timestamp(rfc3339: "2026-03-01T18:00:00Z"))
        _ = try box.app("ana", at: "2026-03-01T10:00:00Z").trip(until: back, note: "Ben Nevis, north face", long: false)
        _ = try box.app("ana", at: "2026-03-01T17:55:00Z").deliver()
        #expect(kinds(box).isEmpty, "the trip's note is not told before its deadline")
        _ = try box.app("ana", at: "2026-03-01T18:05:00Z").deliver()
        let told = try #require(box.wire.sent(to: Self.sam).first)
        #expect(told.notification.kind == .dependentNonResponsive)
        #expect(told.message.summary.contains("Ben Nevis, north face"), "\(told.message.summary)")
    }

    @Test func anAlertReachesTheResponderAtOnceAndItsEndFollows() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: "2026-03-01T12:00:00Z").raiseAlert(message: "fell, ankle")
        #expect(kinds(box) == [.dependentAlert], "sent by the alert's own run, not cron's")
        #expect(box.wire.sent(to: Self.sam).first?.message.summary.contains("fell, ankle") == true)
        _ = try box.app("ana", at: "2026-03-01T12:30:00Z").endAlert()
        #expect(kinds(box) == [.dependentAlert, .dependentAlertResolved])
    }

    @Test func anUnansweredMissIsRepeatedAndAnAcknowledgementStopsIt() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).setRepeat(.hours(1))
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-02T10:05:00Z").deliver()
        let misses = kinds(box).filter { $0 == .dependentNonResponsive }
        #expect(misses.count == 2, "told again after an hour: \(kinds(box))")
        let repeated = try #require(box.wire.sent(to: Self.sam).last)
        #expect(repeated.message.title.contains("second notice"), "\(repeated.message.title)")
    }
}
