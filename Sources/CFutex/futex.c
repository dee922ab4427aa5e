#include "CFutex.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void cfutex_wait(uint32_t *word, uint32_t expected) {
    // EAGAIN (the word changed), EINTR and spurious wake-ups all return to the caller's loop.
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void cfutex_wake_one(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#else
#include <sched.h>

void cfutex_wait(uint32_t *word, uint32_t expected) {
    (void)word;
    (void)expected;
    sched_yield();
}

void cfutex_wake_one(uint32_t *word) { (void)word; }
#endif
