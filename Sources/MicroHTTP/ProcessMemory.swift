import CMicroHTTPD

/// Process-wide allocator policy for a server that must give memory back after a flood.
public enum ProcessMemory {
    /// Limits glibc's malloc to `count` arenas (`mallopt(M_ARENA_MAX)`); call it first thing in
    /// `main`, before threads start. Returns whether glibc took it.
    ///
    /// Why: by default every thread that allocates gets an arena of its own (up to 8 per core).
    /// `malloc_trim` returns the free pages inside an arena but not the free space at the end of a
    /// thread's arena, so after 50,000 sessions expired, a few MiB per arena stayed resident
    /// (RSS 1.15–1.27 times its figure before, when trims ran whenever the free heap grew). Fewer
    /// arenas keep less, but threads that share an arena share its lock: the playground keeps
    /// glibc's default so that no two of its threads share one, `microhttp-echo` takes one
    /// (docs/PERFORMANCE.md, "Resilience and hostile programs").
    @discardableResult
    public static func limitAllocatorArenas(to count: Int) -> Bool {
        rp_limit_malloc_arenas(Int32(clamping: count)) == 1
    }

    /// Has every arena give back the free space at its top once it exceeds `bytes`
    /// (`mallopt(M_TRIM_THRESHOLD)`); call it with ``limitAllocatorArenas(to:)``.
    ///
    /// Why: glibc raises that threshold, up to 64 MiB, each time a large block is freed, and
    /// `malloc_trim` returns the free pages inside a thread's arena but not the space at its top,
    /// so with an arena per thread, megabytes per arena stayed resident after a flood (RSS 1.20
    /// times its figure before 50,000 sessions expired; 1.07–1.08 with the threshold fixed at 128 KiB,
    /// glibc's starting value: docs/PERFORMANCE.md, "Where the time and memory go"). Fixing it also fixes the
    /// size from which blocks get mappings of their own at glibc's starting 128 KiB.
    @discardableResult
    public static func fixTrimThreshold(at bytes: Int) -> Bool {
        rp_fix_malloc_trim_threshold(Int32(clamping: bytes)) == 1
    }

    /// Bytes the heap has handed out and not had back (glibc's `mallinfo2`: `uordblks` in the
    /// arenas and `hblkhd` in chunks mapped on their own): what a server watches to know that
    /// its memory is running short, whatever RSS freed pages still hold.
    ///
    /// Costly: glibc walks every free chunk of the heap under the allocator's lock, which stalls
    /// every allocating thread meanwhile (milliseconds on a large, fragmented heap). Ask
    /// ``residentBytes()`` first: what is in use and was ever written is resident.
    public static func heapBytesInUse() -> Int {
        Int(clamping: rp_heap_used_bytes())
    }

    /// The process's resident memory (RSS) in bytes, from `/proc/self/statm`; `nil` where that
    /// cannot be read. Cheap: a kernel counter, no allocator lock.
    public static func residentBytes() -> Int? {
        let bytes = rp_resident_bytes()
        return bytes >= 0 ? Int(bytes) : nil
    }
}
