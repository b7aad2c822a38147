import Testing

@testable import LifeSignalCore
@testable import LifeSignalStore

#if canImport(Glibc)
    import Glibc
#endif

/// A machine in trouble is an I/O error, never a damaged or unreadable file.
@Suite struct StoreErrorTests {
    @Test func aListingCutShortOrAMachineShortOfResourcesIsAnIOError() {
        for error in [
            SystemError(operation: "readdir", path: "/circle/members", code: EIO),
            SystemError(operation: "open", path: "/circle/log.json", code: EMFILE),
            SystemError(operation: "open", path: "/circle/log.json", code: ENOMEM),
        ] {
            guard case .io(let path, _, _, _) = error.asReadError(backup: nil) else {
                Issue.record("\(error) should be an I/O error")
                continue
            }
            #expect(path == error.path)
        }
        guard case .unreadable = SystemError(operation: "open", path: "/x", code: EACCES).asReadError(backup: nil)
        else {
            Issue.record("a file this process may not read is unreadable, not an I/O error")
            return
        }
    }
}
