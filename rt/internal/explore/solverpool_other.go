//go:build !linux

package rt

import "os/exec"

// dieWithParent does nothing where the system cannot tie a child's life
// to its parent's: the solver ends at its query's budget, then on the
// end of its input.
func dieWithParent(cmd *exec.Cmd) {}
