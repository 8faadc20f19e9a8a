import Testing

@testable import Fluxion

/// The running step and its serial, without threads.
@Suite struct StepLedgerTests {
    @Test func eachStepGetsTheNextSerialAndANestedBeginGoesOnWithTheRunningStep() {
        let steps = StepLedger()

        #expect(steps.beginDirect())
        #expect(steps.serial == 1)
        #expect(!steps.begin(.outside))  // a batch folding into the running step
        #expect(steps.serial == 1)
        steps.end(true)
        #expect(steps.begin(.queued(by: 1)))
        #expect(steps.serial == 2)
        #expect(steps.causeOfQueued.map { "\($0)" } == "\(StepCause.queued(by: 2))")
        steps.end(true)
        #expect(steps.causeOfQueued == nil)
    }

    @Test func effectsAreNumberedWithinTheirStep() {
        let steps = StepLedger()
        _ = steps.beginDirect()
        let first = effect(placedBy: steps, id: nil, action: "search")
        let second = steps.tagCancellation(id: TaskKey("search"), action: "search")
        steps.end(true)
        _ = steps.beginDirect()
        let next = effect(placedBy: steps, id: nil, action: "load")

        #expect([first.index, second.index, next.index] == [0, 1, 0])
        #expect([first.step, second.step, next.step] == [1, 1, 2])
        #expect([first.name, second.name] == ["#1", "cancel search"])
        #expect(first.effect === first)
    }

    /// The tracked task of an effect the running step of `steps` asks for: its own tag.
    private func effect(placedBy steps: StepLedger, id: String?, action: String) -> TrackedTask {
        let place = steps.placeEffect()
        return TrackedTask(
            dispatcher: ObjectIdentifier(steps), id: id.map(TaskKey.init), requestSerial: 0,
            effectOf: (place.step, place.index, action))
    }

    /// A dispatch that gives its turn up while another thread creates a store keeps its step; the
    /// steps run meanwhile have serials of their own.
    @Test func aStepSetAsideComesBackWithItsSerialAndEffects() {
        let steps = StepLedger()
        _ = steps.beginDirect()
        _ = steps.placeEffect()

        let kept = steps.setAside()
        #expect(!steps.isRunning)
        #expect(steps.beginDirect())
        #expect(steps.serial == 2)
        steps.end(true)
        steps.restore(kept)

        #expect(steps.isRunning)
        #expect(steps.serial == 1)
        #expect(steps.placeEffect().index == 1)
        steps.end(true)
        #expect(steps.beginDirect())
        #expect(steps.serial == 3)
    }
}
