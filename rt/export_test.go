package rt

import "time"

// RandSeedNop says whether rand.Seed does nothing (GODEBUG randseednop);
// the tests set it to try both.
var RandSeedNop = &randSeedNop

// GodebugSetting is godebugSetting.
var GodebugSetting = godebugSetting

// Epoch returns the start of virtual time of the running iteration.
func Epoch() time.Time { return cur().Iteration().Epoch() }

// IterLayout says whether MapIter reads the entries of Go's iterator
// through its layout (otherwise through reflect); the tests set it to try
// both.
var IterLayout = &iterLayout
