#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One piece of work on a second thread while the caller goes on: checking the key of every
/// file of a large circle (thousands of `stat` calls) while the cache is decoded. A plain
/// POSIX thread, so the binary links no concurrency runtime; when no thread can be made the
/// work runs in `join` instead.
final class Background: @unchecked Sendable {
    private let work: @Sendable () -> Bool
    private var result = false
    private var thread: pthread_t?

    init(_ work: @escaping @Sendable () -> Bool) {
        self.work = work
        #if canImport(Darwin)
            var made: pthread_t?
        #else
            var made = pthread_t()
        #endif
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(
            &made, nil,
            { context in
                #if canImport(Darwin)
                    let job = Unmanaged<Background>.fromOpaque(context).takeRetainedValue()
                #else
                    guard let context else { return nil }
                    let job = Unmanaged<Background>.fromOpaque(context).takeRetainedValue()
                #endif
                job.result = job.work()
                return nil
            }, context)
        if status == 0 {
            thread = made
        } else {
            Unmanaged<Background>.fromOpaque(context).release()
        }
    }

    /// Waits for the work and gives its result.
    func join() -> Bool {
        guard let thread else { return work() }
        pthread_join(thread, nil)
        self.thread = nil
        return result
    }
}
