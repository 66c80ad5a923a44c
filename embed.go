// Package interleave is the root of the interleave module. It carries the
// source of the runtime package tree (rt) so that the command can inject it,
// as a module of its own, into the builds of the code it tests.
package interleave

import "embed"

// RuntimeSource holds the source tree of interleave.dev/rt and its
// subpackages, rooted at "rt". The driver writes it out once per version
// into a cache directory, minus test files and testdata, and points the
// user's build at it with a replace directive.
//
//go:embed rt
var RuntimeSource embed.FS

// SolverSource holds the source of interleave-solver, the process that
// answers the queries of strategy mcr with Z3: the only part of the
// project that uses cgo. The driver builds it from here into the cache at
// the first mcr run, so that the command itself builds and runs every
// other strategy on a machine without Z3.
//
//go:embed rt/wire internal/z3 internal/mcr cmd/interleave-solver
var SolverSource embed.FS
