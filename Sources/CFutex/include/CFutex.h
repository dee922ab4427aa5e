#ifndef CFUTEX_H
#define CFUTEX_H

#include <stdint.h>

// System calls Swift cannot make itself (`syscall` is variadic). First what Locking's MutexWord
// needs: the futex; only the contended path of a lock comes here.

/// Sleeps while `*word == expected` (Linux: FUTEX_WAIT_PRIVATE). May return early or spuriously:
/// the caller checks the word again. Elsewhere, yields the processor instead.
void cfutex_wait(uint32_t *word, uint32_t expected);

/// Wakes one thread sleeping on `word` in cfutex_wait (Linux: FUTEX_WAKE_PRIVATE); elsewhere, nothing.
void cfutex_wake_one(uint32_t *word);

// A descriptor that wakes a thread blocked in poll/epoll on it: how Reactive's RunLoopScheduler
// wakes its run loop from other threads without the run loop's own lock (see cwake_create).

/// A new wake-up descriptor (Linux: an eventfd, non-blocking and close-on-exec; a read returns its
/// count and resets it), or -1 where there is none.
int cwake_create(void);

/// Makes `descriptor` readable (adds one to its count); never blocks.
void cwake_signal(int descriptor);

/// Closes a descriptor made by cwake_create.
void cwake_close(int descriptor);

// The calling thread's scheduling (sched_setattr, which glibc 2.36 does not wrap): the playground's
// program threads take a short time slice, so that a scenario's thread that wakes gets a core soon.

/// Sets the calling thread's nice value and, on Linux 6.12 and later, its time slice (SCHED_OTHER's
/// `sched_runtime`: the kernel keeps it between 0.1 and 100 ms; older kernels ignore it).
/// Returns 0, or -1 if the kernel refused (errno says why).
int csched_set_nice_and_slice(int nice, uint64_t slice_nanoseconds);

/// The calling thread's time slice as set by csched_set_nice_and_slice, in nanoseconds (0: the
/// kernel's default, or none known).
uint64_t csched_slice(void);

#endif
