import LifeSignalApp
import LifeSignalCore

/// Who can read the circle besides the members' devices, in words, with the way to change it
/// (`circle status`, `doctor`).
extension CircleReader {
    var message: String {
        switch via {
        case .gitRemote(let name, let url):
            if encrypted, toThisKeyOnly {
                return
                    "encrypted for the host at \(host) (git remote \(name), \(url)), but to this machine's own key only: remote.\(name).gcrypt-participants is not set, so no other member can read what this device pushes. Set it in the circle folder to every member's key (git config remote.\(name).gcrypt-participants 'ana@example.org bea@example.org')"
            }
            if encrypted {
                return "encrypted for the host at \(host) (git remote \(name), \(url)): it holds only ciphertext"
            }
            return
                "readable by the host at \(host) (git remote \(name), \(url)): it holds the circle's names, notes, channels and check-in times as they are. To change it, move the circle to a remote encrypted with git-remote-gcrypt (gcrypt::\(url), see 'git, encrypted for the host' in lifesignal's guide, docs/GUIDE.md)"
        case .syncthingDevice(let id, let name):
            let device = "Syncthing device \(name == id ? String(id.prefix(7)) : "\(name), \(id.prefix(7))")"
            if encrypted { return "encrypted for the host at \(host) (\(device), untrusted): it holds only ciphertext" }
            return
                "readable by the host at \(host) (\(device)): the folder is shared with it as a trusted device, so it holds the circle's names, notes, channels and check-in times as they are. If it is not a member's device, change it: in Syncthing, share the folder with it with an encryption password (untrusted), and add it there as 'receive encrypted' (see 'Syncthing through a device that cannot read' in lifesignal's guide, docs/GUIDE.md)"
        }
    }

    var json: JSON {
        switch via {
        case .gitRemote(let name, let url):
            return [
                "engine": "git", "host": .string(host), "remote": .string(name), "url": .string(url),
                "encrypted": .bool(encrypted), "toThisKeyOnly": .bool(toThisKeyOnly), "message": .string(message),
            ]
        case .syncthingDevice(let id, let name):
            return [
                "engine": "syncthing", "host": .string(host), "device": .string(id), "name": .string(name),
                "encrypted": .bool(encrypted), "message": .string(message),
            ]
        }
    }
}
