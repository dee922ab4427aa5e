#include "CFutex.h"

#if defined(__linux__)
#include <sys/eventfd.h>
#include <unistd.h>

int cwake_create(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

void cwake_signal(int descriptor) {
    // Fails only if the count would overflow (it is reset by every read): then it is readable anyway.
    (void)eventfd_write(descriptor, 1);
}

void cwake_close(int descriptor) { close(descriptor); }
#else
int cwake_create(void) { return -1; }

void cwake_signal(int descriptor) { (void)descriptor; }

void cwake_close(int descriptor) { (void)descriptor; }
#endif
