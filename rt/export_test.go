package rt

import "time"

// WorkerDelay lets the tests start workers at once.
var WorkerDelay = &workerDelay

// RandSeedNop says whether rand.Seed does nothing (GODEBUG randseednop);
// the tests set it to try both.
var RandSeedNop = &randSeedNop

// GodebugSetting is godebugSetting.
var GodebugSetting = godebugSetting

// TreeReport lets the tests see which process ran how much of a split
// search.
var TreeReport = &treeReport

// Epoch returns the start of virtual time of the running iteration.
func Epoch() time.Time { return cur().Iteration().Epoch() }
