/// Which lifesignal this is. Logs record it (`writer`), so that a device that meets records of
/// a newer version can say which version wrote them.
public enum Release {
    public static var version: String { "0.1.0" }
    /// How a file names the program that wrote it.
    public static var writer: String { "lifesignal \(version)" }
}
