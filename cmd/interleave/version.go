package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"interleave.dev"
	"interleave.dev/internal/driver"
)

// runVersion prints the version of the command and of its runtime.
func runVersion(stdout, stderr io.Writer) int {
	v := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	rt, err := driver.RuntimeVersion(interleave.RuntimeSource)
	if err != nil {
		fmt.Fprintf(stderr, "interleave: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "interleave %s (%s, runtime %s)\n", v, runtime.Version(), rt[:12])
	return 0
}
