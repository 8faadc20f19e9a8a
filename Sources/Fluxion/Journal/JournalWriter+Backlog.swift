import Foundation

extension JournalWriter {
    /// The lines handed to a writer and not written yet, in order, and whether its queue is awake to write them.
    final class Backlog: @unchecked Sendable {  // `buffers` is touched only with `lock` held
        /// What one line is made of.
        enum Item {
            case step(JournalEntries.Entry)
            case resume(after: Int, states: [JournalEntries.Change], time: Date)
            case effect(JournalRecord.Effect, step: Int, error: (any Error)?, isOfDroppedStep: Bool)
            case refusal(JournalRefusal.Entry)
        }

        /// What `lock` guards.
        private struct Buffers {
            var items: [Item] = []
            /// Whether the queue is writing the backlog, or about to: it takes new items before it sleeps.
            var isAwake = false
            /// The buffer the queue emptied last, kept while it sleeps for its next wake: the two buffers keep the
            /// room a burst gave them, so that the dispatching thread does not grow a new one into fresh pages.
            var spare: [Item] = []
        }

        /// The journal's lock: the dispatching thread holds it already when it hands a step over.
        private let lock: Lock
        // unchecked: checked, each step W13f hands over costs one run-time check, ~100 instructions (callgrind)
        @exclusivity(unchecked) private var buffers = Buffers()

        init(lock: Lock) {
            self.lock = lock
            buffers.items.reserveCapacity(JournalWriter.backlogCapacity)
            buffers.spare.reserveCapacity(JournalWriter.backlogCapacity)
        }

        /// Adds an item, moved in; returns whether the queue must be woken to write it.
        func add(_ item: consuming Item) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return addHoldingLock(item)
        }

        /// Adds an item, moved in, while the caller holds the lock; returns whether the queue must be woken.
        func addHoldingLock(_ item: consuming Item) -> Bool {
            buffers.items.append(item)
            defer { buffers.isAwake = true }
            return !buffers.isAwake
        }

        /// Takes every item, in order, into `taken`, and keeps `taken`'s buffer, which must be empty, for the
        /// next items: two buffers go back and forth, and adding an item seldom allocates. Returns `false` when
        /// there is no item, and the queue goes to sleep: `taken`'s buffer is kept for ``takeSpare()``, unless
        /// a burst grew it beyond ``JournalWriter/keptBacklogBytes``.
        func take(into taken: inout [Item]) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard !buffers.items.isEmpty else {
                buffers.isAwake = false
                if taken.capacity * MemoryLayout<Item>.stride <= JournalWriter.keptBacklogBytes {
                    swap(&buffers.spare, &taken)
                }
                return false
            }
            swap(&buffers.items, &taken)
            return true
        }

        /// The buffer the queue emptied last, to take the next items into; on the queue, as it wakes.
        func takeSpare() -> [Item] {
            lock.withLock {
                var taken: [Item] = []
                swap(&taken, &buffers.spare)
                if taken.capacity == 0 { taken.reserveCapacity(JournalWriter.backlogCapacity) }
                return taken
            }
        }
    }
}
