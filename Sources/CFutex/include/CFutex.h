#ifndef CFUTEX_H
#define CFUTEX_H

#include <stdint.h>

// What Locking's MutexWord cannot call from Swift: the futex system call is variadic (`syscall`).
// Only the contended path of a lock comes here.

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

#endif
