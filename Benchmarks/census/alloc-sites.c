// Live heap allocations by call site, for finding what a held stream keeps (issue "Close to the
// floor"). Preloaded into a server (LD_PRELOAD): SIGUSR1 starts recording the allocations made
// from then on (and forgets them as they are freed); SIGUSR2 writes the live ones, grouped by
// their call stack, to ALLOC_SITES_OUT (default /tmp/alloc-sites-PID), with the process's memory
// map for symbolizing. Benchmarks/run-stream-allocations.sh drives it; it is a measuring tool,
// not part of any server.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { DEPTH = 12, SITES = 8192, SLOTS = 1 << 22, MIN_LIVE = 50 };
typedef struct {
  void *frames[DEPTH];
  int depth;
  long live, bytes;
} Site;
static Site sites[SITES];
static int site_count;
// An open-addressing table from a recorded pointer to its site; TOMBSTONE marks a freed slot.
#define TOMBSTONE ((void *)1)
static void *slot_pointer[SLOTS];
static int slot_site[SLOTS];
static volatile sig_atomic_t recording;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int inside;  // backtrace() may allocate: not recorded

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
// dlsym itself calls calloc before real_calloc is known: served from here, never freed.
static char bootstrap[1 << 16];
static size_t bootstrap_used;

static int is_bootstrap(void *p) { return (char *)p >= bootstrap && (char *)p < bootstrap + sizeof bootstrap; }

static void resolve(void) {
  real_malloc = dlsym(RTLD_NEXT, "malloc");
  real_calloc = dlsym(RTLD_NEXT, "calloc");
  real_realloc = dlsym(RTLD_NEXT, "realloc");
  real_free = dlsym(RTLD_NEXT, "free");
  real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
  real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
}

static unsigned slot_of(void *p) { return (unsigned)(((uintptr_t)p >> 4) * 2654435761u) & (SLOTS - 1); }

static void record(void *p) {
  if (!recording || inside || !p) return;
  inside = 1;
  void *frames[DEPTH + 2];
  int depth = backtrace(frames, DEPTH + 2) - 2;  // without record() and the allocator's wrapper
  if (depth < 0) depth = 0;
  pthread_mutex_lock(&table_lock);
  int site = 0;
  while (site < site_count &&
         (sites[site].depth != depth || memcmp(sites[site].frames, frames + 2, depth * sizeof(void *))))
    site++;
  if (site == site_count && site_count < SITES) {
    memcpy(sites[site].frames, frames + 2, depth * sizeof(void *));
    sites[site].depth = depth;
    site_count++;
  }
  if (site < SITES) {
    unsigned slot = slot_of(p);
    while (slot_pointer[slot] && slot_pointer[slot] != TOMBSTONE) slot = (slot + 1) & (SLOTS - 1);
    slot_pointer[slot] = p;
    slot_site[slot] = site;
    sites[site].live++;
    sites[site].bytes += (long)malloc_usable_size(p);
  }
  pthread_mutex_unlock(&table_lock);
  inside = 0;
}

static void forget(void *p) {
  if (!p) return;
  pthread_mutex_lock(&table_lock);
  for (unsigned slot = slot_of(p); slot_pointer[slot]; slot = (slot + 1) & (SLOTS - 1)) {
    if (slot_pointer[slot] != p) continue;
    Site *site = &sites[slot_site[slot]];
    site->live--;
    site->bytes -= (long)malloc_usable_size(p);
    slot_pointer[slot] = TOMBSTONE;
    break;
  }
  pthread_mutex_unlock(&table_lock);
}

void *malloc(size_t size) {
  if (!real_malloc) resolve();
  void *p = real_malloc(size);
  record(p);
  return p;
}

void *calloc(size_t count, size_t size) {
  if (!real_calloc) {
    size_t bytes = (count * size + 15) & ~(size_t)15;
    if (bootstrap_used + bytes > sizeof bootstrap) return NULL;
    void *p = bootstrap + bootstrap_used;
    bootstrap_used += bytes;
    return p;
  }
  void *p = real_calloc(count, size);
  record(p);
  return p;
}

void *realloc(void *old, size_t size) {
  if (!real_realloc) resolve();
  if (is_bootstrap(old)) {
    void *p = real_malloc(size);
    if (p) memcpy(p, old, size < sizeof bootstrap ? size : sizeof bootstrap);
    record(p);
    return p;
  }
  forget(old);
  void *p = real_realloc(old, size);
  record(p);
  return p;
}

void free(void *p) {
  if (!real_free) resolve();
  if (!p || is_bootstrap(p)) return;
  forget(p);
  real_free(p);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (!real_posix_memalign) resolve();
  int error = real_posix_memalign(result, alignment, size);
  if (!error) record(*result);
  return error;
}

void *aligned_alloc(size_t alignment, size_t size) {
  if (!real_aligned_alloc) resolve();
  void *p = real_aligned_alloc(alignment, size);
  record(p);
  return p;
}

static void start_recording(int signal) {
  (void)signal;
  recording = 1;
}

// Not async-signal-safe (it allocates and writes files): a measuring tool's shortcut. The table
// lock is not taken here while formatting, so an allocation on this thread cannot deadlock on it.
static void write_sites(int signal) {
  (void)signal;
  int was_recording = recording;
  recording = 0;
  char path[256];
  const char *configured = getenv("ALLOC_SITES_OUT");
  if (configured) snprintf(path, sizeof path, "%s", configured);
  else snprintf(path, sizeof path, "/tmp/alloc-sites-%d", getpid());
  FILE *out = fopen(path, "w");
  if (!out) return;
  pthread_mutex_lock(&table_lock);
  int count = site_count;
  static Site copy[SITES];
  memcpy(copy, sites, sizeof(Site) * (size_t)count);
  pthread_mutex_unlock(&table_lock);
  for (int i = 0; i < count; i++) {
    if (copy[i].live < MIN_LIVE) continue;
    fprintf(out, "site %ld %ld\n", copy[i].live, copy[i].bytes);
    char **names = backtrace_symbols(copy[i].frames, copy[i].depth);
    for (int f = 0; f < copy[i].depth; f++) fprintf(out, "  %p %s\n", copy[i].frames[f], names ? names[f] : "?");
    free(names);
  }
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[512];
  while (maps && fgets(line, sizeof line, maps)) fprintf(out, "map %s", line);
  if (maps) fclose(maps);
  fclose(out);
  recording = was_recording;
}

__attribute__((constructor)) static void install(void) {
  resolve();
  signal(SIGUSR1, start_recording);
  signal(SIGUSR2, write_sites);
}
