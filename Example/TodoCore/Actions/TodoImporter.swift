import Dispatch
import Fluxion
import Foundation

/// Imports todos from a JSON file: an asynchronous action creator.
///
/// It reads and decodes the file off the caller's thread, then dispatches
/// the outcome under one action name, `ActionName.importFinished`:
/// the todos as the payload, or an ``ImportError`` as the action's error.
/// ``TodoStore`` runs it as the effect of ``ActionName/importTodos``.
public enum TodoImporter {
    /// Reads `url` and dispatches `.importFinished` with its todos or the error.
    ///
    /// - Throws: What the dispatch throws: the ``ImportError`` that
    ///   ``TodoStore`` rethrows, or a ``TodoError`` for an item without a title.
    public static func importTodos(from url: URL, into dispatcher: Dispatcher) async throws {
        switch await read(url) {
        case .success(let todos):
            try dispatcher.dispatch(.importFinished, payload: todos)
        case .failure(let error):
            try dispatcher.dispatch(.importFinished, payload: [], error: error)
        }
    }

    /// The todos in `url`, read on a global queue.
    static func read(_ url: URL) async -> Result<[Todo], ImportError> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: decode(url))
            }
        }
    }

    private static func decode(_ url: URL) -> Result<[Todo], ImportError> {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason =
                FileManager.default.fileExists(atPath: url.path) ? error.localizedDescription : "no such file"
            return .failure(.unreadable(path: url.path, reason: reason))
        }
        do {
            return .success(try JSONDecoder().decode([Todo].self, from: data))
        } catch {
            return .failure(.notTodos(path: url.path, reason: describe(error)))
        }
    }

    /// A decoding error in a few words, with where it happened.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? context.debugDescription : "\(context.debugDescription) at \(path)"
        @unknown default:
            return "\(error)"
        }
    }
}
