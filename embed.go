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
