import Foundation
import LifeSignalCore
import Testing

@testable import LifeSignalStore

/// Ana, Bea and whoever else, each with a data directory of their own under `root` and one
/// circle folder: the setting of the cache's tests.
protocol SharedCircle {
    var root: String { get }
}

extension SharedCircle {
    var ana: String { root + "/ana" }
    var bea: String { root + "/bea" }
    var circle: String { root + "/circle" }
    static var t0: Timestamp { Timestamp(seconds: 1_772_355_600) }

    /// `name`'s check-in from `directory`, creating the profile in the shared circle first.
    func checkIn(_ directory: String, _ name: String, note: String) throws {
        try checkIn(directory, name, note: note, at: Self.t0)
    }

    func checkIn(_ directory: String, _ name: String, note: String, at time: Timestamp) throws {
        _ = try Store.update(
            dataDirectory: directory, lockTimeout: 5,
            creation: .ifMissing(NewProfile(name: name, interval: .hours(24), reminder: nil, circle: circle)),
            now: time
        ) { transaction in
            transaction.record(CheckedIn(note: note), at: time)
        }
    }

    /// Ana and Bea check in once each; Ana's store (its cache built from both, with `cached`)
    /// and Bea's member id.
    func anaAndBea(cached: Bool = true) throws -> (store: Store, bea: String) {
        try checkIn(ana, "Ana", note: "a1")
        try checkIn(bea, "Bea", note: "b1")
        let store = try Store.open(dataDirectory: ana)
        if cached { _ = try store.snapshot() }
        return (store, try Store.open(dataDirectory: bea).identity.member)
    }

    /// Rewrites Ana's cache with a marker name for Bea, keeping every key: if a snapshot shows
    /// the marker, it came from the cache.
    func plantMarker(bea member: String) throws {
        let store = try Store.open(dataDirectory: ana)
        var cache = try #require(CircleCache.load(store))
        #expect(cache.others.members[member]?.name?.value == "Bea")
        cache.others.members[member]?.name?.value = "CACHED"
        cache.save(ana)
    }
}
