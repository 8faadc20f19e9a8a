import Foundation

extension JournalLine {
    /// The line of a refused action; `unredactable` gets the values it left out, as they could not be redacted.
    init(
        _ refused: JournalRefusal.Entry, redacting keys: Set<String>, errorTypes: ReplayableErrors,
        unredactable: inout [Unredactable]
    ) {
        self.init(kind: .refusal, sequence: refused.afterStep, time: refused.time)
        record(refused.action, redacting: keys, errorTypes: errorTypes, unredactable: &unredactable)
        cause = CauseRef(refused.cause)
        refusal = Refusal(refused.error, reason: refused.reason, redacting: keys, errorTypes: errorTypes)
        // NB: a failed batch does not replay: its body may have thrown, or had an operation refused before it
        // was staged, neither of which its recorded actions repeat.
        replayable =
            refused.reason.isReproducible && actions == nil && action?.isReplayable == true
            && refusal?.redacted != true
    }

    /// The line of a refused action, the values under `keys` hidden.
    init(_ refused: JournalRefusal.Entry, redacting keys: Set<String>, errorTypes: ReplayableErrors) {
        var unredactable: [Unredactable] = []
        self.init(refused, redacting: keys, errorTypes: errorTypes, unredactable: &unredactable)
    }
}

extension JournalLine.Refusal {
    /// `error`, described with the values under `keys` hidden, and as JSON when `errorTypes` registers its type.
    init(_ error: any Error, reason: JournalRefusal.Reason, redacting keys: Set<String>, errorTypes: ReplayableErrors) {
        self.reason = reason
        self.error = StateDiff.describe(error, redacting: keys, qualified: false)
        guard let recorded = errorTypes.record(error) else { return }
        errorType = recorded.type
        errorValue = recorded.value
        guard !keys.isEmpty else { return }
        let parsed = recorded.value.parsed
        errorValue = parsed.redacting(keys)
        if errorValue != parsed { redacted = true }
    }

    /// Whether `error`, the error a replay was refused with, is the recorded one: equal as JSON when its type
    /// was recorded as a value, else described alike (the values under `keys` hidden).
    func matches(_ error: any Error, redacting keys: Set<String>, errorTypes: ReplayableErrors) -> Bool {
        guard let errorType, let errorValue else {
            return StateDiff.describe(error, redacting: keys, qualified: false) == self.error
        }
        guard let recorded = errorTypes.record(error), recorded.type == errorType else { return false }
        return recorded.value.parsed.redacting(keys) == errorValue.parsed
    }
}
