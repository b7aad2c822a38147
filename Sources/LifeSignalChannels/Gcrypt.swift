import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// git-remote-gcrypt: the remote helper that encrypts a git remote (`gcrypt::URL`) to the
/// OpenPGP keys of the circle's members, so the host holds only ciphertext. lifesignal runs it
/// through the system's git like any remote; what this adds: gpg never prompts (a cron job has
/// no terminal to prompt on), and what gcrypt and gpg say when they fail becomes what to do.
public enum Gcrypt {
    /// Whether a remote URL goes through gcrypt.
    public static func encrypts(_ url: String) -> Bool { url.hasPrefix("gcrypt::") }

    /// gpg's options for every gcrypt run: no terminal, no pinentry. A key without a passphrase,
    /// or one whose passphrase gpg-agent holds, works; any other fails at once, said plainly.
    public static let gpgArguments = "--batch --no-tty --pinentry-mode=error"

    static let passphrase =
        "gpg needs the passphrase of your key, and 'circle sync' never asks for one (cron has no terminal): give the circle a key without a passphrase (see 'git, encrypted for the host' in lifesignal's guide, docs/GUIDE.md), or have gpg-agent hold the passphrase before cron runs (gpg-preset-passphrase)"

    /// What gcrypt or gpg said went wrong, as what to do; nil when neither said anything known.
    static func problem(_ lines: [String]) -> String? {
        let text = lines.joined(separator: "\n")
        if text.includes("Unable to find remote helper for 'gcrypt'") || text.includes("'remote-gcrypt' is not a git") {
            return
                "the remote is a gcrypt:: one and git-remote-gcrypt is not installed here; install it (apt-get install git-remote-gcrypt gnupg)"
        }
        if [
            "No pinentry", "Inappropriate ioctl for device", "No passphrase given", "Operation cancelled",
            "Bad passphrase",
        ]
        .contains(where: text.includes) {
            return passphrase
        }
        if text.includes("Failed to verify manifest signature") {
            let line = lines.first { $0.includes("Only accepting signatories:") } ?? ""
            let signers =
                line.firstRange(ofText: "signatories:").map { String(line[$0.upperBound...]).trimmingWhitespace }
                ?? "none"
            return
                "the remote was last pushed with a key that is not in remote.origin.gcrypt-participants here (accepted: \(signers)); when a member was added, import their public key (gpg --import THEIRS.asc) and add it to that list in the circle folder (git config remote.origin.gcrypt-participants '…'), as every member does"
        }
        if text.includes("Failed to decrypt manifest") {
            return
                "the remote is not encrypted to a secret key this machine's gpg holds (gpg -K lists them): a member whose 'circle sync' works adds your key to remote.origin.gcrypt-participants on their machine and syncs; and GNUPGHOME, if you use one, must be set where this runs (cron too)"
        }
        if text.includes("but repository ID is set") {
            return
                "the encrypted remote holds nothing, though this clone has used it before (remote.origin.gcrypt-id is set); if its repository was emptied or replaced on purpose, remove that setting in the circle folder (git config --unset remote.origin.gcrypt-id) and sync again"
        }
        if text.includes("You have not configured any keys you can encrypt to") {
            return
                "none of the keys in remote.origin.gcrypt-participants is in this machine's keyring (gpg -k); import them (gpg --import FILE), or set the list in the circle folder (git config remote.origin.gcrypt-participants 'KEY …')"
        }
        return nil
    }

    /// The participants a push left out because this machine's keyring lacks their key: what it
    /// pushed is not encrypted to them.
    public static func skippedKeys(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            let text = String(line)
            guard let range = text.firstRange(ofText: "Skipping missing key ") else { return nil }
            return String(text[range.upperBound...]).trimmingWhitespace
        }
    }
}

extension Git {
    /// This git with gpg told never to prompt for gcrypt (after the user's own gpg arguments).
    public func forGcrypt() -> Git {
        let own = lines(["config", "--get", "gcrypt.gpg-args"])?.first.map { $0 + " " } ?? ""
        var git = self
        git.settings.append("gcrypt.gpg-args=" + own + Gcrypt.gpgArguments)
        return git
    }
}

/// The host's side of a gcrypt remote kept in a bare repository of this clone, so that a push
/// never replaces another machine's. gcrypt writes its whole encrypted store as one new commit
/// with no parent and pushes it with force: two machines pushing at once would each replace
/// the other's, and a host cannot refuse it (every push is a forced one). Here gcrypt reads
/// and writes the mirror (git's `insteadOf` sends its storage fetches and pushes there), and
/// the mirror's branch goes to the host with `--force-with-lease`: only over the commit it was
/// taken from, which the host checks atomically, so a push that raced another is refused and
/// made again over theirs.
public struct GcryptMirror: Sendable {
    /// The host's git URL (the `gcrypt::` prefix and `#branch` taken off).
    public let host: String
    /// The branch the host stores gcrypt's files on (`master`, or the URL's `#branch`).
    public let branch: String
    let mirror: Git

    /// The mirror for a remote URL, when gcrypt stores through git (not rsync://, sftp://,
    /// rclone:// or a plain folder, which it writes itself).
    public init?(url: String, clone: Git) {
        guard Gcrypt.encrypts(url) else { return nil }
        var host = String(url.dropFirst("gcrypt::".count))
        var branch = "master"
        if let hash = host.lastIndex(of: "#") {
            branch = String(host[host.index(after: hash)...])
            host = String(host[..<hash])
        }
        let direct = ["rsync://", "sftp://", "rclone://", "gitception://"].contains { host.hasPrefix($0) }
        if direct || host.isEmpty || branch.isEmpty { return nil }
        if host.hasPrefix("/"), !Self.exists(host + "/HEAD") { return nil }
        self.host = host
        self.branch = branch
        mirror = clone.at(Paths.join(clone.directory, ".git/lifesignal-gcrypt"))
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The clone's git with gcrypt's storage sent to the mirror.
    public func redirect(_ clone: Git) -> Git {
        var git = clone
        git.settings.append("url.\(mirror.directory).insteadOf=\(host)")
        return git
    }

    /// Takes the host's branch into the mirror: what it was (nil: the host has none yet), or
    /// why it could not be read.
    public func take() -> Result<String?, Git.Failure> {
        if !Self.exists(Paths.join(mirror.directory, "HEAD")) {
            let made = mirror.at("/").run(["init", "-q", "--bare", mirror.directory])
            if !made.succeeded { return .failure(Git.Failure(problem: made.problem)) }
        }
        let listed = mirror.run(["ls-remote", host, "refs/heads/" + branch])
        if !listed.succeeded { return .failure(Git.Failure(problem: listed.problem)) }
        if listed.output.trimmingWhitespace.isEmpty {
            _ = mirror.run(["update-ref", "-d", "refs/heads/" + branch])
            return .success(nil)
        }
        let fetched = mirror.run(["fetch", "-q", "-f", host, "+refs/heads/\(branch):refs/heads/\(branch)"])
        if !fetched.succeeded { return .failure(Git.Failure(problem: fetched.problem)) }
        return .success(mirror.lines(["rev-parse", "-q", "--verify", "refs/heads/" + branch])?.first)
    }

    /// Sends the mirror's branch to the host only over `base`, what `take` found there:
    /// `.success(false)` when there was nothing new, `.failure` with `raced` when another
    /// machine pushed in between.
    public func publish(over base: String?) -> Result<Bool, Git.Failure> {
        let now = mirror.lines(["rev-parse", "-q", "--verify", "refs/heads/" + branch])?.first
        if now == base { return .success(false) }
        let ref = "refs/heads/" + branch
        let pushed = mirror.run(["push", "-q", "--force-with-lease=\(ref):\(base ?? "")", host, "\(ref):\(ref)"])
        if pushed.succeeded { return .success(true) }
        let raced =
            pushed.stderr.includes("stale info") || pushed.stderr.includes("fetch first")
            || pushed.stderr.includes("cannot lock ref") || pushed.stderr.includes("already exists")
        return .failure(Git.Failure(problem: pushed.problem, raced: raced))
    }
}

extension Git {
    /// Why a git operation failed; `raced`: another machine changed the remote meanwhile.
    public struct Failure: Error, Sendable {
        public var problem: String
        public var raced = false

        public init(problem: String, raced: Bool = false) {
            self.problem = problem
            self.raced = raced
        }
    }

    /// The same git (environment, settings) in another directory.
    func at(_ directory: String) -> Git {
        var git = self
        git.directory = directory
        return git
    }
}

extension Git {
    /// Every remote's URLs (fetch and push), by remote name.
    public func remoteURLs() -> [(name: String, url: String)] {
        let pattern = "^remote\\..*\\.(url|pushurl)$"
        return (lines(["config", "--get-regexp", pattern]) ?? []).compactMap { line in
            guard let space = line.firstIndex(of: " ") else { return nil }
            let key = line[..<space].split(separator: ".")
            guard key.count >= 3 else { return nil }
            let name = key.dropFirst().dropLast().joined(separator: ".")
            return (name, String(line[line.index(after: space)...]))
        }
    }

    /// This machine's own names: its host name, with and without its domain.
    public static func machineNames() -> [String] {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let short = String(name.prefix { $0 != "." })
        return name.isEmpty ? [] : Array(Set([name, short]))
    }
}
