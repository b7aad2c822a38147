import LifeSignalCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How much of other devices' records one run reads. Whoever can write the circle folder can
/// fill it with members and logs of their own making; without a bound, every run (and the lock
/// a check-in waits for) would last as long as reading them takes. A log of another device
/// holds at most `logLimit` (a real one holds a tail of at most 200 events and its state: tens
/// of kilobytes), and a run reads at most `othersLimit` of them in all — those linked with this
/// reader first, then everyone else; what is left out is said, never taken for silence.
final class ReadBudget: @unchecked Sendable {
    static let logLimit = 8 << 20
    static let othersLimit = 128 << 20

    private var left: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(bytes: Int) {
        left = bytes
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Whether this run has read all it reads of others.
    var isSpent: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return left <= 0
    }

    func spend(_ bytes: Int) {
        pthread_mutex_lock(mutex)
        left -= bytes
        pthread_mutex_unlock(mutex)
    }

    /// Why the log at `path` was left out.
    func leftOut(_ path: String) -> StoreError {
        .unreadable(
            path: path,
            reason:
                "not read, nor any log after it: this run had read \(Self.othersLimit >> 20) MiB of other devices' records, the most one run reads (those of the people you are linked with come first). Someone may have filled the circle folder with records of their own: look at what 'lifesignal doctor' lists, and remove what nobody of your circle wrote",
            backup: nil)
    }
}
