import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a sync engine's checkout leaves behind, put right: records get back the modes
/// lifesignal gives them (git checks files out 0644 whatever they were), and the engine is
/// told which files are never to be shared.
extension Store {
    /// Closes the circle folder to others and sets every folder and file under its `members/`
    /// to `sharing`'s modes. Returns how many had to change.
    @discardableResult
    public func restoreModes() -> Int {
        let (directoryMode, fileMode) = sharing
        var changed = 0
        func walk(_ path: String) {
            guard let names = try? Posix.list(path) else { return }
            for name in names {
                let child = Paths.join(path, name)
                var info = stat()
                guard lstat(child, &info) == 0 else { continue }
                let kind = info.st_mode & S_IFMT
                let wanted = kind == S_IFDIR ? directoryMode : fileMode
                guard kind == S_IFDIR || kind == S_IFREG else { continue }
                if info.st_mode & 0o7777 != wanted, chmod(child, wanted) == 0 { changed += 1 }
                if kind == S_IFDIR { walk(child) }
            }
        }
        // The circle folder itself is closed to others too: a git clone's objects hold every
        // record, and are written readable by everyone.
        var info = stat()
        if lstat(circleDirectory, &info) == 0, info.st_mode & 0o007 != 0,
            chmod(circleDirectory, info.st_mode & 0o7770) == 0
        {
            changed += 1
        }
        walk(Paths.join(circleDirectory, "members"))
        return changed
    }

    /// Makes sure the ignore file at `path` (`.gitignore`, `.stignore`) lists every pattern of
    /// `SyncIgnore.patterns`; returns whether it had to be written.
    public func ensureIgnoreFile(_ name: String) throws(StoreError) -> Bool {
        let path = Paths.join(circleDirectory, name)
        var text = ""
        do {
            if case .contents(let bytes) = try Posix.read(path) { text = String(decoding: bytes, as: UTF8.self) }
        } catch {
            throw error.asReadError(backup: nil)
        }
        guard let updated = SyncIgnore.completed(text) else { return false }
        do {
            try Posix.replace(path, with: Array(updated.utf8), mode: 0o644)
        } catch {
            throw error.asIOError
        }
        return true
    }
}
