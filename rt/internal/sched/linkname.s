// This file lets package sched declare functions without a body that
// go:linkname binds to the Go runtime (lockedOSThread).
