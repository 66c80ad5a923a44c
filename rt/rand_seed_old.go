//go:build !go1.24

package rt

// randSeedNop reports whether rand.Seed does nothing in this program:
// before Go 1.24 it always seeds.
var randSeedNop = func() bool { return false }
