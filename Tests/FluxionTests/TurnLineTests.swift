import Foundation
import Testing

@testable import Fluxion

/// The line of threads waiting for the dispatch turn, without threads: who takes each turn, decided by
/// `Admission` as the dispatcher decides it.
@Suite(.timeLimit(.minutes(10))) struct TurnLineTests {
    private static let bound = TurnLine.turnsBeforeHandOff

    private enum Outcome: Equatable {
        case runs
        case waits
        case queued
        case waitsForRelease
    }

    /// A dispatch turn and the threads that arrive at it, recorded as the dispatcher records them.
    private struct Scene {
        var turn = TurnState()

        /// An action from `thread` arrives: `Admission` decides, and the turn records the decision.
        mutating func arrive(_ thread: UInt, creating: Bool = false) -> Outcome {
            let thread = ThreadID(raw: thread)
            var facts = Admission.Facts()
            facts.actsForHolder = turn.admits(thread, isCreatingForHolder: creating)
            facts.holderIsBetweenActions = turn.holderIsBetweenActions
            facts.isSuspended = turn.isSuspended
            facts.isTurnFree = turn.isFree(for: thread)
            let outcome: Outcome
            switch Admission.decide(.action(exclusively: false), facts) {
            case .run:
                let took = turn.take(by: thread)
                #expect(took)
                return .runs
            case .waitForTurn:
                turn.waitInLine(thread)
                return .waits
            case .queueBehindStep:
                turn.queueBehindHolder(QueuedAction(AnyAction(name: "queued"), cause: .outside, task: nil))
                outcome = .queued
            case .waitForRelease:
                turn.waitForRelease(QueuedAction(AnyAction(name: "waiting"), cause: .outside, task: nil))
                outcome = .waitsForRelease
            default:
                Issue.record("unexpected decision")
                return .waits
            }
            _ = turn.leaveLine(thread)
            return outcome
        }

        /// The holder ends its turn, with nothing queued.
        mutating func end() {
            let ended = turn.endIfIdle()
            #expect(ended)
        }

        var holder: UInt? { turn.holder?.raw }
        var line: [UInt] { turn.line.threads.map(\.raw) }
    }

    @Test func aThreadThatEndsItsTurnTakesTheNextUntilTheFirstInLineHasWaitedItsTurns() {
        var scene = Scene()
        #expect(scene.arrive(1) == .runs)
        #expect(scene.arrive(2) == .waits)

        for _ in 1..<Self.bound {
            scene.end()
            #expect(scene.holder == nil, "the turn is free: anyone may take it")
            #expect(scene.arrive(1) == .runs, "the thread that ended the turn takes the next one at once")
        }
        scene.end()

        #expect(scene.holder == 2, "handed to the first in line as its \(Self.bound)th turn of waiting ends")
        #expect(scene.turn.isHandedOver)
        #expect(scene.arrive(1) == .waits, "a handed turn is not free for another thread")
        #expect(scene.arrive(3) == .waits)
        #expect(scene.arrive(2) == .runs)
        #expect(!scene.turn.isHandedOver)
        #expect(scene.line == [1, 3])
        #expect(scene.turn.line.longestWait == Self.bound)
    }

    @Test func aThreadHandedTheTurnDoesNotActForTheHolderUntilItTakesIt() {
        var scene = Scene()
        _ = scene.arrive(1)
        _ = scene.arrive(2)
        for _ in 1..<Self.bound {
            scene.end()
            _ = scene.arrive(1)
        }
        scene.end()

        let second = ThreadID(raw: 2)
        #expect(scene.holder == 2)
        #expect(!scene.turn.admits(second, isCreatingForHolder: false), "its dispatch would queue behind no step")
        #expect(scene.turn.isFree(for: second))
        #expect(!scene.turn.isFree(for: ThreadID(raw: 1)))
    }

    @Test func aThreadThatStopsWaitingLeavesTheLineAndGivesAHandedTurnBack() {
        var scene = Scene()
        _ = scene.arrive(1)
        _ = scene.arrive(2)
        _ = scene.arrive(3)
        for _ in 1..<Self.bound {
            scene.end()
            _ = scene.arrive(1)
        }
        scene.turn.beginSuspension()
        scene.end()
        #expect(scene.holder == 2)

        #expect(scene.arrive(2) == .waitsForRelease, "suspended meanwhile: its action waits for the release")

        #expect(scene.holder == nil, "the handed turn is free again")
        #expect(scene.line == [3])
        #expect(scene.arrive(3) == .waitsForRelease)
        #expect(scene.line == [])
    }

    @Test func aFactoryThatWaitedInLineQueuesBehindTheHolderAndLeavesTheLine() {
        var scene = Scene()
        _ = scene.arrive(1)
        #expect(scene.arrive(2, creating: true) == .waits, "the holder does not wait for its store yet")
        scene.turn.holderAwaitsCreation = true

        #expect(scene.arrive(2, creating: true) == .queued)
        #expect(scene.line == [])
    }

    /// Threads waiting behind others: the `n`th in line has the turn within `n` times the bound, while the
    /// thread that holds the turn takes every turn it can.
    static let positions = [1, 2, 3]

    @Test(arguments: positions) func theNthInLineHasTheTurnWithinNTimesTheBound(_ position: Int) {
        var scene = Scene()
        _ = scene.arrive(100)
        let waiting = (1...UInt(position)).map { $0 }
        for thread in waiting { #expect(scene.arrive(thread) == .waits) }
        var served: [UInt: Int] = [:]
        var turns = 0
        while served.count < waiting.count, turns < 10 * position * Self.bound {
            scene.end()
            turns += 1
            if let handed = scene.holder {
                // NB: the thread handed the turn takes it, ends it and dispatches no more.
                #expect(scene.arrive(handed) == .runs)
                served[handed] = turns
            } else {
                #expect(scene.arrive(100) == .runs, "the busy thread takes every free turn")
            }
        }

        for (index, thread) in waiting.enumerated() {
            let within = (index + 1) * Self.bound
            #expect(
                served[thread].map { $0 <= within } == true, "thread \(thread) served after \(served[thread] ?? -1)")
        }
        #expect(scene.turn.line.longestWait <= position * Self.bound)
    }
}

/// Tells the dispatching threads of `TurnLineThreadTests` to stop.
private final class StopSwitch: @unchecked Sendable {  // `on` is guarded by `lock`
    private let lock = NSLock()
    private var on = false

    var isOn: Bool { lock.withLock { on } }

    func turnOn() { lock.withLock { on = true } }
}

/// A counter that `TurnLineThreadTests` dispatches to.
final class TurnCounterStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.counterAdd) { state, action in state &+= action.payload }
    }
}

@Suite(.serialized, .timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct TurnLineThreadTests {
    /// Two threads dispatch as fast as they can while a third reads again and again: no thread (the reader
    /// included) waits in line longer than the bound allows, counted in turns (not in time).
    @Test func aReaderBesideTwoBusyDispatchersIsServedWithinTheBound() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TurnCounterStore.self)
        let store = try dispatcher.store(TurnCounterStore.self)
        let stopping = StopSwitch()
        let started = ArrivalCounter()
        let stopped = ArrivalCounter()
        for _ in 0..<2 {
            Thread.detachNewThread {
                for _ in 0..<1_000 { try? dispatcher.dispatch(.counterAdd, payload: 1) }
                started.arrive()
                while !stopping.isOn {
                    for _ in 0..<16 { try? dispatcher.dispatch(.counterAdd, payload: 1) }
                }
                stopped.arrive()
            }
        }
        started.wait(for: 2)
        var contended = 0
        for _ in 0..<20_000 {
            let before = store.state
            let during = dispatcher.read { store.state }
            if during != before { contended += 1 }
        }
        stopping.turnOn()
        stopped.wait(for: 2)

        // NB: two threads at most wait while the third holds the turn: the second in line is served within
        // twice the bound.
        #expect(
            dispatcher.longestTurnWait <= 2 * TurnLine.turnsBeforeHandOff,
            "of 20,000 reads, \(contended) waited for a dispatch")
    }
}
