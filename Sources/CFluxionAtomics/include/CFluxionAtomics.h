#ifndef CFLUXIONATOMICS_H
#define CFLUXIONATOMICS_H

#include <stdatomic.h>
#include <stdint.h>

// C11 atomics for Fluxion: Swift's `Synchronization.Atomic` needs macOS 15 and
// iOS 18, and Fluxion supports earlier systems.

/// A counter that one thread advances while others read it.
typedef struct fluxion_counter {
    _Atomic(uint64_t) value;
} fluxion_counter;

/// Sets a new counter to zero.
static inline void fluxion_counter_init(fluxion_counter *counter) {
    atomic_init(&counter->value, 0);
}

/// The counter's value; what was written before the advance that made it is visible after this read.
static inline uint64_t fluxion_counter_load(fluxion_counter *counter) {
    return atomic_load_explicit(&counter->value, memory_order_acquire);
}

/// Sets the counter to `value`.
static inline void fluxion_counter_store(fluxion_counter *counter, uint64_t value) {
    atomic_store_explicit(&counter->value, value, memory_order_release);
}

/// Replaces `expected` with `desired` if the value is still `expected`; whether it was.
static inline int fluxion_counter_replace(fluxion_counter *counter, uint64_t expected, uint64_t desired) {
    return atomic_compare_exchange_strong_explicit(
        &counter->value, &expected, desired, memory_order_acq_rel, memory_order_acquire);
}

/// Adds one to the counter.
static inline void fluxion_counter_advance(fluxion_counter *counter) {
    atomic_fetch_add_explicit(&counter->value, 1, memory_order_release);
}

#endif
