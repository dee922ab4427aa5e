// A header-only shim between Swift and libmicrohttpd.
//
// Swift cannot call C variadic functions (MHD_start_daemon, MHD_get_daemon_info,
// MHD_get_connection_info) and does not import macros with casts (MHD_SIZE_UNKNOWN, the
// content-reader end codes). Everything here is a typed `static inline` wrapper, so a wrong
// C type is a compile error rather than a silent misread of a va_list.
#ifndef REACTIVE_PLAYGROUND_MHD_SHIM_H
#define REACTIVE_PLAYGROUND_MHD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include <malloc.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

/// glibc's `malloc_trim`: returns freed heap memory to the system.
static inline int rp_malloc_trim(void) { return malloc_trim(0); }

/// glibc's `mallopt(M_ARENA_MAX, count)`: at most `count` malloc arenas. Returns 1 on success.
static inline int rp_limit_malloc_arenas(int count) { return mallopt(M_ARENA_MAX, count); }

/// glibc's `mallopt(M_TRIM_THRESHOLD, bytes)`: the free space at the top of an arena beyond which
/// `free` gives it back. Setting it also stops glibc from raising it (and the mmap threshold) as
/// large blocks are freed. Returns 1 on success.
static inline int rp_fix_malloc_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }

/// The process's resident memory in bytes (the second field of /proc/self/statm, in pages), or -1.
/// A kernel counter: unlike `mallinfo2` it takes no allocator lock and does not walk the heap.
/// Parsed by hand, so that reading it allocates nothing.
static inline long long rp_resident_bytes(void) {
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[128];
    ssize_t length = read(fd, text, sizeof text - 1);
    close(fd);
    if (length <= 0) return -1;
    text[length] = 0;
    const char *cursor = text;
    while (*cursor >= '0' && *cursor <= '9') cursor++; /* the total size */
    if (*cursor != ' ') return -1;
    cursor++;
    if (*cursor < '0' || *cursor > '9') return -1;
    long long pages = 0;
    for (; *cursor >= '0' && *cursor <= '9'; cursor++) {
        if (pages > (long long)1 << 40) return -1; /* no real process: keeps the product in range */
        pages = pages * 10 + (*cursor - '0');
    }
    return pages * sysconf(_SC_PAGESIZE);
}
/* Bytes the heap has handed out and not had back: in its arenas, and in chunks of their own (mmap). */
static inline size_t rp_heap_used_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

/// Makes the kernel find out about a peer that vanished without a word: TCP keep-alive probes after
/// `idle_seconds` of silence, every `interval_seconds`, `count` of them; and data left unacknowledged
/// for `user_timeout_ms` ends the connection. Returns 0, or -1 if any option failed.
static inline int rp_set_tcp_liveness(int fd, int idle_seconds, int interval_seconds, int count,
                                      unsigned int user_timeout_ms) {
    int on = 1;
    int failed = 0;
    failed |= setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    failed |= setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle_seconds, sizeof idle_seconds);
    failed |= setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval_seconds, sizeof interval_seconds);
    failed |= setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
    failed |= setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof user_timeout_ms);
    return failed ? -1 : 0;
}

/// Adds `fd` to the epoll set `epoll_fd`, reporting (edge-triggered) only the peer's hang-up and
/// errors, with `token` as the event's data. Returns 0 or -1.
static inline int rp_epoll_watch_hangup(int epoll_fd, int fd, uint64_t token) {
    struct epoll_event event = { .events = EPOLLRDHUP | EPOLLHUP | EPOLLERR | EPOLLET, .data = { .u64 = token } };
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
}

/// Waits up to `timeout_ms` for events on `epoll_fd`; writes at most `capacity` tokens of ready
/// descriptors to `tokens`; returns their number, 0 on time-out, or -1.
static inline int rp_epoll_wait_tokens(int epoll_fd, uint64_t *tokens, int capacity, int timeout_ms) {
    struct epoll_event events[256];
    int limit = capacity < 256 ? capacity : 256;
    int count = epoll_wait(epoll_fd, events, limit, timeout_ms);
    for (int i = 0; i < count; i++) tokens[i] = events[i].data.u64;
    return count;
}

/// The connection's socket, or -1.
static inline int rp_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The socket context set in the connection-notify callback, or NULL.
static inline void *rp_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// The size of the request head received (request line and header fields), or 0 if unknown.
static inline size_t rp_connection_head_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/// Gives `connection` a timeout of its own, `seconds` from its last activity. libmicrohttpd 0.9.75
/// leaves a connection closed by a failing content reader out of its cleanup list; its timeout scan
/// visits every connection with a timeout of its own each turn, so this bounds how long it stays.
/// Call on libmicrohttpd's thread (from a callback). Returns MHD_YES or MHD_NO.
static inline enum MHD_Result rp_connection_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/// `MHD_SIZE_UNKNOWN`: the total size of a callback response is not known (chunked encoding).
static inline uint64_t rp_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

/// `MHD_CONTENT_READER_END_OF_STREAM`: a content reader's "the stream ended normally".
static inline ssize_t rp_reader_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/// `MHD_CONTENT_READER_END_WITH_ERROR`: a content reader's "abort the connection".
static inline ssize_t rp_reader_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

/// The size of a memory page in bytes.
static inline size_t rp_page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/// Gives the whole pages inside `[buffer, buffer + length)` back to the kernel (`MADV_DONTNEED`) and
/// returns how many bytes that was (0 when no whole page lies inside, or if the kernel refused).
/// For private anonymous memory, which is what malloc's heaps are, a released page reads as zeros
/// when next touched: to the program this is the same as writing zeros over those pages, so it
/// is safe exactly where writing zeros would be - memory the caller may overwrite and that no
/// other thread touches meanwhile.
static inline size_t rp_release_scratch_pages(void *buffer, size_t length) {
    uintptr_t page = rp_page_size();
    uintptr_t start = (uintptr_t)buffer;
    if (length < page || start > UINTPTR_MAX - length) return 0;
    uintptr_t first = (start + page - 1) / page * page;
    uintptr_t end = (start + length) / page * page;
    if (end <= first) return 0;
    if (madvise((void *)first, end - first, MADV_DONTNEED) != 0) return 0;
    return end - first;
}

/// An option item carrying an integer value.
static inline struct MHD_OptionItem rp_option_int(enum MHD_OPTION option, intptr_t value) {
    struct MHD_OptionItem item = { option, value, NULL };
    return item;
}

/// An option item carrying one pointer value.
static inline struct MHD_OptionItem rp_option_pointer(enum MHD_OPTION option, void *pointer) {
    struct MHD_OptionItem item = { option, 0, pointer };
    return item;
}

/// `MHD_OPTION_NOTIFY_COMPLETED` with its callback and closure.
static inline struct MHD_OptionItem rp_option_notify_completed(MHD_RequestCompletedCallback callback, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) callback, cls };
    return item;
}

/// `MHD_OPTION_NOTIFY_CONNECTION` with its callback and closure.
static inline struct MHD_OptionItem rp_option_notify_connection(MHD_NotifyConnectionCallback callback, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) callback, cls };
    return item;
}

/// `MHD_OPTION_UNESCAPE_CALLBACK` with its callback and closure.
static inline struct MHD_OptionItem rp_option_unescape(size_t (*callback)(void *cls, struct MHD_Connection *c, char *s), void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) callback, cls };
    return item;
}

/// One message from libmicrohttpd, implemented in Swift (MicroHTTP, `@_cdecl`).
void rp_microhttpd_log(void *cls, const char *message);

/// libmicrohttpd's external logger: formats its message and hands it to `rp_microhttpd_log`.
static inline void rp_format_microhttpd_log(void *cls, const char *format, va_list arguments) {
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    rp_microhttpd_log(cls, message);
}

/// `MHD_OPTION_EXTERNAL_LOGGER`: libmicrohttpd's own error messages go to `rp_microhttpd_log`.
static inline struct MHD_OptionItem rp_option_logger(void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) rp_format_microhttpd_log, cls };
    return item;
}

/// The terminating `MHD_OPTION_END` item.
static inline struct MHD_OptionItem rp_option_end(void) {
    struct MHD_OptionItem item = { MHD_OPTION_END, 0, NULL };
    return item;
}

/// Starts a daemon with every option in `options` (terminated by `MHD_OPTION_END`), passed as
/// one `MHD_OPTION_ARRAY`.
static inline struct MHD_Daemon *rp_start_daemon(unsigned int flags, uint16_t port,
                                                 MHD_AccessHandlerCallback handler, void *handler_cls,
                                                 struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon is bound to (useful after binding port 0), or 0 if unknown.
static inline uint16_t rp_daemon_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* glibc declares accept4 only with _GNU_SOURCE, which would change how its headers define
   fd_set here and not in Swift's Glibc module (a module mismatch under the thread sanitizer). */
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// `accept4` (a GNU extension Swift does not see): the next connection of `listener` as a
/// non-blocking, close-on-exec socket, or -1 (errno says why).
static inline int rp_accept(int listener, struct sockaddr *address, socklen_t *length) {
    return accept4(listener, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/// A new non-blocking, close-on-exec TCP socket of `family`, or -1.
static inline int rp_stream_socket(int family) {
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

/// A new non-blocking, close-on-exec eventfd (a wake-up counter for a poll loop), or -1.
static inline int rp_wake_descriptor(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

/// The daemon's epoll descriptor, readable while libmicrohttpd has events to handle, or -1.
static inline int rp_daemon_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

/// The daemon's listening socket, or -1.
static inline int rp_daemon_listen_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    return info == NULL ? -1 : info->listen_fd;
}

/// How long the daemon's loop may wait for events before `MHD_run` is due (`MHD_get_timeout`), in
/// milliseconds and at most `cap`; `cap` when no connection has a timeout pending.
static inline int rp_daemon_wait_ms(struct MHD_Daemon *daemon, int cap) {
    MHD_UNSIGNED_LONG_LONG timeout = 0;
    if (MHD_get_timeout(daemon, &timeout) != MHD_YES) return cap;
    return timeout < (MHD_UNSIGNED_LONG_LONG) cap ? (int) timeout : cap;
}

/// The daemon serving `connection`, or NULL.
static inline struct MHD_Daemon *rp_connection_daemon(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_DAEMON);
    return info == NULL ? NULL : info->daemon;
}

/// Makes libmicrohttpd close `connection` after its current reply, as if the client had sent
/// `Connection: close` (libmicrohttpd then sends it too). Call from the access handler; the
/// strings are static, as libmicrohttpd keeps the pointers. Takes one record of the connection's
/// memory. Returns MHD_YES or MHD_NO.
static inline enum MHD_Result rp_connection_close_after_reply(struct MHD_Connection *connection) {
    return MHD_set_connection_value(connection, MHD_HEADER_KIND, "Connection", "close");
}

/// The client's socket address, or NULL.
static inline const struct sockaddr *rp_connection_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// Copies of one header of a response (`rp_response_drop_headers`).
struct rp_header_copy {
    size_t skip;
    int found;
    char *name;
    char *value;
};

static inline enum MHD_Result rp_copy_header_at(void *cls, enum MHD_ValueKind kind, const char *name,
                                                const char *value) {
    (void)kind;
    struct rp_header_copy *copy = cls;
    if (copy->skip > 0) { copy->skip -= 1; return MHD_YES; }
    copy->found = 1;
    copy->name = strdup(name);
    copy->value = strdup(value == NULL ? "" : value);
    return MHD_NO;
}

/// Deletes every header (and footer) of `response`; returns how many are left (0 unless one
/// could not be deleted). libmicrohttpd 0.9.75 reads a response's headers only to write its
/// head (and, at the end of a chunked body, its footers), so a reply whose head is written and
/// that has no footers no longer needs them: a long-lived stream gives their memory back
/// (three allocations per header). Call on the connection's polling thread, from the content
/// reader, and only for a response that no other connection shares. `MHD_del_response_header`
/// compares names after freeing the header's own copy, so it gets copies.
static inline unsigned int rp_response_drop_headers(struct MHD_Response *response) {
    size_t kept = 0;
    for (;;) {
        struct rp_header_copy copy = { kept, 0, NULL, NULL };
        MHD_get_response_headers(response, rp_copy_header_at, &copy);
        if (!copy.found) break;
        if (copy.name == NULL || copy.value == NULL) {
            free(copy.name);
            free(copy.value);
            kept += 1;  // out of memory for a copy: keep that one
            continue;
        }
        if (MHD_del_response_header(response, copy.name, copy.value) != MHD_YES) kept += 1;
        free(copy.name);
        free(copy.value);
    }
    return (unsigned int)kept;
}

#endif
