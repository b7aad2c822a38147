import LifeSignalCore
import Testing

/// Which writer a log names decides whether its state may be read without its events: only a
/// log written by this version or an older one (one that holds no records this version would
/// have to warn about in its tail).
@Suite struct ReleaseTests {
    @Test(
        arguments: [
            (nil, true), ("lifesignal \(Release.version)", true), ("lifesignal 0.0.9", true),
            ("lifesignal 0.1.1", false), ("lifesignal 0.10.0", false), ("lifesignal 1.0.0", false),
            ("lifesignal 0.1", false), ("lifesignal 0.1.x", false), ("other 0.0.1", false), ("", false),
        ] as [(String?, Bool)])
    func aWriterIsNewerUnlessItSaysOtherwise(writer: String?, notNewer: Bool) {
        #expect(Release.isNotNewer(writer) == notNewer)
    }
}
