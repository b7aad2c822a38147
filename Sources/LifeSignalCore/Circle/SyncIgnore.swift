/// The files a sync engine must never carry between machines: backups (one write behind, and
/// a rollback if they ever replaced a log), temporary files caught mid-write, and every private
/// file of a data directory (`DataFile`): the lock, caches, memory and secrets. Written into `.gitignore` or `.stignore` by `init --circle` and
/// `circle sync`, before anything else is shared.
public enum SyncIgnore {
    public static let patterns = ["*.bak", "*.bak.tmp", ".*.tmp.*", "*.tmp"] + DataFile.neverShared

    static let header = "# lifesignal: never share backups, temporary files, locks or caches"

    /// `text` with every pattern present, or nil when it has them all already.
    public static func completed(_ text: String) -> String? {
        let present = Set(text.split(separator: "\n").map { String($0).trimmingWhitespace })
        let missing = patterns.filter { !present.contains($0) }
        guard !missing.isEmpty else { return nil }
        var lines = text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
        if !present.contains(header) { lines += header + "\n" }
        for pattern in missing { lines += pattern + "\n" }
        return lines
    }
}
