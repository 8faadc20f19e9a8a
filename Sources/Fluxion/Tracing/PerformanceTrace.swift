import Foundation

/// A recording of where a dispatcher's time goes: each action, its middleware, each store's handler,
/// its commit, each observer, and each effect, as timed spans.
///
/// ```swift
/// let trace = dispatcher.startTracing()
/// try dispatcher.dispatch(.addTodo, payload: "Buy milk")
/// trace.stop()
/// try trace.write(to: URL(fileURLWithPath: "todo-trace.json"))  // open it in Perfetto
/// ```
///
/// Start one with ``Dispatcher/startTracing(capacity:slowActionThreshold:onSlowAction:)``. It
/// records until ``stop()``, or until it is released, or until another trace of the same dispatcher
/// starts. Read the spans with ``spans``, or export them as Trace Event JSON with
/// ``traceEventJSON()`` and ``write(to:)``: the file opens in [Perfetto](https://ui.perfetto.dev)
/// and in `chrome://tracing`, one track per thread, the spans of a thread nested as their calls are.
///
/// The times come from the monotonic clock. On Apple platforms the same spans are also
/// `os_signpost` intervals (subsystem `Fluxion`, category `PerformanceTrace`), which Instruments
/// shows beside the app's own. With no trace recording, a dispatch pays one test of a field that
/// is `nil` at each of the few places that would record.
public final class PerformanceTrace: Sendable {
    /// The dispatcher whose actions are recorded.
    public let dispatcher: Dispatcher
    /// How many spans the trace keeps, the newest.
    public let capacity: Int
    /// How long an action may take before it is reported, if a report was asked for.
    public let slowActionThreshold: Duration?
    let recorder: TraceRecorder

    init(dispatcher: Dispatcher, capacity: Int, slowActionThreshold: Duration?, recorder: TraceRecorder) {
        self.dispatcher = dispatcher
        self.capacity = max(capacity, 1)
        self.slowActionThreshold = slowActionThreshold
        self.recorder = recorder
        recorder.observeEffects(as: dispatcher.observeTaskEvents { [recorder] in recorder.note($0) })
    }

    deinit {
        stop()
    }

    /// Whether the trace records: it has not stopped, and no other trace replaced it.
    public var isRecording: Bool { !recorder.isStopped }

    /// Stops recording: spans that end from now on are not kept. What was recorded stays readable.
    ///
    /// The dispatcher lets the trace go when its next action starts. Stopping a stopped trace does nothing.
    public func stop() {
        dispatcher.stopTracing(recorder)
    }

    /// The spans kept, in the order they ended; an effect still running, last, as a span up to now.
    ///
    /// Of a long session, the trace keeps the newest ``capacity`` spans; ``droppedSpanCount`` says how
    /// many older ones it let go.
    public var spans: [Span] {
        var names = TraceSubject.Names()
        return recorder.records().records.map { Span($0, origin: recorder.origin, names: &names) }
    }

    /// How many spans the trace let go, the oldest, to keep ``capacity``.
    public var droppedSpanCount: Int {
        recorder.records().dropped
    }
}
