import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

extension App {
    /// Who besides the members' own devices holds the circle's records, for the engine in use
    /// (see `CircleReader`): the git remotes on other machines, or the Syncthing devices the
    /// folder is shared with. Nothing for a folder written directly or copied by another tool,
    /// nor when Syncthing's API does not answer (`circle status` says that already).
    func circleReaders(_ store: Store) -> [CircleReader] {
        let settings = (try? store.syncSettings()) ?? SyncSettings()
        switch store.syncEngine(settings: settings) {
        case .git:
            let git = Git(directory: store.circleDirectory, environment: environment, runner: programs)
            let names = Git.machineNames()
            var readers: [CircleReader] = []
            let participants = git.lines(["config", "--get", "gcrypt.participants"])?.first
            for remote in git.remoteURLs() {
                guard var reader = CircleReader.gitRemote(name: remote.name, url: remote.url, localNames: names),
                    !readers.contains(where: { $0.via == reader.via })
                else { continue }
                if reader.encrypted {
                    let own = git.lines(["config", "--get", "remote.\(remote.name).gcrypt-participants"])?.first
                    reader.toThisKeyOnly = (own ?? participants ?? "").trimmingWhitespace.isEmpty
                }
                readers.append(reader)
            }
            return readers
        case .syncthing:
            guard case .success(let api) = syncthingAPI(settings),
                case .success(let folder) = api.folder(at: store.circleDirectory, environment: environment)
            else { return [] }
            return folder.sharedWith.map {
                CircleReader(host: $0.name, via: .syncthingDevice(id: $0.id, name: $0.name), encrypted: $0.untrusted)
            }
        case .direct, .other:
            return []
        }
    }
}
