package explore

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the solver process end when the test binary does
// (killed by a -timeout, or by the driver): a query in progress would
// otherwise keep it running.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
