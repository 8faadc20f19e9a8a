import Foundation

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

/// The writer process, waited for on a Dispatch thread: blocking there leaves the cooperative pool
/// (two threads here) to the tests that run meanwhile.
struct RunningWriter: @unchecked Sendable {  // NB: `process` and `output` are used by one thread at a time
    let process: Process
    let output: FileHandle
    /// Its standard input, when it was started with one.
    var input: FileHandle?
    /// Its standard error.
    var errors: FileHandle?

    init(process: Process, output: FileHandle, input: FileHandle? = nil, errors: FileHandle? = nil) {
        self.process = process
        self.output = output
        self.input = input
        self.errors = errors
    }

    /// Starts `FluxionCrashWriter` with `arguments`, its standard input, output and error piped.
    static func start(_ executable: URL, arguments: [String]) throws -> RunningWriter {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let (input, output, errors) = (Pipe(), Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return RunningWriter(
            process: process, output: output.fileHandleForReading, input: input.fileHandleForWriting,
            errors: errors.fileHandleForReading)
    }

    /// Reads one line of the output, or what came before its end.
    func readLine() async -> String {
        await offThePool {
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
        await offThePool { process.waitUntilExit() }
    }

    private func offThePool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }
}
