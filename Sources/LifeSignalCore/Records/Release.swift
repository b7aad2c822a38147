/// Which lifesignal this is. Logs record it (`writer`), so that a device that meets records of
/// a newer version can say which version wrote them.
public enum Release {
    public static var version: String { "0.1.0" }
    /// How a file names the program that wrote it.
    public static var writer: String { "lifesignal \(version)" }

    /// Whether a file's `writer` names this version or an older one (nil: a version that did
    /// not say, so an older one). A newer or unrecognised writer may have written records this
    /// version does not know.
    public static func isNotNewer(_ writer: String?) -> Bool {
        guard let writer else { return true }
        guard writer.hasPrefix("lifesignal ") else { return false }
        let theirs = writer.dropFirst("lifesignal ".count).split(separator: ".").map { Int($0) }
        let ours = version.split(separator: ".").map { Int($0) }
        guard theirs.count == 3, ours.count == 3 else { return false }
        for (a, b) in zip(theirs, ours) {
            guard let a, let b else { return false }
            if a != b { return a < b }
        }
        return true
    }
}
