package main

import "interleave.dev/internal/driver"

// instrumentFile is the instrumenter the command uses.
var instrumentFile driver.InstrumentFunc
