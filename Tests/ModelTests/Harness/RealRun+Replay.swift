import Fluxion
import Foundation

extension RealRun {
    /// Replays the journal from memory and from its file into fresh dispatchers, one line each:
    /// whether all states matched, the states replay ended with, and how many effects had no end.
    func replayOutcome(divergence: Int?) -> [String] {
        journal.flush()
        return ["memory", "file"].map { source in
            let fresh = Dispatcher()
            let context = ProgramContext(for: fresh, divergence: divergence)
            defer {
                context.close()
                fresh.cancelAllTasks()
                ProgramContext.forget(fresh)
            }
            do {
                try fresh.register(StoreA.self)
                try fresh.register(StoreB.self)
                try fresh.register(StoreC.self)
                try fresh.register(StoreD.self)
                let report =
                    source == "memory"
                    ? try journal.replay(into: fresh) : try Journal.replay(contentsOf: fileURL, into: fresh)
                let states = divergence == nil ? "\(Self.states(of: fresh))" : "-"
                return "\(source): matched \(report.allMatched), states \(states), "
                    + "unfinished \(report.unfinishedEffects.count), started \(fresh.runningTaskCount)"
            } catch {
                return "\(source): threw \(error)"
            }
        }
    }
}
