import Foundation
import LifeSignalCore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// A real Syncthing pair on loopback (Debian's `syncthing`, its own config folders and API key,
// no discovery, no relays): machine A holds Ana's data directory, machine B Bob's, each with
// its own copy of the circle folder kept in step by Syncthing.

/// Two Syncthing instances sharing `a/circle` and `b/circle` under one temporary folder,
/// configured through their REST API; ended (SIGKILL) when the object goes away.
final class SyncthingPair: SyncthingMachines {
    static let syncthing = DeliveryTools.which("syncthing")
    let root = TempHome()
    var a: String { root.path + "/a/circle" }
    var b: String { root.path + "/b/circle" }

    init() throws {
        let script = root.path + "/pair.sh"
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: script))
        var environment = DeliveryTools.environment(home: root.path)
        environment["PATH"] = DeliveryTests.path()
        let run = lifesignal([script, root.path], environment: environment, executable: "/bin/bash")
        guard run.code == 0 else { throw HarnessError(description: "syncthing pair: \(run.stderr)") }
    }

    deinit {
        for name in ["a", "b"] { stop(name) }
    }

    /// Ends the Syncthing of machine `name` ("a" or "b"), as a machine that goes offline: its
    /// whole session (Syncthing may run as a monitor and a child), and waits until its port is
    /// closed.
    func stop(_ name: String) {
        if let text = try? String(contentsOfFile: root.path + "/\(name)/pid", encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        let port = UInt16(api(name).url.split(separator: ":").last.map(String.init) ?? "") ?? 0
        wait(10) { !Self.listening(port) }
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func listening(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    static func files(_ folder: String) -> [String] {
        FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
    }

    /// Starts the pair. Syncthing is started detached, with every inherited descriptor closed,
    /// so the test's wait for the script is not held by the daemons.
    static let script = #"""
        set -euo pipefail
        root=$1
        key=lifesignal-test-key
        for n in a b; do
          mkdir -p "$root/$n/circle" "$root/$n/st"
          syncthing generate --home="$root/$n/st" --no-default-folder >/dev/null 2>&1
        done
        ida=$(syncthing --home="$root/a/st" --device-id 2>/dev/null || syncthing serve --home="$root/a/st" --device-id)
        idb=$(syncthing --home="$root/b/st" --device-id 2>/dev/null || syncthing serve --home="$root/b/st" --device-id)
        port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
        ga=$(port); gb=$(port); la=$(port); lb=$(port)
        start() { # name gui — detached, with every inherited descriptor closed
          python3 - "$root/$1" "$2" "$key" <<'PY'
        import os, subprocess, sys
        home, gui, key = sys.argv[1], sys.argv[2], sys.argv[3]
        log = open(os.path.join(home, "st.log"), "wb")
        p = subprocess.Popen(["syncthing", "serve", "--home=" + os.path.join(home, "st"), "--no-browser", "--no-restart",
            "--no-upgrade", "--gui-address=http://127.0.0.1:" + gui, "--gui-apikey=" + key, "--skip-port-probing"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=True, start_new_session=True,
            env=dict(os.environ, STNODEFAULTFOLDER="1", STMONITORED="yes"))
        open(os.path.join(home, "pid"), "w").write(str(p.pid))
        PY
        }
        start a $ga; start b $gb
        echo $ga > "$root/a/gui"; echo $gb > "$root/b/gui"; echo $key > "$root/key"
        api() { curl -fsS -H "X-API-Key: $key" -X "$2" "http://127.0.0.1:$1/rest/$3" ${4:+-d "$4"}; }
        for g in $ga $gb; do for i in $(seq 100); do api $g GET system/ping >/dev/null 2>&1 && break; sleep 0.1; done; done
        opts() { echo "{\"listenAddresses\":[\"tcp://127.0.0.1:$1\"],\"globalAnnounceEnabled\":false,\"localAnnounceEnabled\":false,\"relaysEnabled\":false,\"natEnabled\":false,\"urAccepted\":-1,\"crashReportingEnabled\":false,\"autoUpgradeIntervalH\":0}"; }
        api $ga PATCH config/options "$(opts $la)" >/dev/null
        api $gb PATCH config/options "$(opts $lb)" >/dev/null
        api $ga PUT config/devices/$idb "{\"deviceID\":\"$idb\",\"addresses\":[\"tcp://127.0.0.1:$lb\"]}" >/dev/null
        api $gb PUT config/devices/$ida "{\"deviceID\":\"$ida\",\"addresses\":[\"tcp://127.0.0.1:$la\"]}" >/dev/null
        folder() { echo "{\"id\":\"circle\",\"label\":\"circle\",\"path\":\"$1\",\"type\":\"sendreceive\",\"rescanIntervalS\":2,\"fsWatcherEnabled\":true,\"fsWatcherDelayS\":1,\"devices\":[{\"deviceID\":\"$ida\"},{\"deviceID\":\"$idb\"}]}"; }
        api $ga PUT config/folders/circle "$(folder $root/a/circle)" >/dev/null
        api $gb PUT config/folders/circle "$(folder $root/b/circle)" >/dev/null
        """#
}

@Suite(
    .integration,
    .serialized,
    .enabled(
        if: SyncthingPair.syncthing != nil && DeliveryTools.curl != nil && DeliveryTools.python3 != nil,
        DeliveryTools.missing("syncthing")))
struct SyncthingTests {
    /// Ana on A, Bob on B, Bob watching over Ana, both synced; Bob's own channel a log file.
    static func anaAndBob(_ pair: SyncthingPair) throws -> (anaLog: String, bobLog: String) {
        let t0 = "2026-03-01T09:00:00Z"
        #expect(pair.run("ana", ["init", "--name", "Ana", "--circle", pair.a, "--quiet"], now: t0).code == 0)
        #expect(pair.run("ana", ["checkin", "--quiet"], now: t0).code == 0)
        #expect(pair.run("ana", ["circle", "sync"], now: t0).code == 0, "writes .stignore")
        #expect(FileManager.default.fileExists(atPath: pair.a + "/.stignore"))
        #expect(pair.wait { SyncthingPair.files(pair.b).contains { $0.hasSuffix("/log.json") } })
        let anaLog = try #require(SyncthingPair.files(pair.b).first { $0.hasSuffix("/log.json") })
        #expect(pair.run("bob", ["init", "--name", "Bob", "--circle", pair.b, "--quiet"], now: t0).code == 0)
        let code = pair.run("ana", ["contacts", "code"], now: t0).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let added = pair.run("bob", ["contacts", "add", code, "--dependent"], now: t0)
        #expect(added.code == 0, "\(added.stderr)")
        let bobLog = pair.root.path + "/bob.log"
        let channel = "exec:echo \"$LIFESIGNAL_TYPE\" >> '\(bobLog)'"
        #expect(pair.run("bob", ["notify", "prefs", "--channel", channel, "--quiet"], now: t0).code == 0)
        return (anaLog, bobLog)
    }

    /// Ana on A with her sister reached by a webhook, Bob watching over her on B, Bob's
    /// lifesignal told where B's Syncthing API is.
    static func anaWithSister(_ pair: SyncthingPair, _ recorder: HTTPRecorder) throws {
        _ = try anaAndBob(pair)
        let t0 = "2026-03-01T09:00:00Z"
        let sister = pair.run(
            "ana", ["contacts", "add", "Sis", "--responder", "--notify", recorder.url("/sis")], now: t0)
        #expect(sister.code == 0, "\(sister.stderr)")
        let (url, keyFile) = pair.api("b")
        let api = pair.run("bob", ["circle", "syncthing", "--api", url, "--key-file", keyFile], now: t0)
        #expect(api.code == 0, "\(api.stderr)")
        // Bob's copy holds Ana's sister before anything else happens.
        #expect(
            pair.wait {
                pair.run("bob", ["contacts", "show", "Ana"], now: t0).code == 0
                    && (try? String(
                        contentsOfFile: SyncthingPair.files(pair.b).filter { $0.hasSuffix("log.json") }
                            .map { pair.b + "/" + $0 }.first {
                                (try? String(contentsOfFile: $0, encoding: .utf8))?.contains("Sis") == true
                            } ?? "", encoding: .utf8))?.contains(recorder.url("/sis")) == true
            })
    }

    /// Syncthing stops on Bob's machine (not on Ana's): Ana keeps checking in, her check-ins no
    /// longer reach B, and Bob's device never tells her sister of a miss as confirmed.
    @Test(.enabled(if: HTTPRecorder.isAvailable, DeliveryTools.missing("python3")))
    func syncthingStoppedOnTheWatchersMachineNeverGivesAConfirmedAlarm() throws {
        let pair = try SyncthingPair()
        let recorder = try HTTPRecorder()
        try Self.anaWithSister(pair, recorder)
        pair.stop("b")
        #expect(pair.run("ana", ["checkin", "--quiet"], now: "2026-03-02T08:30:00Z").code == 0)
        for now in ["2026-03-02T09:20:00Z", "2026-03-02T10:00:00Z", "2026-03-02T11:05:00Z"] {
            let run = pair.run("bob", ["notify", "deliver"], now: now)
            #expect(run.code == 0, "\(run.stderr)")
        }
        let relays = BelievableAlarmTests.received(recorder)
        #expect(relays.allSatisfy { $0["confirmed"] as? Bool == false }, "\(relays)")
        let status = pair.run("bob", ["status"], now: "2026-03-02T09:30:00Z")
        #expect(status.stderr.contains("Syncthing's API at"), "\(status.stderr)")
    }

    /// Syncthing stops on Ana's machine (she is the one gone quiet): Bob's Syncthing says his
    /// folder is up to date, so his device tells her sister, confirmed, once.
    @Test(.enabled(if: HTTPRecorder.isAvailable, DeliveryTools.missing("python3")))
    func syncthingStoppedOnThePersonsMachineStillTellsOnce() throws {
        let pair = try SyncthingPair()
        let recorder = try HTTPRecorder()
        try Self.anaWithSister(pair, recorder)
        pair.stop("a")
        for now in ["2026-03-02T09:20:00Z", "2026-03-02T09:40:00Z"] {
            let run = pair.run("bob", ["notify", "deliver"], now: now)
            #expect(run.code == 0, "\(run.stderr)")
        }
        let relays = BelievableAlarmTests.received(recorder)
        #expect(relays.count == 1, "\(relays)")
        #expect(relays.first?["confirmed"] as? Bool == true)
        #expect((relays.first?["text"] as? String)?.contains("Syncthing's word") == true)
        // A is a trusted device of the folder: Bob's status and doctor say it can read it.
        let status = pair.run("bob", ["circle", "status"], now: "2026-03-02T09:40:00Z")
        #expect(status.stdout.contains("Host    readable by the host at "), "\(status.stdout)")
        #expect(status.stdout.contains("shared with it as a trusted device"), "\(status.stdout)")
        let doctor = pair.run("bob", ["doctor", "--json"], now: "2026-03-02T09:40:00Z")
        let checks = jsonObject(doctor.stdout)["checks"] as? [[String: Any]] ?? []
        #expect(checks.contains { $0["check"] as? String == "readers" }, "\(doctor.stdout)")
    }

    @Test func aMissedCheckInOnAReachesBobsDeliverOnB() throws {
        let pair = try SyncthingPair()
        let (_, bobLog) = try Self.anaAndBob(pair)
        // Ana's machine goes dark; Bob's cron runs past her deadline.
        let run = pair.run("bob", ["notify", "deliver"], now: "2026-03-02T09:30:00Z")
        #expect(run.code == 0, "\(run.stderr)")
        let told = (try? String(contentsOfFile: bobLog, encoding: .utf8)) ?? ""
        #expect(told.contains("receive_non_responsive_dependent_alert"), "\(told)")
    }

    @Test func aDamagedCopyOnBNeverReplacesAnasGoodLog() throws {
        let pair = try SyncthingPair()
        let (anaLog, _) = try Self.anaAndBob(pair)
        let onA = pair.a + "/" + anaLog
        let onB = pair.b + "/" + anaLog
        try Data("garbage from a broken disk".utf8).write(to: URL(fileURLWithPath: onB))
        // Syncthing carries it to A; Ana's next check-in puts her own copy back, loudly.
        pair.wait { (try? String(contentsOfFile: onA, encoding: .utf8))?.hasPrefix("garbage") == true }
        let checkin = pair.run("ana", ["checkin"], now: "2026-03-01T12:00:00Z")
        #expect(checkin.code == 0, "\(checkin.stderr)")
        let history = jsonObject(pair.run("ana", ["checkin", "history", "--json"], now: "2026-03-01T12:00:00Z").stdout)
        #expect(history["total"] as? Int == 2, "no acknowledged check-in lost")
        // And the good copy travels back to B: Bob sees her latest check-in.
        let healed = pair.wait {
            pair.run("bob", ["contacts", "show", "Ana"], now: "2026-03-01T12:00:00Z").stdout.contains(
                "2026-03-01 12:00")
        }
        #expect(healed, "Bob's machine never saw Ana's log put back")
        #expect(SyncthingPair.files(pair.a).allSatisfy { !$0.contains(".sync-conflict") })
    }

    /// 1,000 mixed operations on both machines while Syncthing keeps the folders in step: no
    /// conflict copies, and each machine ends up counting every check-in of the other.
    @Test func aThousandMixedOperationsLeaveNoConflictAndLoseNothing() throws {
        let pair = try SyncthingPair()
        _ = try Self.anaAndBob(pair)
        var generator = SystemRandomNumberGenerator()
        var checkIns = ["ana": 1, "bob": 0]
        let start = Timestamp(rfc3339: "2026-03-01T09:01:00Z") ?? Timestamp(seconds: 0)
        for step in 0..<1000 {
            let person = Bool.random(using: &generator) ? "ana" : "bob"
            let now = Timestamp(seconds: start.seconds + Int64(step) * 60).rfc3339
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6:
                if pair.run(person, ["checkin", "--quiet"], now: now).code == 0 { checkIns[person, default: 0] += 1 }
            case 6..<8: pair.run(person, ["status", "--quiet"], now: now)
            default: pair.run(person, ["notify", "deliver", "--quiet"], now: now)
            }
        }
        let end = Timestamp(seconds: start.seconds + 1000 * 60).rfc3339
        // Each machine's own history is complete.
        for person in ["ana", "bob"] {
            let history = jsonObject(pair.run(person, ["checkin", "history", "--json"], now: end).stdout)
            #expect(history["total"] as? Int == checkIns[person], "\(person)")
        }
        // And the folders converge: the same logs, byte for byte, on both machines.
        let converged = pair.wait(60) {
            let logs = SyncthingPair.files(pair.a).filter { $0.hasSuffix("/log.json") }
            return !logs.isEmpty
                && logs.allSatisfy {
                    FileManager.default.contentsEqual(atPath: pair.a + "/" + $0, andPath: pair.b + "/" + $0)
                }
        }
        #expect(converged, "the two copies of the circle never converged")
        let conflicts = (SyncthingPair.files(pair.a) + SyncthingPair.files(pair.b)).filter {
            $0.contains(".sync-conflict")
        }
        #expect(conflicts.isEmpty, "\(conflicts)")
    }
}

/// What a test's Syncthing machines share: each one's API, waiting for the folder to settle,
/// and lifesignal run as a person on their own machine.
protocol SyncthingMachines {
    var root: TempHome { get }
}

extension SyncthingMachines {
    /// The REST API of machine `name`'s Syncthing, and a file holding its key.
    func api(_ name: String) -> (url: String, keyFile: String) {
        let port =
            (try? String(contentsOfFile: root.path + "/\(name)/gui", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "0"
        return ("http://127.0.0.1:\(port)", root.path + "/key")
    }

    /// Waits until `condition` holds (Syncthing's watcher reacts within a second or two).
    @discardableResult
    func wait(_ seconds: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(200_000)
        }
        return condition()
    }

    /// lifesignal as `person`, whose data directory is on their own machine.
    @discardableResult
    func run(_ person: String, _ arguments: [String], now: String) -> Run {
        lifesignal(
            arguments,
            environment: [
                "LIFESIGNAL_HOME": root.path + "/" + person, "LIFESIGNAL_NOW": now, "TZ": "UTC",
                "PATH": DeliveryTests.path(), "HOME": root.path + "/" + person,
            ])
    }
}
