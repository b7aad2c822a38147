import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Mail from cron with the README's crontabs, which set no PATH for mail: cron's PATH is
/// /usr/bin:/bin, and the mailer (msmtp-mta, postfix, exim) lives in /usr/sbin. Real msmtp as
/// /usr/sbin/sendmail against the harness's SMTP server, configured as the guide's "E-mail"
/// section shows (~/.msmtprc).
@Suite(.integration) struct CronMailTests {
    /// msmtp installed as the system's sendmail (Debian's msmtp-mta; `.ci/run` installs it).
    static let systemSendmailIsMSMTP: Bool = {
        guard let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/usr/sbin/sendmail") else {
            return false
        }
        return real.hasSuffix("msmtp")
    }()
    static let hasMail = systemSendmailIsMSMTP && DeliveryTools.pythonWithAiosmtpd != nil

    /// An account's HOME with a ~/.msmtprc for the SMTP server on `port`.
    static func home(port: Int) throws -> TempHome {
        let home = TempHome()
        let config = """
            defaults
            auth off
            tls off
            account default
            host 127.0.0.1
            port \(port)
            from bea@example.org

            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: home.path + "/.msmtprc"))
        #expect(chmod(home.path + "/.msmtprc", 0o600) == 0)
        return home
    }

    /// Exactly cron's environment: HOME, PATH=/usr/bin:/bin, SHELL and nothing else.
    static func cron(_ home: TempHome, _ arguments: [String], now: String) -> Run {
        lifesignal(
            arguments,
            environment: [
                "HOME": home.path, "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh", "LIFESIGNAL_HOME": home.path + "/data",
                "LIFESIGNAL_NOW": now, "TZ": "UTC",
            ])
    }

    @Test(
        .enabled(
            if: hasMail, "needs msmtp-mta (msmtp as /usr/sbin/sendmail) and python3-aiosmtpd; .ci/run installs them"))
    func aMissedCheckInIsMailedFromCronWithoutAPathLine() throws {
        let server = try SMTPServer()
        defer { server.stop() }
        let home = try Self.home(port: server.port)
        #expect(Self.cron(home, ["init", "--name", "Bea", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(
            Self.cron(
                home, ["contacts", "add", "Sam", "--responder", "--email", "sam@example.org", "--quiet"],
                now: "2026-03-01T09:00:00Z"
            ).code == 0)
        #expect(Self.cron(home, ["checkin", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        let deliver = Self.cron(home, ["notify", "deliver"], now: "2026-03-02T09:20:00Z")
        #expect(deliver.code == 0, "\(deliver.stderr)")
        let mail = server.waitForMessages(1)
        #expect(mail.first?.header("Subject")?.hasPrefix("Bea missed the") == true, "\(mail)")
        #expect(mail.first?.to == ["sam@example.org"])
        // doctor, as cron would run it, finds the mailer and its configuration.
        let doctor = Self.cron(home, ["doctor"], now: "2026-03-02T09:21:00Z")
        #expect(!doctor.stdout.contains("would not be found when cron runs"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("no configuration file"), "\(doctor.stdout)")
    }

    /// msmtp without a configuration file sends nothing: `doctor` says so, pointing at the
    /// README's e-mail section.
    @Test(
        .enabled(
            if: systemSendmailIsMSMTP && !FileManager.default.fileExists(atPath: "/etc/msmtprc"),
            "needs msmtp-mta and no /etc/msmtprc"))
    func doctorSaysWhenMSMTPHasNoConfiguration() {
        let home = TempHome()
        #expect(Self.cron(home, ["init", "--name", "Bea", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(
            Self.cron(
                home, ["contacts", "add", "Sam", "--responder", "--email", "sam@example.org", "--quiet"],
                now: "2026-03-01T09:00:00Z"
            ).code == 0)
        let doctor = Self.cron(home, ["doctor"], now: "2026-03-01T09:01:00Z")
        #expect(doctor.code == 7)
        #expect(
            doctor.stdout.contains(
                "FAIL  channel of Sam mailto:sam@example.org: /usr/sbin/sendmail is msmtp, which has no configuration file"
            ),
            "\(doctor.stdout)")
        #expect(
            doctor.stdout.contains("as the \"E-mail\" section of lifesignal's guide (docs/GUIDE.md) shows"),
            "\(doctor.stdout)")
    }

    /// A channel whose program cron would not find fails the checkup, saying where it is (or
    /// that it is not installed).
    @Test func doctorChecksEachChannelsProgramAsCronWouldFindIt() {
        let home = TempHome()
        #expect(Self.cron(home, ["init", "--name", "Bea", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(
            Self.cron(home, ["notify", "prefs", "--channel", "desktop:"], now: "2026-03-01T09:00:00Z").code == 0)
        let doctor = Self.cron(home, ["doctor"], now: "2026-03-01T09:01:00Z")
        let installed = ["/usr/bin/notify-send", "/bin/notify-send"].contains {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if installed {
            #expect(!doctor.stdout.contains("notify-send would not be found"), "\(doctor.stdout)")
        } else {
            #expect(doctor.code == 7)
            #expect(
                doctor.stdout.contains(
                    "FAIL  your channel desktop:: notify-send would not be found when cron runs lifesignal: it is not installed; install libnotify-bin"
                ), "\(doctor.stdout)")
        }
    }

    /// After fixing a failing channel, `notify deliver --now` tries it at once; without
    /// `--now` it waits out its pause.
    @Test func deliverNowRetriesAFailingChannelAtOnce() throws {
        let home = TempHome()
        let broken = home.path + "/broken"
        let sent = home.path + "/sent"
        #expect(FileManager.default.createFile(atPath: broken, contents: Data()))
        #expect(home.run(["checkin", "--quiet"]).code == 0)
        #expect(
            home.run(["notify", "prefs", "--channel", "exec:test ! -e '\(broken)' && cat >> '\(sent)'"]).code == 0)
        let failing = home.run(["notify", "deliver"], now: "2026-03-02T08:40:00Z")
        #expect(failing.code == 75, "\(failing.stderr)")
        try FileManager.default.removeItem(atPath: broken)
        let waiting = home.run(["notify", "deliver"], now: "2026-03-02T08:40:10Z")
        #expect(waiting.code == 75, "still within its pause: \(waiting.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sent))
        let now = home.run(["notify", "deliver", "--now"], now: "2026-03-02T08:40:20Z")
        #expect(now.code == 0, "\(now.stderr)")
        #expect(((try? String(contentsOfFile: sent, encoding: .utf8)) ?? "").contains("check_in_reminder"))
    }
}
