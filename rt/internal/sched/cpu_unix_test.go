//go:build unix

package sched

import "syscall"

// cpuTime returns the CPU time (user and system) the process has used, in
// nanoseconds: what a benchmark costs, less the waiting a loaded machine
// adds to its wall-clock time.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
