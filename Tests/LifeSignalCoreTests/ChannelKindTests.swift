import LifeSignalCore
import Testing

/// The one place channel schemes are spelled: every kind parses back from the channels it makes,
/// and what help, errors and completion show is what they showed when each spelled its own.
@Suite struct ChannelKindTests {
    @Test(arguments: [
        ("desktop:", ChannelKind.desktop, ""), ("mailto:ann@example.org", .mail, "ann@example.org"),
        ("ntfy:https://ntfy.sh/ann-7k", .ntfy, "https://ntfy.sh/ann-7k"),
        ("https://hooks.example.org/x", .webhook, "https://hooks.example.org/x"),
        ("http://localhost:8080/x", .webhook, "http://localhost:8080/x"),
        ("apprise:tgram://token/chat", .apprise, "tgram://token/chat"),
        ("exec:/usr/bin/page-me", .exec, "/usr/bin/page-me"),
    ])
    func aChannelIsItsKindAndTarget(channel: String, kind: ChannelKind, target: String) {
        #expect(ChannelKind(of: channel) == kind)
        #expect(kind.target(of: channel) == target)
        #expect(kind.channel(target) == channel)
    }

    @Test func unknownSchemesHaveNoKind() {
        for channel in ["", "desktop:x", "ftp://example.org", "ntfy", "sms:+441234"] {
            #expect(ChannelKind(of: channel) == nil, "\(channel)")
        }
    }

    @Test func onlyTheNetworkKindsRunForOthers() {
        #expect(ChannelKind.allCases.filter(\.runsForOthers) == [.mail, .ntfy, .webhook, .apprise])
        #expect(DeliveryRules.runsForOthers("mailto:a@b.org") && !DeliveryRules.runsForOthers("exec:true"))
    }

    @Test func helpAndCompletionShowEveryKind() {
        #expect(
            ChannelKind.forms
                == "desktop:, mailto:ADDRESS, ntfy:https://HOST/TOPIC, https://… (webhook), apprise:URL or exec:COMMAND"
        )
        #expect(
            ChannelKind.allCases.map(\.completionPrefix)
                == ["desktop:", "mailto:", "ntfy:https://", "https://", "apprise:", "exec:"])
        #expect(Address.problem(withChannel: "sms:+441234")?.hasSuffix(ChannelKind.forms) == true)
    }
}
