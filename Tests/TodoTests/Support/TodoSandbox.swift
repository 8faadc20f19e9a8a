import Foundation

/// What one run of `todo` did.
struct TodoRun: CustomStringConvertible {
    let status: Int32
    /// Whether it exited, rather than dying of a signal (a crash).
    let exited: Bool
    let output: String
    let errors: String

    var description: String {
        "status \(status)\nstdout:\n\(output)\nstderr:\n\(errors)"
    }
}

/// A temporary directory to run the built `todo` executable in, as a subprocess.
///
/// The runs' current directory is `work/` inside it, and their home and data
/// directories (`$HOME`, `$XDG_DATA_HOME`) are `home/` and `data/` inside it,
/// so a test that uses the default file never touches the repository or the
/// user's own data; their output is captured in files beside them, so
/// nothing can fill a pipe.
struct TodoSandbox {
    let root: URL
    /// The current directory of the runs.
    let work: URL
    /// `$HOME` of the runs.
    let home: URL
    /// `$XDG_DATA_HOME` of the runs.
    let dataHome: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("TodoTests-\(UUID().uuidString)")
        work = root.appendingPathComponent("work")
        home = root.appendingPathComponent("home")
        dataHome = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Where `todo` keeps its default list in this sandbox: this platform's per-user data directory.
    var dataDirectory: URL {
        #if canImport(Darwin)
        home.appendingPathComponent("Library/Application Support/fluxion-todo")
        #else
        dataHome.appendingPathComponent("fluxion-todo")
        #endif
    }

    /// The path of `name` in the default data directory.
    func dataPath(_ name: String) -> String {
        dataDirectory.appendingPathComponent(name).path
    }

    /// The path of `name`, relative to the current directory of the runs unless absolute.
    func path(_ name: String) -> String {
        url(name).path
    }

    private func url(_ name: String) -> URL {
        name.hasPrefix("/") ? URL(fileURLWithPath: name) : work.appendingPathComponent(name)
    }

    /// Writes `contents` to `name`, relative to the current directory of the runs unless absolute.
    func write(_ contents: String, to name: String) throws {
        let url = url(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func contents(of name: String) throws -> String {
        String(decoding: try Data(contentsOf: url(name)), as: UTF8.self)
    }

    /// The names of the files in `directory` (by default the current directory of the runs), sorted.
    func fileNames(in directory: String = "") -> [String] {
        let path = directory.isEmpty ? work.path : self.path(directory)
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Whether anything exists at `path`.
    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Runs `todo` with `arguments`, standard input from `input` (or empty), `$TODO_FILE` unset, and
    /// `$HOME` and `$XDG_DATA_HOME` in the sandbox, unless `environment` says otherwise.
    func run(_ arguments: String..., input: String = "", environment: [String: String] = [:]) async throws -> TodoRun {
        try await run(arguments, input: input, environment: environment)
    }

    /// Runs `todo` with `arguments`; see ``run(_:input:environment:)``.
    ///
    /// NB: waits for the process without blocking a thread: Swift Testing runs tests on the few
    /// threads of the cooperative pool, and tests whose tasks must run meanwhile would starve.
    func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) async throws -> TodoRun {
        let id = UUID().uuidString
        let inputURL = root.appendingPathComponent("\(id).in")
        let outputURL = root.appendingPathComponent("\(id).out")
        let errorsURL = root.appendingPathComponent("\(id).err")
        try Data(input.utf8).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
        let stdin = try FileHandle(forReadingFrom: inputURL)
        let stdout = try FileHandle(forWritingTo: outputURL)
        let stderr = try FileHandle(forWritingTo: errorsURL)
        defer {
            try? stdin.close()
            try? stdout.close()
            try? stderr.close()
        }

        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.currentDirectoryURL = work
        var variables = ProcessInfo.processInfo.environment
        variables["TODO_FILE"] = nil
        variables["HOME"] = home.path
        variables["XDG_DATA_HOME"] = dataHome.path
        // NB: under ThreadSanitizer, a process that exits with other threads alive (libdispatch's
        // workers) sleeps 1 s first, to catch races at exit; that would make this suite last ~40 s.
        variables["TSAN_OPTIONS"] = [variables["TSAN_OPTIONS"], "atexit_sleep_ms=0"].compactMap { $0 }
            .joined(separator: " ")
        variables.merge(environment) { _, given in given }
        process.environment = variables
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return TodoRun(
            status: process.terminationStatus,
            exited: process.terminationReason == .exit,
            output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: errorsURL), as: UTF8.self)
        )
    }

    /// The `todo` executable built beside the test binary: `.build/<triple>/debug/todo`.
    ///
    /// The same search as `FluxionTests`' for `FluxionCrashWriter`: on Linux
    /// the tests are an executable in the products directory; on Apple
    /// platforms a bundle loaded by `xctest`, beside the products.
    static func executable() throws -> URL {
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL {
            directories.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        directories.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        let candidates = directories.map { $0.appendingPathComponent("todo") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw MissingExecutable(searched: candidates.map(\.path))
        }
        return found
    }
}

struct MissingExecutable: Error, CustomStringConvertible {
    let searched: [String]
    var description: String { "the todo executable was not built next to the tests; looked at \(searched)" }
}
