extension Dictionary {
    /// Hands back storage that a dictionary kept from its largest size: a dictionary never shrinks
    /// by itself, so after a flood (of scheduled work, of sessions) it would hold the flood's
    /// capacity for good. Rebuilds only once seven eighths are empty, so it is O(1) amortised per
    /// removal. Internal to this package (the scheduler and the playground's session store).
    package mutating func shrinkIfSparse() {
        guard capacity > 1_024, count * 8 < capacity else { return }
        var shrunk = Self(minimumCapacity: count * 2)
        for (key, value) in self { shrunk[key] = value }
        self = shrunk
    }
}
