import Foundation

/// Where `todo` keeps its state: a `.json` file, plus two companions beside it.
///
/// The file is `--file PATH` if given, else `$TODO_FILE`, else `todos.json`
/// in the per-user data directory (``dataDirectory(environment:convention:)``):
/// where command-line tools keep their users' data, never the current
/// directory. ``FileStateStorage`` keeps an archive as
/// `<directory>/<key>.json`, so the file's directory is the storage's and
/// its name without `.json` is the key; the filter and the undo history live
/// in `<key>.filter.json` and `<key>.history.json` beside it.
public struct TodoFile: Equatable, Sendable {
    /// The environment variable that names the file when `--file` is not given.
    public static let environmentVariable = "TODO_FILE"

    /// The name of the file used when neither `--file` nor the environment names one.
    public static let defaultName = "todos.json"

    /// The name of `todo`'s folder in the per-user data directory.
    public static let dataFolderName = "fluxion-todo"

    /// The file, as an absolute URL.
    public let url: URL

    /// A todo file at `path`, relative to the current directory unless absolute.
    ///
    /// - Throws: ``CommandLineError/invalidFile(_:reason:)`` when the name does not end in `.json`.
    public init(path: String) throws {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        guard url.lastPathComponent.hasSuffix(".json"), url.lastPathComponent.count > ".json".count else {
            throw CommandLineError.invalidFile(path, reason: "its name must end in .json, as in todos.json")
        }
        self.url = url
    }

    /// The file named by the `--file` option, else by the environment, else
    /// ``defaultName`` in the ``dataDirectory(environment:convention:)``.
    public static func resolve(
        option: String?,
        environment: [String: String],
        convention: DataDirectoryConvention = .current
    ) throws -> TodoFile {
        if let option { return try TodoFile(path: option) }
        if let path = environment[environmentVariable], !path.isEmpty { return try TodoFile(path: path) }
        let directory = dataDirectory(environment: environment, convention: convention)
        return try TodoFile(path: directory.appendingPathComponent(defaultName).path)
    }

    /// The per-user directory `todo` keeps its lists in by default; nothing is created here.
    ///
    /// - ``DataDirectoryConvention/xdg`` (Linux and other Unix systems):
    ///   `$XDG_DATA_HOME/fluxion-todo`, or `~/.local/share/fluxion-todo` when
    ///   `XDG_DATA_HOME` is unset, empty or relative (as the XDG Base
    ///   Directory specification says).
    /// - ``DataDirectoryConvention/applicationSupport`` (Apple platforms):
    ///   `~/Library/Application Support/fluxion-todo`.
    ///
    /// `~` is `$HOME`, or the account's home directory when `HOME` is unset.
    public static func dataDirectory(
        environment: [String: String],
        convention: DataDirectoryConvention = .current
    ) -> URL {
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        let base: URL
        switch convention {
        case .xdg:
            if let path = environment["XDG_DATA_HOME"], path.hasPrefix("/") {
                base = URL(fileURLWithPath: path, isDirectory: true)
            } else {
                base = home.appendingPathComponent(".local/share", isDirectory: true)
            }
        case .applicationSupport:
            base = home.appendingPathComponent("Library/Application Support", isDirectory: true)
        }
        return base.appendingPathComponent(dataFolderName, isDirectory: true).standardizedFileURL
    }

    /// The file's path.
    public var path: String { url.path }

    /// The directory of the storage: the file's.
    public var directory: URL { url.deletingLastPathComponent() }

    /// The key of the items' archive: the file name without `.json`.
    public var key: String { String(url.lastPathComponent.dropLast(".json".count)) }

    /// The path of the file that holds the archive of `key`, in the same directory.
    public func path(ofArchive key: String) -> String {
        directory.appendingPathComponent(key + ".json").path
    }
}
