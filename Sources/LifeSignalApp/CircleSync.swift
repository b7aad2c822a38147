import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// `circle sync`: one run of keeping a circle in step through git, safely under cron. This
/// device's own files are committed and pushed; the other devices' files are taken from the
/// remote; this device's own files are never taken from anyone else. All of it under this
/// data directory's lock, so no check-in is written in between; a merge or rebase left behind
/// by a killed run is undone first; modes are put back after every checkout.
extension App {
    /// What a sync did.
    public struct SyncReport: Sendable {
        public enum Engine: String, Sendable { case git, syncthing }
        public var engine: Engine
        public var committed = false
        public var pulled = false
        public var pushed = false
        /// The remote was empty and got its first commit from here.
        public var bootstrapped = false
        /// Own files a remote commit had changed, put back as this device wrote them.
        public var restoredOwn: [String] = []
        /// A half-done merge or rebase from a killed run, undone.
        public var recovered: String?
        /// Files whose modes were put back.
        public var modesRestored = 0
        /// `.gitignore` or `.stignore` written.
        public var ignoreWritten: String?
        /// The remote no longer held what this device last pushed: another machine's push
        /// replaced it (a host that lets gcrypt's forced pushes through). Pushed again now.
        public var lostPush = false
        /// Keys of `remote.origin.gcrypt-participants` this machine's keyring lacks: what it
        /// pushed is not encrypted to them, so their owners cannot read the remote.
        public var notEncryptedTo: [String] = []
        /// How many times it fetched, merged and pushed (more than once: another machine
        /// pushed in between).
        public var attempts = 0
    }

    public func syncCircle() throws(AppError) -> SyncReport {
        let store = try openStore()
        let circle = store.circleDirectory
        if Posix.isDirectory(Paths.join(circle, ".stfolder")) {
            // Syncthing moves the files itself; lifesignal keeps its ignore patterns and modes.
            var report = SyncReport(engine: .syncthing)
            if try AppError.wrap({ () throws(StoreError) in try store.ensureIgnoreFile(".stignore") }) {
                report.ignoreWritten = ".stignore"
            }
            report.modesRestored = store.restoreModes()
            return report
        }
        guard Posix.exists(Paths.join(circle, ".git")) else { throw .refused(.sync(.notARepository(circle))) }
        let git = Git(directory: circle, environment: environment, runner: programs)
        let now = self.now
        let result = try AppError.wrap { () throws(StoreError) in
            try Store.holdingLock(dataDirectory: dataDirectory, timeout: lockTimeout) {
                Result { () throws(AppError) in try Self.gitSync(git, store: store, now: now) }
            }
        }
        return try result.get()
    }

    private static func gitSync(_ git: Git, store: Store, now: Timestamp) throws(AppError) -> SyncReport {
        var report = SyncReport(engine: .git)
        report.recovered = recover(git, store: store)
        let own = store.ownRelativePath
        if try AppError.wrap({ () throws(StoreError) in try store.ensureIgnoreFile(".gitignore") }) {
            report.ignoreWritten = ".gitignore"
        }
        // The ignore file first, on its own: nothing is ever committed before it.
        if try commit(git, paths: [".gitignore"], message: "lifesignal: ignore backups, temporary files and caches") {
            report.committed = true
        }
        if try commit(git, paths: [own], message: "lifesignal: records of device \(store.identity.device.prefix(8))") {
            report.committed = true
        }
        guard let branch = git.lines(["symbolic-ref", "--short", "HEAD"])?.first else {
            throw .refused(.sync(.detachedHead(store.circleDirectory)))
        }
        guard let url = git.lines(["remote", "get-url", "origin"])?.first else {
            throw .refused(.sync(.noRemote(store.circleDirectory)))
        }
        if Gcrypt.encrypts(url) {
            let mirror = GcryptMirror(url: url, clone: git)
            let gcrypt = mirror.map { $0.redirect(git.forGcrypt()) } ?? git.forGcrypt()
            try exchange(gcrypt, mirror: mirror, branch: branch, store: store, now: now, &report)
        } else {
            try exchange(git, mirror: nil, branch: branch, store: store, now: now, &report)
        }
        report.modesRestored = store.restoreModes()
        return report
    }

    /// What this device last pushed, kept in its clone: a remote that no longer holds it lost a push.
    static let pushedRef = "refs/lifesignal/pushed"

    /// Fetches, merges and pushes, again when another device pushed in between. Through a
    /// gcrypt `mirror`, the host's branch is taken first and published over what was taken.
    private static func exchange(
        _ git: Git, mirror: GcryptMirror?, branch: String, store: Store, now: Timestamp, _ report: inout SyncReport
    ) throws(AppError) {
        let own = store.ownRelativePath
        let attempts = mirror == nil ? 3 : 6
        for attempt in 1...attempts {
            report.attempts = attempt
            // How each fetch went is kept in this machine's health record: the last one that
            // was fetched and merged is until when this copy is known current (Freshness.swift).
            let base = try mirror.map { mirror throws(AppError) in try fetched(mirror.take(), store: store, now: now) }
            if case .some(.none) = base, !git.run(["rev-parse", "-q", "--verify", pushedRef]).succeeded {
                // The host holds nothing and this clone never published: an id gcrypt kept
                // from a first push that failed (a key it could not use) would refuse it.
                _ = git.run(["config", "--unset", "remote.origin.gcrypt-id"])
            }
            let fetch = git.run(["fetch", "-q", "origin"])
            _ = try fetched(
                fetch.succeeded ? .success(()) : .failure(Git.Failure(problem: fetch.problem)), store: store, now: now)
            let remote = "refs/remotes/origin/\(branch)"
            if git.run(["rev-parse", "-q", "--verify", remote]).succeeded {
                if git.run(["rev-parse", "-q", "--verify", pushedRef]).succeeded,
                    !git.run(["merge-base", "--is-ancestor", pushedRef, remote]).succeeded
                {
                    report.lostPush = true
                }
                let mine = git.lines(["rev-parse", "HEAD"])?.first ?? ""
                try merge(git, remote, own: own)
                report.pulled = true
                report.restoredOwn = try keepOwn(git, own: own, from: mine)
            } else {
                report.bootstrapped = true
            }
            HealthFile.update(dataDirectory: store.dataDirectory) { $0.sync.record(error: nil, at: now) }
            let push = git.run(["push", "-q", "origin", "HEAD:refs/heads/\(branch)"])
            if push.succeeded, let mirror, let base {
                switch mirror.publish(over: base) {
                case .success: break
                case .failure(let failure) where failure.raced && attempt < attempts: continue
                case .failure(let failure): throw .unavailable(.git(failure.problem))
                }
            }
            if push.succeeded {
                report.pushed = true
                report.notEncryptedTo = Gcrypt.skippedKeys(push.stderr)
                _ = git.run(["update-ref", pushedRef, "HEAD"])
                return
            }
            // Another device pushed in between: integrate theirs and try again.
            let raced = [
                "fetch first", "non-fast-forward", "stale info", "cannot lock ref", "failed to update ref",
                "[rejected]",
            ].contains {
                push.stderr.includes($0)
            }
            if attempt == attempts || !raced { throw .unavailable(.git(push.problem)) }
        }
    }

    /// What a fetch gave; a failure is kept in this machine's health record and thrown.
    private static func fetched<T>(_ result: Result<T, Git.Failure>, store: Store, now: Timestamp) throws(AppError) -> T
    {
        switch result {
        case .success(let value): return value
        case .failure(let failure):
            HealthFile.update(dataDirectory: store.dataDirectory) { $0.sync.record(error: failure.problem, at: now) }
            throw .unavailable(.git(failure.problem))
        }
    }

    /// Undoes what a killed run left: a merge or rebase in progress, a stale index lock (this
    /// run holds the data directory's lock, so no other lifesignal uses the repository).
    static func recover(_ git: Git, store: Store) -> String? {
        let dotGit = Paths.join(store.circleDirectory, ".git")
        let indexLock = Paths.join(dotGit, "index.lock")
        // A git still running from a killed run finishes in moments; one this old is gone.
        if let age = Posix.secondsSinceModified(indexLock), age > Git.timeout + 5 {
            Posix.remove(indexLock)
        }
        if Posix.exists(Paths.join(dotGit, "rebase-merge")) || Posix.exists(Paths.join(dotGit, "rebase-apply")) {
            _ = git.run(["rebase", "--abort"])
            return "a rebase"
        }
        if Posix.exists(Paths.join(dotGit, "MERGE_HEAD")) {
            _ = git.run(["merge", "--abort"])
            return "a merge"
        }
        return nil
    }

    /// Commits what changed under `paths`; whether there was anything.
    static func commit(_ git: Git, paths: [String], message: String) throws(AppError) -> Bool {
        try run(git, ["add", "-A", "--"] + paths)
        if git.run(["diff", "--cached", "--quiet", "--"] + paths).succeeded { return false }
        try run(git, ["commit", "-q", "--no-verify", "-m", message, "--"] + paths)
        return true
    }

    /// Merges the remote. Devices write disjoint files, so a conflict can only be on this
    /// device's own files (a remote commit that changed them) or the ignore file: ours wins.
    static func merge(_ git: Git, _ remote: String, own: String) throws(AppError) {
        let merged = git.run(["merge", "-q", "--no-edit", "--allow-unrelated-histories", remote])
        if merged.succeeded { return }
        let conflicted = git.lines(["diff", "--name-only", "--diff-filter=U"]) ?? []
        guard !conflicted.isEmpty else {
            _ = git.run(["merge", "--abort"])
            throw .unavailable(.git(merged.problem))
        }
        for path in conflicted {
            let side = path.hasPrefix(own + "/") || path == ".gitignore" ? "--ours" : "--theirs"
            try run(git, ["checkout", side, "--", path])
            try run(git, ["add", "--", path])
        }
        try run(git, ["commit", "-q", "--no-verify", "--no-edit"])
    }

    /// Puts back this device's own files as they were before the merge, when a remote commit
    /// changed them, and removes any it added there (`git checkout` would leave those: a folder
    /// named like a backup, a made-up archive segment); returns the files put back or removed.
    static func keepOwn(_ git: Git, own: String, from mine: String) throws(AppError) -> [String] {
        guard !mine.isEmpty, let changed = git.lines(["diff", "--name-only", mine, "HEAD", "--", own]),
            !changed.isEmpty
        else { return [] }
        try run(git, ["restore", "--source=" + mine, "--staged", "--worktree", "--", own])
        _ = try commit(git, paths: [own], message: "lifesignal: keep this device's own records")
        return changed
    }

    static func run(_ git: Git, _ arguments: [String]) throws(AppError) {
        let outcome = git.run(arguments)
        if !outcome.succeeded { throw .unavailable(.git(outcome.problem)) }
    }
}
