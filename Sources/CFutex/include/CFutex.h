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

#endif
