import Fluxion
import Foundation

extension RealRun {
    /// Replays the journal from memory and from its file into fresh dispatchers, one line each:
    /// whether all states matched, the states replay ended with, and how many effects had no end.
    ///
    /// With `factoryStartsTask`, store C's factory starts a task (as a poll would): a replay starts none.
    func replayOutcome(divergence: Int?, factoryStartsTask: Bool) -> [String] {
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
                try fresh.register(StoreC.self) { [weak fresh] in
                    if factoryStartsTask, let fresh {
                        context.startTask(TaskPlan(id: "poll", gate: 99_999, dispatches: nil), on: fresh)
                    }
                    return StoreC()
                }
                try fresh.register(StoreD.self)
                try StoreE.register(on: fresh)
                try StoreF.register(on: fresh)
                try StoreG.register(on: fresh)
                try fresh.register(StoreH.self)
                fresh.registerReplayableError(ModelFailure.self)
                let report =
                    source == "memory"
                    ? try journal.replay(into: fresh) : try Journal.replay(contentsOf: fileURL, into: fresh)
                // NB: read before the states: reading a store the replay did not make makes it, after the replay.
                let started = fresh.runningTaskCount
                let states = divergence == nil ? "\(ModelStoreSet.states(of: fresh))" : "-"
                return "\(source): matched \(report.allMatched), states \(states), "
                    + "unfinished \(report.unfinishedEffects.count), started \(started)"
            } catch {
                return "\(source): threw \(error)"
            }
        }
    }
}
