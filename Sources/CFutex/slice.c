#include "CFutex.h"

#if defined(__linux__)
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

// The kernel's struct sched_attr (linux/sched/types.h, which clashes with glibc's sched.h).
struct csched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime;
    uint64_t sched_deadline;
    uint64_t sched_period;
};

int csched_set_nice_and_slice(int nice, uint64_t slice_nanoseconds) {
    struct csched_attr attr = {0};
    attr.size = sizeof attr;
    attr.sched_policy = SCHED_OTHER;
    attr.sched_nice = nice;
    attr.sched_runtime = slice_nanoseconds;
    return syscall(SYS_sched_setattr, 0, &attr, 0) == 0 ? 0 : -1;
}

uint64_t csched_slice(void) {
    struct csched_attr attr = {0};
    if (syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0) != 0) return 0;
    return attr.sched_runtime;
}
#else
int csched_set_nice_and_slice(int nice, uint64_t slice_nanoseconds) {
    (void)nice;
    (void)slice_nanoseconds;
    return -1;
}

uint64_t csched_slice(void) { return 0; }
#endif
