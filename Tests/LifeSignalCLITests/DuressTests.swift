import Foundation
import Testing

/// The duress check-in as whoever stands over the person sees it: the same output, exit code,
/// status, history, feed, doctor and circle records as any check-in with a note; the word
/// nowhere but in that note. And as the person sets it up.
@Suite struct DuressTests {
    /// Set as typed here; the check-in gives it in another case, with spaces around it.
    static let word = "pineapple"
    static let typed = " PineApple "
    /// An ordinary note of the same length as `typed`.
    static let ordinary = " Pinecones "
    static let fast = ["LIFESIGNAL_TEST_DURESS_ROUNDS": "50"]

    /// Alice with an external responder whose channel appends what it gets to `sent`, a duress
    /// word set, and one ordinary check-in.
    static func alice(sent: String) -> TempHome {
        let home = TempHome()
        home.run(["init", "--name", "Alice", "--quiet"])
        home.run(["contacts", "add", "Sam", "--responder", "--notify", "exec:cat >> '\(sent)'", "--quiet"])
        let set = home.run(["checkin", "duress", "set"], environment: fast, stdin: word + "\n")
        #expect(set.code == 0, "\(set.stderr)")
        #expect(set.stdout.contains("tells: Sam."), "\(set.stdout)")
        home.run(["checkin", "--note", "walking the coast path", "--quiet"], now: "2026-03-01T07:00:00Z")
        return home
    }

    /// A copy of `home`'s data directory: the same member, device and key.
    static func copy(_ home: TempHome) throws -> TempHome {
        let twin = TempHome()
        try FileManager.default.removeItem(atPath: twin.path)
        try FileManager.default.copyItem(atPath: home.path, toPath: twin.path)
        return twin
    }

    /// What every command shows, with the home's path and the note made alike.
    static func seen(_ home: TempHome, note: String, now: String) -> [String] {
        let commands: [[String]] = [
            ["status"], ["status", "--json"], ["checkin", "status"], ["checkin", "status", "--json"],
            ["checkin", "history"], ["checkin", "history", "--json"], ["notify", "list"], ["notify", "list", "--json"],
            ["doctor"], ["doctor", "--json"], ["contacts", "list"], ["contacts", "list", "--json"],
            ["notify", "deliver", "--dry-run"],
        ]
        return commands.map { arguments in
            let run = home.run(arguments, now: now)
            let shown = "\(arguments): \(run.code)\n\(run.stdout)\n\(run.stderr)"
            return shown.replacingOccurrences(of: home.path, with: "<home>").replacingOccurrences(
                of: note.trimmingCharacters(in: .whitespaces), with: "<note>")
        }
    }

    @Test func aDuressCheckInShowsWhatAnyCheckInWithANoteShows() throws {
        let folder = TempHome()
        let sent = folder.path + "/sam.jsonl"
        let base = Self.alice(sent: sent)
        let plain = try Self.copy(base)
        let duress = try Self.copy(base)
        var outputs: [String: [String]] = [:]
        for (home, note) in [(plain, Self.ordinary), (duress, Self.typed)] {
            var shown: [String] = []
            for (arguments, now) in [
                (["checkin", "--note", note], "2026-03-01T09:00:00Z"),
                (["checkin", "--note", note, "--json"], "2026-03-01T09:01:00Z"),
            ] {
                let run = home.run(arguments, now: now)
                shown.append(
                    "\(run.code)\n\(run.stdout)\n\(run.stderr)".replacingOccurrences(
                        of: note.trimmingCharacters(in: .whitespaces), with: "<note>"))
            }
            shown += Self.seen(home, note: note, now: "2026-03-01T09:02:00Z")
            // cron's run sends the alarm, and says nothing of it.
            let deliver = home.run(["notify", "deliver"], now: "2026-03-01T09:05:00Z")
            shown.append("\(deliver.code)\n\(deliver.stdout)\n\(deliver.stderr)")
            shown += Self.seen(home, note: note, now: "2026-03-01T09:06:00Z")
            outputs[note] = shown
        }
        let (a, b) = (outputs[Self.ordinary] ?? [], outputs[Self.typed] ?? [])
        #expect(a.count == b.count)
        for (one, other) in zip(a, b) {
            #expect(one == other)
            #expect(!one.lowercased().contains("duress"), "\(one)")
        }
        #expect(b.count > 20 && b[0].hasPrefix("0\nChecked in at 2026-03-01 09:00 UTC."), "\(b.first ?? "")")
        // Sam got two alarms (two duress check-ins), from the duress home alone.
        let lines = ((try? String(contentsOfFile: sent, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.count == 2, "\(lines)")
        for line in lines {
            let message = jsonObject(String(line))
            #expect((message["title"] as? String)?.hasPrefix("Alice checked in under duress") == true, "\(line)")
            let text = message["text"] as? String ?? ""
            #expect(text.contains("Do not call or text them; go, or send someone, or call the local emergency number."))
            #expect(
                text.contains("Check-in before it: Sun 1 Mar 2026, 07:00 UTC, note “walking the coast path”"), "\(text)"
            )
            #expect(!line.lowercased().contains(Self.word), "the word is never sent: \(line)")
        }
        try Self.expectWordOnlyInNotes(duress.path)
    }

    /// No file of the data directory (the circle in it included) says duress, or holds the word
    /// as it was set; the word as typed lies only in the check-ins' notes (in the logs, and in
    /// the caches derived from them).
    static func expectWordOnlyInNotes(_ directory: String) throws {
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        var notes = 0
        for relative in files {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.lowercased().contains("duress"), "\(relative) mentions duress")
            #expect(bytes.range(of: Data(word.utf8)) == nil, "\(relative) holds the word as it was set")
            let typed = typed.trimmingCharacters(in: .whitespaces)
            guard text.contains(typed) else { continue }
            if relative.hasSuffix(".bin") {
                #expect(relative.hasPrefix("cache"), "\(relative) holds the word")
                continue
            }
            let squeezed = text.replacingOccurrences(of: " ", with: "")
            let asNote =
                squeezed.components(separatedBy: "\"note\":\"\(Self.typed.replacingOccurrences(of: " ", with: ""))")
                .count - 1
            #expect(
                text.components(separatedBy: typed).count - 1 == asNote, "\(relative) holds the word outside a note")
            notes += asNote
        }
        #expect(notes > 0, "the check-ins' notes are where the word is")
    }

    @Test func setUpSaysWhoIsToldAndRefusesAShortWord() {
        let home = TempHome()
        home.run(["init", "--name", "Alice", "--quiet"])
        home.run(["contacts", "add", "Sam", "--responder", "--notify", "exec:true", "--quiet"])
        home.run(["contacts", "add", "Dee", "--responder", "--notify", "desktop:", "--quiet"])
        home.run(["contacts", "add", "Tom", "--responder", "--notify", "exec:true", "--quiet"])
        let short = home.run(["checkin", "duress", "set"], environment: Self.fast, stdin: " abc \n")
        #expect(short.code == 64)
        #expect(short.stderr.contains("Not set: a duress word needs at least 4 characters"), "\(short.stderr)")
        let left = home.run(["contacts", "edit", "Tom", "--duress", "off"])
        #expect(left.code == 0)
        #expect(left.stdout == "Tom is left out of a duress check-in made on this device.\n")
        // Dee's only channel is a pop-up on this screen: she cannot be told.
        let set = home.run(["checkin", "duress", "set", "--json"], environment: Self.fast, stdin: "figs and honey\n")
        #expect(set.code == 0)
        #expect(jsonObject(set.stdout)["told"] as? [String] == ["Sam"])
        #expect(jsonObject(set.stdout)["leftOut"] as? [String] == ["Tom"])
        let status = home.run(["checkin", "duress", "status"])
        #expect(status.code == 64, "asks first, and there is no terminal")
        let shown = home.run(["checkin", "duress", "status", "--yes"])
        #expect(shown.stdout == "A duress word is set on this device; a check-in with it tells: Sam.\nLeft out: Tom.\n")
        let off = home.run(["checkin", "duress", "off"])
        #expect(off.stdout == "Duress word removed from this device.\n")
        #expect(
            !home.exists("state.bin")
                || home.run(["checkin", "duress", "status", "--yes"]).stdout.contains("No duress word"))
    }

    @Test func clearTellsWhomTheAlarmReachedAndLaterCheckInsTellNobody() throws {
        let folder = TempHome()
        let sent = folder.path + "/sam.jsonl"
        let home = Self.alice(sent: sent)
        func received() -> [[String: Any]] {
            ((try? String(contentsOfFile: sent, encoding: .utf8)) ?? "").split(separator: "\n").map {
                jsonObject(String($0))
            }
        }
        let nothing = home.run(["checkin", "duress", "clear", "--yes"], now: "2026-03-01T08:00:00Z")
        #expect(nothing.stdout.contains("No duress alarm was raised on this device"), "\(nothing.stdout)")
        home.run(["notify", "deliver"], now: "2026-03-01T08:01:00Z")
        #expect(received().count == 1)
        home.run(["checkin", "--note", Self.typed], now: "2026-03-01T09:00:00Z")
        home.run(["notify", "deliver"], now: "2026-03-01T09:05:00Z")
        home.run(["checkin", "--note", "fine now"], now: "2026-03-01T10:00:00Z")
        home.run(["notify", "deliver"], now: "2026-03-01T10:05:00Z")
        #expect(received().count == 2, "an ordinary check-in after it sends no all-clear")
        let clear = home.run(["checkin", "duress", "clear", "--yes"], now: "2026-03-01T11:00:00Z")
        #expect(clear.stdout == "The all-clear goes to: Sam.\n")
        home.run(["notify", "deliver"], now: "2026-03-01T11:05:00Z")
        home.run(["notify", "deliver"], now: "2026-03-01T11:10:00Z")
        let all = received()
        #expect(all.count == 3)
        #expect(all.last?["title"] as? String == "Alice is safe: the duress alarm is over")
        #expect(all.last?["status"] as? String == "resolved")
        let status = home.run(["checkin", "duress", "status", "--yes", "--json"])
        let sends = jsonObject(status.stdout)["sends"] as? [[String: Any]] ?? []
        #expect(sends.map { $0["kind"] as? String } == ["all-clear", "alarm", "all-clear"])
        #expect(sends.allSatisfy { $0["sent"] is String })
    }

    /// A dry run with the word records and queues nothing; a damaged state file changes
    /// nothing a check-in shows (only the duress commands say it is damaged).
    @Test func aDryRunQueuesNothingAndADamagedStateFileIsNotShown() throws {
        let folder = TempHome()
        let sent = folder.path + "/sam.jsonl"
        let home = Self.alice(sent: sent)
        #expect(home.run(["checkin", "--note", Self.typed, "--dry-run"], now: "2026-03-01T09:00:00Z").code == 0)
        home.run(["notify", "deliver"], now: "2026-03-01T09:05:00Z")
        #expect(!FileManager.default.fileExists(atPath: sent), "a dry run sends nothing")
        let plain = home.run(["checkin", "--note", Self.ordinary], now: "2026-03-01T10:00:00Z")
        try Data("junk".utf8).write(to: URL(fileURLWithPath: home.path + "/state.bin"))
        let damaged = home.run(["checkin", "--note", Self.typed], now: "2026-03-01T11:00:00Z")
        #expect(plain.code == 0 && damaged.code == 0 && damaged.stderr == plain.stderr)
        #expect(
            damaged.stdout
                == "Checked in at 2026-03-01 11:00 UTC.\nNext deadline 2026-03-02 11:00 UTC (in 1d); reminder at 2026-03-02 10:30 UTC.\n"
        )
        let status = home.run(["checkin", "duress", "status", "--yes"])
        #expect(status.code == 65)
        #expect(status.stderr.contains("state.bin is damaged"), "\(status.stderr)")
        #expect(status.stderr.contains("move it aside and set the word again"), "\(status.stderr)")
    }

    /// The guide's "Under duress" commands, as a person types them (the word on standard
    /// input; --yes where a terminal would ask).
    @Test func theReadmesDuressCommandsWork() {
        let lines = ReadmeWalkTests.commands(after: "## Under duress", prefix: "lifesignal ", in: ReadmeTests.guide)
        #expect(lines.count == 5, "\(lines)")
        let home = TempHome()
        home.run(["init", "--name", "Alice", "--quiet"])
        home.run(["contacts", "add", "Sam", "--responder", "--notify", "exec:true", "--quiet"])
        home.run(["contacts", "add", "Bo", "--responder", "--notify", "exec:true", "--quiet"])
        for line in lines {
            let asks = line.contains("duress clear") || line.contains("duress status")
            let run = ReadmeWalkTests.sh(
                (line.contains("duress set") ? "echo 'blue heron' | " : "")
                    + "LIFESIGNAL_HOME='\(home.path)' LIFESIGNAL_TEST_DURESS_ROUNDS=50 " + line
                    + (asks ? " --yes" : ""),
                home: home.path)
            #expect(run.code == 0, "\(line): \(run.stderr)")
        }
        let status = home.run(["checkin", "duress", "status", "--yes", "--json"])
        #expect(jsonObject(status.stdout)["told"] as? [String] == ["Bo"])
        #expect(jsonObject(status.stdout)["leftOut"] as? [String] == ["Sam"])
    }
}
