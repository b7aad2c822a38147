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

/// Work on the indices `0..<count`, shared a chunk at a time by the caller and helper
/// threads. The helpers start taking chunks at once; `finish` has the caller take the chunks
/// left, then waits for the chunks in progress — and for a helper that never got a processor,
/// only until it does and finds nothing left, not for a share of the work set aside for it.
///
/// Two helpers, not one: Linux often queues a new thread on its creator's core, where it
/// waits until the creator blocks (measured on a 2-core VM: half the time a helper handed a
/// fixed half of the work started only when its creator had finished, doubling the wait it
/// was meant to halve); of two, one lands on another core. On a one-core machine the caller
/// does it all.
final class SharedWork<Part: Sendable>: @unchecked Sendable {
    let chunks: Chunks
    private let work: @Sendable (Chunks) -> Part
    private let helpers: [Background<Part>]

    init(count: Int, chunk: Int, _ work: @escaping @Sendable (Chunks) -> Part) {
        let chunks = Chunks(count: count, size: chunk)
        self.chunks = chunks
        self.work = work
        let wanted = count > chunk && sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 ? 2 : 0
        helpers = (0..<wanted).map { _ in Background { work(chunks) } }
    }

    /// Takes the chunks left on this thread and waits for the helpers: each thread's part,
    /// this one's last.
    func finish() -> [Part] {
        let mine = work(chunks)
        return helpers.compactMap { $0.join() } + [mine]
    }

    /// Hands out no more chunks and waits for those in progress.
    func cancel() {
        chunks.stop()
        for helper in helpers { _ = helper.join() }
    }
}

/// The indices `0..<count`, handed out a chunk at a time to whichever thread asks next (see
/// `SharedWork`).
final class Chunks: @unchecked Sendable {
    private let count: Int
    private let size: Int
    private var next = 0
    private var stopped = false
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(count: Int, size: Int) {
        self.count = count
        self.size = max(1, size)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// The next chunk, or nil when all are taken or the work was stopped.
    func take() -> Range<Int>? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !stopped, next < count else { return nil }
        let chunk = next..<min(next + size, count)
        next = chunk.upperBound
        return chunk
    }

    /// Hands out no more chunks: the answer is known (a key that no longer matches).
    func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_mutex_unlock(mutex)
    }

    /// Whether the work was stopped; read once every thread taking chunks has finished.
    var wasStopped: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return stopped
    }
}
