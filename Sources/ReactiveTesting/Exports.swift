// The notation (`Marbles.parse`, `render`, `Recorded`, subscription diagrams) is MarbleNotation's,
// shared with the pipeline language and the playground; a test imports ReactiveTesting alone.
@_exported import MarbleNotation
