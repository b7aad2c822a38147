import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

extension DeliveryUseCaseTests {
    /// Review D4: Ana's laptop cannot read her phone inbox (its server answers 500), so an "I'm
    /// OK" tap there may wait unread. Her own miss still goes at once — it is the alarm's first
    /// way out — but marked unconfirmed, saying why; with the inbox read, the next is confirmed.
    @Test func herOwnMissWithHerInboxUnreadGoesAtOnceUnconfirmed() throws {
        let box = try Self.anaWithSam()
        _ = try box.app("ana", at: t0).setInbox(Self.inbox, phone: Self.phone)
        box.wire.fail(Self.inbox, saying: "HTTP 500")
        // With no "I'm OK" button out yet, an unread inbox can hold no tap: confirmed (review G4).
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        #expect(box.wire.sent(to: Self.sam).first?.message.confirmed == true)
        _ = try box.app("ana", at: "2026-03-02T10:00:00Z").checkIn(note: nil)
        // The reminder hands out a button; then the miss cannot be sure of itself.
        _ = try box.app("ana", at: "2026-03-03T09:35:00Z").deliver()
        #expect(box.wire.sent(to: "ntfy:" + Self.phone).last?.notification.kind == .checkInReminder)
        _ = try box.app("ana", at: "2026-03-03T10:05:00Z").deliver()
        let told = try #require(box.wire.sent(to: Self.sam).last)
        #expect(told.message.confirmed == false)
        #expect(told.message.title == "Ana may have missed the 10:00 check-in (unconfirmed)")
        #expect(
            told.message.summary.hasPrefix(
                "Unconfirmed: Ana's own computer could not confirm that its copy of Ana's records is up to date (Ana's phone inbox"
            ), "\(told.message.summary)")
        box.wire.fail(Self.inbox, saying: nil)
        _ = try box.app("ana", at: "2026-03-03T11:00:00Z").checkIn(note: nil)
        _ = try box.app("ana", at: "2026-03-04T10:35:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-04T11:05:00Z").deliver()
        // Campaign-diff F1: a button whose send to the phone failed never reached it, so no tap
        // could answer the miss: confirmed.
        box.wire.fail(Self.inbox, saying: "HTTP 500")
        box.wire.fail("ntfy:" + Self.phone, saying: "HTTP 500")
        _ = try box.app("ana", at: "2026-03-05T12:00:00Z").checkIn(note: nil)
        _ = try box.app("ana", at: "2026-03-06T11:35:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-06T12:05:00Z").deliver()
        let unreached = box.wire.sent(to: Self.sam).filter { $0.notification.kind == .dependentNonResponsive }.last
        #expect(unreached?.notification.at == Self.time("2026-03-06T12:00:00Z"))
        #expect(unreached?.message.confirmed == true, "no button reached the phone")
        let next = box.wire.sent(to: Self.sam).filter {
            $0.notification.kind == .dependentNonResponsive && $0.notification.at == Self.time("2026-03-04T11:00:00Z")
        }.last
        #expect(next?.notification.at == Self.time("2026-03-04T11:00:00Z"))
        #expect(next?.message.confirmed == true && next?.message.title.hasPrefix("Ana missed") == true)
    }
}
