#ifndef CINSPECTION_H
#define CINSPECTION_H

// How many threads inspect Reactive's objects now (Reactive's Inspection.run): a plain C global, so
// that every place in Reactive that could report — some of them compiled into other modules —
// reads it with one load. A Swift global would be read through its lazy initializer's accessor,
// a call on every subscription (docs/PERFORMANCE.md, "Inspection").

extern long cinspection_scopes;

/// The number of inspection scopes open on every thread (relaxed: a place that reads a stale 0
/// simply does not report, as it would have a moment earlier).
static inline long cinspection_scope_count(void) { return __atomic_load_n(&cinspection_scopes, __ATOMIC_RELAXED); }

/// One more scope open.
static inline void cinspection_enter(void) { __atomic_fetch_add(&cinspection_scopes, 1, __ATOMIC_RELAXED); }

/// One scope fewer.
static inline void cinspection_leave(void) { __atomic_fetch_sub(&cinspection_scopes, 1, __ATOMIC_RELAXED); }

#endif
