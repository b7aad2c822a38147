import LifeSignalCore

/// `state.bin` in the data directory: what this device keeps of the person's duress setting
/// and alarms (see `DuressState`), 0600, never in the circle and never in a backup beside it.
/// Binary, with no word, name, address or message in it. Changed only under the data
/// directory's lock; a missing file is the empty state.
public enum DuressStateFile {
    public static func path(_ dataDirectory: String) -> String {
        DataFile.privateState.path(in: dataDirectory)
    }

    /// Whether there is anything kept: one `stat`, what every check-in with a note pays first.
    public static func exists(dataDirectory: String) -> Bool {
        Posix.exists(path(dataDirectory))
    }

    /// The state kept (empty when there is no file).
    public static func read(dataDirectory: String) throws(StoreError) -> DuressState {
        let path = Self.path(dataDirectory)
        let result: Posix.ReadResult
        do {
            result = try Posix.read(path)
        } catch {
            throw error.asIOError
        }
        guard case .contents(let bytes) = result else { return DuressState() }
        do {
            return try DuressState(decoding: bytes)
        } catch {
            switch error {
            case .newerVersion(let found):
                throw .newerSchema(path: path, found: Int64(clamping: found), supported: 1)
            case .notOurs, .truncated:
                throw .damaged(
                    path: path,
                    problem:
                        "is not a state file this lifesignal can read (it holds only the duress setting: move it aside and set the word again with 'lifesignal checkin duress set')",
                    backup: nil)
            }
        }
    }

    /// Changes the state under the lock; `change` returns what the caller needs. With nothing
    /// left, the file is removed. With `rewrite`, a state that did not change is written
    /// anyway (a check-in with a note writes it whether or not the note was the word).
    public static func update<T>(
        dataDirectory: String, lockTimeout: Int, rewrite: Bool = false,
        _ change: (inout DuressState) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        let result = try Store.holdingLock(dataDirectory: dataDirectory, timeout: lockTimeout) {
            Result { () throws(StoreError) -> T in
                var state = try read(dataDirectory: dataDirectory)
                let before = state
                let answer = try change(&state)
                guard rewrite || state != before else { return answer }
                let path = Self.path(dataDirectory)
                if state.isEmpty {
                    Posix.remove(path)
                } else {
                    try Store.write(state.encoded(), to: path, backup: false, mode: 0o600)
                }
                return answer
            }
        }
        return try result.get()
    }
}
