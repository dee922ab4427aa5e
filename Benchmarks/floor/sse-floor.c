/*
 * The floor of a held Server-Sent-Event stream on libmicrohttpd: the least a server on this
 * library can spend per idle stream, to measure the playground and microhttp-echo against.
 *
 * It speaks microhttp-echo's protocol, so the same load tool drives both: GET /events holds a
 * text/event-stream open; POST /publish sends its body to every stream as one event. Nothing else:
 * no routing, no headers beyond the content type, no per-stream buffer (every stream reads the
 * one latest event, kept once), one polling thread, and the smallest memory settings that still
 * serve (`--pool` bytes of connection memory, `--block` bytes of response block; both tested by
 * the load tool's check that every stream gets the final event). An idle stream is a suspended
 * connection, as in MicroHTTP: libmicrohttpd does not poll it until an event resumes it, so, as
 * microhttp-echo does, every stream is sent a keep-alive comment every 2 s, which is how the
 * connections of clients that left are noticed and freed (else the floor would only grow).
 * The loop is the program's own (epoll, no thread of libmicrohttpd's), so everything runs on one
 * thread.
 *
 * Build: clang -O2 -o sse-floor sse-floor.c -lmicrohttpd (Benchmarks/run-held-streams.sh does)
 * Usage: sse-floor --port N [--pool BYTES] [--block BYTES]
 */
#include <microhttpd.h>
#include <poll.h>
#include <stdint.h>
#include <sys/mman.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The latest event, as sent on the wire, and its number. */
static char event_frame[1024];
static size_t event_length;
static unsigned long event_number;

/* One held stream: its connection, the number of the last event it sent, and whether it waits. */
struct stream {
  struct MHD_Connection *connection;
  unsigned long sent;
  size_t offset; /* how much of the latest event's frame it has sent */
  int suspended;
  /* The reader's buffer, the most one read wrote into it, and whether its pages were given back. */
  uintptr_t scratch_start;
  size_t scratch_capacity, scratch_reach;
  int scratch_released;
  struct stream *previous, *next;
};
static struct stream *streams;

/*
 * The first time a stream goes idle with a buffer, the whole pages of it past what was written go
 * back to the kernel, as MicroHTTP's streams do (ScratchPages in EventStream.swift): a chunked
 * reply is read straight into the connection's free memory, which libmicrohttpd zeroed (so
 * touched) when the reply began. The least a server with a big connection memory need keep.
 */
static void hand_over(struct stream *stream, char *buf, size_t max) {
  if ((uintptr_t)buf == stream->scratch_start && max == stream->scratch_capacity) return;
  stream->scratch_start = (uintptr_t)buf;
  stream->scratch_capacity = max;
  stream->scratch_reach = 0;
  stream->scratch_released = 0;
}

static void release_scratch(struct stream *stream, char *buf, size_t max) {
  hand_over(stream, buf, max);
  if (stream->scratch_released) return;
  stream->scratch_released = 1;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t first = ((uintptr_t)buf + stream->scratch_reach + page - 1) / page * page;
  uintptr_t end = ((uintptr_t)buf + max) / page * page;
  if (end > first) madvise((void *)first, end - first, MADV_DONTNEED);
}

static ssize_t read_events(void *cls, uint64_t pos, char *buf, size_t max) {
  struct stream *stream = cls;
  (void)pos;
  if (stream->sent != event_number) {
    size_t count = event_length - stream->offset;
    if (count > max) count = max;
    memcpy(buf, event_frame + stream->offset, count);
    stream->offset += count;
    hand_over(stream, buf, max);
    if (count + 2 > stream->scratch_reach) stream->scratch_reach = count + 2; /* and the chunk's CRLF */
    if (stream->offset == event_length) {
      stream->sent = event_number;
      stream->offset = 0;
    }
    return (ssize_t)count;
  }
  stream->suspended = 1;
  MHD_suspend_connection(stream->connection);
  release_scratch(stream, buf, max);
  return 0;
}

static void free_stream(void *cls) {
  struct stream *stream = cls;
  if (stream->previous) stream->previous->next = stream->next;
  else streams = stream->next;
  if (stream->next) stream->next->previous = stream->previous;
  free(stream);
}

/* A POST's body, gathered while it arrives (events are small: the rest is cut). */
struct body {
  char bytes[512];
  size_t length;
};

/* Whether streams were resumed since libmicrohttpd last ran. */
static int resumed;

/* Sends `frame` to every stream: the latest event, or a keep-alive comment. */
static void send_to_all(const char *frame, size_t length) {
  if (length > sizeof event_frame) length = sizeof event_frame;
  memcpy(event_frame, frame, length);
  event_length = length;
  event_number += 1;
  resumed = 1;
  for (struct stream *stream = streams; stream; stream = stream->next) {
    stream->offset = 0;
    if (stream->suspended) {
      stream->suspended = 0;
      MHD_resume_connection(stream->connection);
    }
  }
}

static void publish(const char *data, size_t length) {
  char frame[sizeof event_frame];
  int written = snprintf(frame, sizeof frame, "data: %.*s\n\n", (int)length, data);
  send_to_all(frame, written < 0 ? 0 : (size_t)written);
}

static double now_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static size_t block_size = 16; /* a chunked reply never fills it: it is read into the connection memory */

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_size, void **context) {
  (void)cls;
  (void)version;
  struct MHD_Response *response;
  enum MHD_Result result;
  if (strcmp(method, "POST") == 0 && strcmp(url, "/publish") == 0) {
    struct body *body = *context;
    if (!body) {
      body = calloc(1, sizeof *body);
      if (!body) return MHD_NO;
      *context = body;
      return MHD_YES;
    }
    if (*upload_size) {
      size_t room = sizeof body->bytes - body->length;
      size_t count = *upload_size < room ? *upload_size : room;
      memcpy(body->bytes + body->length, upload_data, count);
      body->length += count;
      *upload_size = 0;
      return MHD_YES;
    }
    publish(body->bytes, body->length);
    free(body);
    *context = NULL;
    response = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    result = MHD_queue_response(connection, MHD_HTTP_NO_CONTENT, response);
    MHD_destroy_response(response);
    return result;
  }
  if (strcmp(method, "GET") == 0 && strcmp(url, "/events") == 0) {
    struct stream *stream = calloc(1, sizeof *stream);
    if (!stream) return MHD_NO;
    stream->connection = connection;
    stream->sent = event_number; /* from the next event on */
    stream->next = streams;
    if (streams) streams->previous = stream;
    streams = stream;
    response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, block_size, read_events, stream, free_stream);
    MHD_add_response_header(response, "Content-Type", "text/event-stream");
    result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
  }
  response = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
  result = MHD_queue_response(connection, MHD_HTTP_NOT_FOUND, response);
  MHD_destroy_response(response);
  return result;
}

static volatile sig_atomic_t stopping;
static void stop(int signal_number) {
  (void)signal_number;
  stopping = 1;
}

int main(int argc, char **argv) {
  unsigned port = 0;
  size_t pool = 1024;
  for (int index = 1; index + 1 < argc; index += 2) {
    long value = strtol(argv[index + 1], NULL, 10);
    if (value <= 0 || value > 1 << 20) {
      fprintf(stderr, "%s takes a number from 1 to 1048576\n", argv[index]);
      return 2;
    }
    if (strcmp(argv[index], "--port") == 0 && value < 65536) port = (unsigned)value;
    else if (strcmp(argv[index], "--pool") == 0) pool = (size_t)value;
    else if (strcmp(argv[index], "--block") == 0) block_size = (size_t)value;
    else {
      fprintf(stderr, "usage: %s --port N [--pool BYTES] [--block BYTES]\n", argv[0]);
      return 2;
    }
  }
  if (!port) {
    fprintf(stderr, "usage: %s --port N [--pool BYTES] [--block BYTES]\n", argv[0]);
    return 2;
  }
  struct MHD_Daemon *daemon = MHD_start_daemon(
      MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, (uint16_t)port, NULL, NULL,
      answer, NULL, MHD_OPTION_CONNECTION_MEMORY_LIMIT, pool, MHD_OPTION_CONNECTION_MEMORY_INCREMENT, (size_t)128,
      MHD_OPTION_CONNECTION_LIMIT, (unsigned)20000, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)0, MHD_OPTION_END);
  if (!daemon) {
    fprintf(stderr, "libmicrohttpd did not start on port %u\n", port);
    return 1;
  }
  signal(SIGTERM, stop);
  signal(SIGINT, stop);
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
  struct pollfd ready = {.fd = info->epoll_fd, .events = POLLIN};
  double keep_alive_due = now_seconds() + 2;
  while (!stopping) {
    poll(&ready, 1, resumed ? 0 : 250);
    resumed = 0;
    MHD_run(daemon);
    if (now_seconds() >= keep_alive_due) {
      send_to_all(": keep-alive\n\n", 14);
      keep_alive_due = now_seconds() + 2;
    }
  }
  /* Not MHD_stop_daemon: it refuses to stop with suspended connections, and the process ends
     anyway. */
  return 0;
}
