/// Where a platform keeps its users' application data.
public enum DataDirectoryConvention: Equatable, Sendable {
    /// The XDG Base Directory specification: `$XDG_DATA_HOME`, else `~/.local/share`.
    case xdg
    /// Apple platforms: `~/Library/Application Support`.
    case applicationSupport

    /// This platform's convention.
    public static var current: DataDirectoryConvention {
        #if canImport(Darwin)
        .applicationSupport
        #else
        .xdg
        #endif
    }
}
