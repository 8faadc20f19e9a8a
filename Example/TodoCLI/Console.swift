import Foundation

/// Standard output and standard error, written unbuffered, a line at a time.
///
/// Every line goes straight to its file descriptor, so the prompt, the
/// observers' output and the messages come out in the order they happen.
enum Console {
    /// Writes `text` and a newline to standard output.
    static func print(_ text: String) {
        write(text + "\n", to: .standardOutput)
    }

    /// Writes `text` to standard output, without a newline: a prompt.
    static func prompt(_ text: String) {
        write(text, to: .standardOutput)
    }

    /// Writes `todo: ` and `message` to standard error.
    static func error(_ message: String) {
        write("todo: \(message)\n", to: .standardError)
    }

    /// Writes a line of `--verbose` output to standard error.
    static func log(_ text: String) {
        write(text + "\n", to: .standardError)
    }

    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
