import LifeSignalCore
import Testing

/// Which git remote URLs name another machine, and which of them hold only ciphertext.
@Suite struct CircleReaderTests {
    @Test(arguments: [
        ("git@example.org:family/circle.git", "example.org", false),
        ("ssh://ana@git.example.org:2222/srv/circle.git", "git.example.org", false),
        ("https://github.com/family/circle.git", "github.com", false),
        ("gcrypt::git@example.org:family/circle.git", "example.org", true),
        ("gcrypt::rsync://nas.home/srv/circle", "nas.home", true),
        ("gcrypt::ssh://[2001:db8::1]/circle.git", "2001:db8::1", true),
        ("nas:circle.git", "nas", false),
    ])
    func aRemoteOnAnotherMachineIsItsHost(url: String, host: String, encrypted: Bool) {
        let reader = CircleReader.gitRemote(name: "origin", url: url, localNames: ["laptop"])
        #expect(reader?.host == host)
        #expect(reader?.encrypted == encrypted)
        #expect(reader?.via == .gitRemote(name: "origin", url: url))
    }

    @Test(arguments: [
        "/srv/family-circle.git", "../remote.git", "file:///srv/circle.git", "gcrypt::/srv/circle.git",
        "ssh://localhost/srv/circle.git", "laptop:circle.git", "gcrypt::file:///srv/x", "./a:b",
    ])
    func aRemoteOnThisMachineIsNobodyElse(url: String) {
        #expect(CircleReader.gitRemote(name: "origin", url: url, localNames: ["laptop"]) == nil)
    }
}
