import Foundation
import Testing

@testable import LifeSignalStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Work shared in chunks between the caller and helper threads (`SharedWork`): the
/// large circle's key check and its first full read run on it.
@Suite struct SharedWorkTests {
    /// The indices a thread took, in the order it took them.
    private static func taking(_ chunks: Chunks) -> [Int] {
        var taken: [Int] = []
        while let chunk = chunks.take() { taken += chunk }
        return taken
    }

    @Test(arguments: [0, 1, 63, 64, 65, 1_000, 10_007])
    func everyIndexIsTakenExactlyOnce(count: Int) {
        let work = SharedWork(count: count, chunk: 64) { chunks in Self.taking(chunks) }
        let parts = work.finish()
        #expect(parts.joined().sorted() == Array(0..<count))
        #expect(!work.chunks.wasStopped)
    }

    @Test func aStopHandsOutNoMoreChunks() {
        let work = SharedWork(count: 1_000_000, chunk: 16) { chunks -> [Int] in
            var taken: [Int] = []
            while let chunk = chunks.take() {
                taken += chunk
                if chunk.contains(5_000) { chunks.stop() }
            }
            return taken
        }
        let taken = work.finish().joined()
        #expect(work.chunks.wasStopped)
        #expect(taken.contains(5_000))
        // The other threads went on only with what they took before the stop: how many that
        // is depends on the scheduler (a thread preempted between its take and its stop lets
        // the others run on), so the exact bound is shown on one thread below.
        #expect(taken.count < 1_000_000)
        #expect(work.chunks.take() == nil)
    }

    /// On one thread, exactly: the chunk that stops is the last one handed out.
    @Test func aStopIsTheLastChunkHandedOut() {
        let chunks = Chunks(count: 100_000, size: 16)
        var taken: [Int] = []
        while let chunk = chunks.take() {
            taken += chunk
            if chunk.contains(5_000) { chunks.stop() }
        }
        #expect(taken == Array(0..<5_008))
        #expect(chunks.take() == nil && chunks.wasStopped)
    }

    /// A helper that gets no processor until the caller waits for it (what a 2-core VM did
    /// to half the helpers it was handed): the caller has done all the work by then.
    @Test func theCallerTakesWhatAHelperDidNotStart() {
        let caller = pthread_self()
        let work = SharedWork(count: 10_000, chunk: 64) { chunks -> [Int] in
            if pthread_equal(pthread_self(), caller) == 0 { usleep(200_000) }
            return Self.taking(chunks)
        }
        let parts = work.finish()
        #expect(parts.dropLast().allSatisfy { $0.isEmpty }, "the helpers found nothing left")
        #expect(parts.last == Array(0..<10_000))
    }

    @Test func cancelWaitsForTheHelpersAndStops() {
        let work = SharedWork(count: 1_000_000, chunk: 1) { chunks in Self.taking(chunks).count }
        work.cancel()
        #expect(work.chunks.wasStopped)
        #expect(work.chunks.take() == nil)
    }
}
