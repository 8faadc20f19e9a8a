import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `FluxionCrashWriter` built beside the test binary: `.build/<triple>/debug/`.
func crashWriterURL() -> URL? {
    var directories: [URL] = []
    if let executable = Bundle.main.executableURL {
        directories.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
    }
    directories.append(
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
    // NB: on Apple platforms the tests are a bundle loaded by `xctest`; the products sit beside the bundle.
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    return
        directories
        .map { $0.appendingPathComponent("FluxionCrashWriter") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// The writer process, waited for on a thread of its own: blocking there leaves Swift's global executor to the
/// tests that run meanwhile. (Not on `DispatchQueue.global()`: on Linux its threads are the global executor's.)
struct RunningWriter: @unchecked Sendable {  // NB: `process` and `output` are used by one thread at a time
    let process: Process
    let output: FileHandle
    /// Its standard input, when it was started with one.
    var input: FileHandle?
    /// Its standard error.
    var errors: FileHandle?
    /// Set when the hang guard of ``start(_:arguments:hangGuardSeconds:)`` had to kill it.
    let hung = LockedBox(false)

    init(process: Process, output: FileHandle, input: FileHandle? = nil, errors: FileHandle? = nil) {
        self.process = process
        self.output = output
        self.input = input
        self.errors = errors
    }

    /// Starts `FluxionCrashWriter` with `arguments`, its standard input, output and error piped.
    ///
    /// A hang guard kills it if it still runs `hangGuardSeconds` later, and sets ``hung``: a test that
    /// waits for a line it never writes, or for an exit that never comes, then fails instead of hanging.
    static func start(_ executable: URL, arguments: [String], hangGuardSeconds: Int = 300) throws -> RunningWriter {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let (input, output, errors) = (Pipe(), Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let running = RunningWriter(
            process: process, output: output.fileHandleForReading, input: input.fileHandleForWriting,
            errors: errors.fileHandleForReading)
        let (pid, hung) = (process.processIdentifier, running.hung)
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(hangGuardSeconds)) { [process] in
            guard process.isRunning else { return }
            hung.value = true
            kill(pid, SIGKILL)
        }
        return running
    }

    /// Reads one line of the output, or what came before its end.
    func readLine() async -> String {
        await onNewThread {
            var line = Data()
            while true {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
                if chunk.contains(UInt8(ascii: "\n")) { break }
            }
            return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Writes `line` and a newline to its standard input.
    func send(_ line: String) {
        input?.write(Data((line + "\n").utf8))
    }

    /// What it wrote to standard error, once it has exited.
    func errorOutput() -> String {
        String(decoding: errors?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    func waitUntilExit() async {
        await onNewThread { process.waitUntilExit() }
    }

}
