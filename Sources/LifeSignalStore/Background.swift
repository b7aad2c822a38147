#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One piece of work on a second thread while the caller goes on: checking the key of every
/// file of a large circle (thousands of `stat` calls) while the cache is decoded, reading half
/// of a large circle's logs. A plain POSIX thread, so the binary links no concurrency runtime;
/// when no thread can be made the work runs in `join` instead.
struct Background<T: Sendable> {
    private let result = Slot<T>()
    private let thread: PlainThread

    init(_ work: @escaping @Sendable () -> T) {
        let slot = result
        thread = PlainThread { slot.value = work() }
    }

    /// Waits for the work and gives its result (nil only if it never ran, which `join`
    /// prevents by running it itself when no thread could be made).
    func join() -> T? {
        thread.join()
        return result.value
    }
}

/// Where the second thread leaves its result; read only after `join`.
private final class Slot<T: Sendable>: @unchecked Sendable {
    var value: T?
}

private final class PlainThread: @unchecked Sendable {
    private let work: @Sendable () -> Void
    private var thread: pthread_t?
    private var done = false

    init(_ work: @escaping @Sendable () -> Void) {
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
                    let job = Unmanaged<PlainThread>.fromOpaque(context).takeRetainedValue()
                #else
                    guard let context else { return nil }
                    let job = Unmanaged<PlainThread>.fromOpaque(context).takeRetainedValue()
                #endif
                job.work()
                return nil
            }, context)
        if status == 0 {
            thread = made
        } else {
            Unmanaged<PlainThread>.fromOpaque(context).release()
        }
    }

    func join() {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        } else if !done {
            work()
        }
        done = true
    }
}
