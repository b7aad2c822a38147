import Foundation
import LifeSignalCore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Three real Syncthing instances on loopback (as in SyncthingTests): A holds Ana's machine, B
// Bob's, and C an always-on machine they do not trust with the circle. A and B know only C
// and are never on at the same time; C holds the folder as "receive encrypted", and A and B
// share it with C under an encryption password only they have.

/// Machines A, B and relay C; each can be stopped and started again; all are ended (SIGKILL)
/// when the object goes away.
final class SyncthingRelay: SyncthingMachines {
    static let password = "correct horse battery staple"
    let root = TempHome()
    func circle(_ name: String) -> String { root.path + "/\(name)/circle" }

    init() throws {
        try Data(Self.setUp.utf8).write(to: URL(fileURLWithPath: root.path + "/setup.sh"))
        try Data(Self.start.utf8).write(to: URL(fileURLWithPath: root.path + "/start.sh"))
        let run = shell([root.path + "/setup.sh", root.path])
        guard run.code == 0 else { throw HarnessError(description: "syncthing relay: \(run.stderr)") }
    }

    deinit {
        for name in ["a", "b", "c"] { stop(name) }
    }

    private func shell(_ arguments: [String]) -> Run {
        var environment = DeliveryTools.environment(home: root.path)
        environment["PATH"] = DeliveryTests.path()
        environment["PASSWORD"] = Self.password
        return lifesignal(arguments, environment: environment, executable: "/bin/bash")
    }

    /// Starts machine `name`'s Syncthing (again) and waits until its API answers.
    func start(_ name: String) throws {
        let run = shell([root.path + "/start.sh", root.path, name])
        guard run.code == 0 else { throw HarnessError(description: "syncthing \(name): \(run.stderr)") }
    }

    /// Ends machine `name`'s Syncthing, as a machine going offline, and waits for its port to close.
    func stop(_ name: String) {
        if let text = try? String(contentsOfFile: root.path + "/\(name)/pid", encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        try? FileManager.default.removeItem(atPath: root.path + "/\(name)/pid")
        let port = UInt16(api(name).url.split(separator: ":").last.map(String.init) ?? "") ?? 0
        wait(10) { !SyncthingPair.listening(port) }
    }

    /// The log.json files under a machine's folder, relative to it.
    func logs(_ name: String) -> [String] { SyncthingPair.files(circle(name)).filter { $0.hasSuffix("/log.json") } }

    /// Every byte of every file under `folder`.
    static func bytes(_ folder: String) -> Data {
        SyncthingPair.files(folder).reduce(into: Data()) { all, file in
            all += FileManager.default.contents(atPath: folder + "/" + file) ?? Data()
        }
    }

    /// Makes the three homes, their ids and ports.
    static let setUp = #"""
        set -euo pipefail
        root=$1
        port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
        for n in a b c; do
          mkdir -p "$root/$n/circle" "$root/$n/st"
          syncthing generate --home="$root/$n/st" --no-default-folder >/dev/null 2>&1
          (syncthing --home="$root/$n/st" --device-id 2>/dev/null || syncthing serve --home="$root/$n/st" --device-id) > "$root/$n/id"
          port > "$root/$n/gui"; port > "$root/$n/listen"
        done
        echo lifesignal-test-key > "$root/key"
        """#

    /// Starts one machine detached (every inherited descriptor closed) and sets it up: A and B
    /// know only C, as untrusted, and share the folder with it under the password; C knows both
    /// and holds the folder as receive-encrypted.
    static let start = #"""
        set -euo pipefail
        root=$1; n=$2; key=$(cat "$root/key")
        gui=$(cat "$root/$n/gui"); listen=$(cat "$root/$n/listen")
        python3 - "$root/$n" "$gui" "$key" <<'PY'
        import os, subprocess, sys
        home, gui, key = sys.argv[1], sys.argv[2], sys.argv[3]
        log = open(os.path.join(home, "st.log"), "ab")
        p = subprocess.Popen(["syncthing", "serve", "--home=" + os.path.join(home, "st"), "--no-browser", "--no-restart",
            "--no-upgrade", "--gui-address=http://127.0.0.1:" + gui, "--gui-apikey=" + key, "--skip-port-probing"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=True, start_new_session=True,
            env=dict(os.environ, STNODEFAULTFOLDER="1", STMONITORED="yes"))
        open(os.path.join(home, "pid"), "w").write(str(p.pid))
        PY
        api() { curl -fsS -H "X-API-Key: $key" -X "$1" "http://127.0.0.1:$gui/rest/$2" ${3:+-d "$3"}; }
        for i in $(seq 150); do api GET system/ping >/dev/null 2>&1 && break; sleep 0.1; done
        api PATCH config/options "{\"listenAddresses\":[\"tcp://127.0.0.1:$listen\"],\"globalAnnounceEnabled\":false,\"localAnnounceEnabled\":false,\"relaysEnabled\":false,\"natEnabled\":false,\"urAccepted\":-1,\"crashReportingEnabled\":false,\"autoUpgradeIntervalH\":0}" >/dev/null
        id() { cat "$root/$1/id"; }
        device() { # id, name, untrusted
          echo "{\"deviceID\":\"$(id $1)\",\"name\":\"$2\",\"untrusted\":$3,\"addresses\":[\"tcp://127.0.0.1:$(cat "$root/$1/listen")\"]}"
        }
        folder() { # type, devices
          echo "{\"id\":\"circle\",\"label\":\"circle\",\"path\":\"$root/$n/circle\",\"type\":\"$1\",\"rescanIntervalS\":2,\"fsWatcherEnabled\":true,\"fsWatcherDelayS\":1,\"devices\":[$2]}"
        }
        if [ "$n" = c ]; then
          api PUT config/devices/$(id a) "$(device a ana-laptop false)" >/dev/null
          api PUT config/devices/$(id b) "$(device b bob-laptop false)" >/dev/null
          api PUT config/folders/circle "$(folder receiveencrypted "{\"deviceID\":\"$(id a)\"},{\"deviceID\":\"$(id b)\"}")" >/dev/null
        else
          api PUT config/devices/$(id c) "$(device c relay true)" >/dev/null
          api PUT config/folders/circle "$(folder sendreceive "{\"deviceID\":\"$(id $n)\"},{\"deviceID\":\"$(id c)\",\"encryptionPassword\":\"$PASSWORD\"}")" >/dev/null
        fi
        """#
}

@Suite(
    .integration,
    .serialized,
    .enabled(
        if: SyncthingPair.syncthing != nil && DeliveryTools.curl != nil && DeliveryTools.python3 != nil,
        DeliveryTools.missing("syncthing")))
struct SyncthingRelayTests {
    static let secrets = [
        "Anastasia Quill", "hiking Ben Nevis, back by 6pm", "Bartholomew Finch", "ana.quill@example.org",
    ]

    /// Ana writes while only A and C are on; then A goes off and B comes on: Bob gets Ana's
    /// records from C and writes his own; then B goes off and A comes on: Ana gets Bob's. C
    /// holds all of it encrypted; a miss of Ana's is told to Bob as usual.
    @Test func twoMachinesNeverOnTogetherKeepInStepThroughAMachineThatCannotRead() throws {
        let relay = try SyncthingRelay()
        let t0 = "2026-03-01T09:00:00Z"
        try relay.start("c")
        try relay.start("a")
        #expect(
            relay.run("ana", ["init", "--name", "Anastasia Quill", "--circle", relay.circle("a"), "--quiet"], now: t0)
                .code == 0)
        let sister = relay.run(
            "ana", ["contacts", "add", "Sis", "--responder", "--notify", "mailto:ana.quill@example.org", "--quiet"],
            now: t0)
        #expect(sister.code == 0, "\(sister.stderr)")
        #expect(relay.run("ana", ["checkin", "--note", "hiking Ben Nevis, back by 6pm", "--quiet"], now: t0).code == 0)
        #expect(relay.run("ana", ["circle", "sync"], now: t0).code == 0, "writes .stignore")
        let (url, keyFile) = relay.api("a")
        #expect(relay.run("ana", ["circle", "syncthing", "--api", url, "--key-file", keyFile], now: t0).code == 0)
        // C has it all, encrypted.
        #expect(relay.wait(60) { SyncthingRelay.bytes(relay.circle("c")).count > 2000 }, "C never got Ana's records")
        let status = relay.run("ana", ["circle", "status"], now: t0)
        #expect(status.stdout.contains("Host    encrypted for the host at relay"), "\(status.stdout)")
        #expect(!status.stdout.contains("readable by"), "\(status.stdout)")
        relay.stop("a")
        try relay.start("b")
        #expect(relay.wait(60) { relay.logs("b").count == 1 }, "B never got Ana's log through C")
        #expect(
            relay.run(
                "bob", ["init", "--name", "Bartholomew Finch", "--circle", relay.circle("b"), "--quiet"], now: t0
            ).code == 0)
        let code = relay.run("ana", ["contacts", "code"], now: t0).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let added = relay.run("bob", ["contacts", "add", code, "--dependent"], now: t0)
        #expect(added.code == 0, "\(added.stderr)")
        let told = relay.root.path + "/bob-told.log"
        let channel = "exec:echo \"$LIFESIGNAL_TYPE\" >> '\(told)'"
        #expect(relay.run("bob", ["notify", "prefs", "--channel", channel, "--quiet"], now: t0).code == 0)
        #expect(relay.run("bob", ["contacts", "show", "Anastasia Quill"], now: t0).stdout.contains("2026-03-01 09:00"))
        // Bob's records reach C before B goes off (C's copy grows by his log).
        let before = SyncthingRelay.bytes(relay.circle("c")).count
        #expect(relay.wait(60) { SyncthingRelay.bytes(relay.circle("c")).count > before + 1000 }, "C never got Bob's")
        relay.wait(5) { false }
        relay.stop("b")
        try relay.start("a")
        #expect(relay.wait(60) { relay.logs("a").count == 2 }, "A never got Bob's log through C")
        let members = relay.run("ana", ["circle", "status"], now: t0).stdout
        #expect(members.contains("Bartholomew Finch: last heard"), "\(members)")
        // Ana's machine goes dark; Bob's cron runs past her deadline and tells him.
        let deliver = relay.run("bob", ["notify", "deliver"], now: "2026-03-02T09:30:00Z")
        #expect([0, 75].contains(deliver.code), "\(deliver.stderr)")
        let heard = (try? String(contentsOfFile: told, encoding: .utf8)) ?? ""
        #expect(heard.contains("receive_non_responsive_dependent_alert"), "\(heard)")
        // C holds none of the circle's names, notes or channels, searched as bytes; A does.
        #expect(GcryptCircle.found(Self.secrets, in: SyncthingRelay.bytes(relay.circle("c"))).isEmpty)
        #expect(GcryptCircle.found(Self.secrets, in: SyncthingRelay.bytes(relay.circle("a"))) == Self.secrets)
    }
}
