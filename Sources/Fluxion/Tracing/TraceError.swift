/// Why a ``PerformanceTrace`` could not be written.
public enum TraceError: Error, Equatable, CustomStringConvertible {
    /// Something else than an earlier trace is at the path: a directory, a link or another file,
    /// which the trace leaves untouched.
    case notReplaceable(path: String, reason: String)
    /// The file cannot be written.
    case unwritableFile(path: String, reason: String)

    /// What went wrong, naming the file.
    public var description: String {
        switch self {
        case .notReplaceable(let path, let reason):
            "cannot write the trace to \(path): \(reason), and only an earlier trace is replaced"
        case .unwritableFile(let path, let reason):
            "cannot write the trace to \(path): \(reason)"
        }
    }
}
