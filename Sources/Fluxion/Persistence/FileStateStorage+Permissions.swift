#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

extension FileStateStorage {
    /// Who may read and write the files and directories a ``FileStateStorage`` creates.
    ///
    /// Archives hold your users' data, so the default, ``ownerOnly``, lets no
    /// other account on the machine read them: archives (and the temporary
    /// files a save writes) are created with mode `0600`, and the directories
    /// the storage creates with `0700`. To share them, say with a group or
    /// with every account, choose other bits:
    ///
    /// ```swift
    /// let storage = FileStateStorage(directory: directory, permissions: .readableByAll)
    /// let shared = FileStateStorage(directory: directory, permissions: .init(file: 0o640, directory: 0o750))
    /// ```
    ///
    /// The bits are applied as given, whatever the process's `umask`. Only the
    /// permission bits (`0o777`) count: set-user-ID, set-group-ID and sticky
    /// bits are ignored.
    public struct Permissions: Equatable, Hashable, Sendable {
        /// The mode of archives and of the temporary files of a save, such as `0o600`.
        public var file: UInt16
        /// The mode of the directories the storage creates, such as `0o700`.
        public var directory: UInt16

        /// Permissions with the given mode bits for files and for directories.
        public init(file: UInt16, directory: UInt16) {
            self.file = file
            self.directory = directory
        }

        /// Readable and writable by the owner only: files `0600`, directories `0700`. The default.
        public static let ownerOnly = Permissions(file: 0o600, directory: 0o700)

        /// Readable by every account, writable by the owner: files `0644`, directories `0755`.
        public static let readableByAll = Permissions(file: 0o644, directory: 0o755)

        /// The file mode, permission bits only.
        var fileMode: mode_t { mode_t(file & 0o777) }

        /// The directory mode, permission bits only.
        var directoryMode: mode_t { mode_t(directory & 0o777) }
    }
}
