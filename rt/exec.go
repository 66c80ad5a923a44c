package rt

import (
	"bytes"
	"os/exec"
	"sync"
)

// Commands started by the program.
//
// For a Stdin, Stdout or Stderr that is not an *os.File, (*exec.Cmd).Start
// starts a goroutine of its own that copies between a pipe and the
// program's reader or writer, and Wait returns once those goroutines are
// done. Their reads and writes happen in code the tool does not
// instrument, between Start and the return of Wait; reading the buffer
// assigned to Stdout before Wait returns is a data race, which Go's race
// detector reports. Inside an exploration the instrumenter replaces Start,
// Wait, Run and Output by CmdStart, CmdWait, CmdRun and CmdOutput, which
// model the copy into or out of a *bytes.Buffer by a controlled goroutine
// started by Start, which reads and writes the whole buffer, and that
// Wait joins; the instrumenter reports the methods of bytes.Buffer the
// program calls as reads or writes of the whole buffer too. A
// bytes.Buffer is written by the copy whatever the command does (ReadFrom
// and WriteTo write it before they read or write any data). Other buffers
// of the standard library are not modeled: a strings.Builder is written
// only when the command writes something, and a strings.Reader or
// bytes.Reader only in fields that some of their methods do not read, so
// that a model of the whole buffer would report races that do not exist.
// Readers and writers of the program's own types need no model: their
// methods are instrumented, and the copying goroutine that calls them is
// adopted when it reaches the runtime (see sched's adopt.go).

// cmdCopies maps a started *exec.Cmd to the channel its modeled copying
// goroutine closes when done.
var cmdCopies sync.Map // *exec.Cmd -> chan struct{}

// CmdStart replaces (*exec.Cmd).Start.
func CmdStart(c *exec.Cmd, s Site) error {
	if err := c.Start(); err != nil {
		return err
	}
	if cur() == nil {
		return nil
	}
	bufs := cmdBuffers(c)
	if len(bufs) == 0 {
		return nil
	}
	done := MakeChan[struct{}](0, s)
	cmdCopies.Store(c, done)
	Go(func() {
		for _, b := range bufs {
			Update(b, s)
		}
		Close(done, s)
	}, s)
	return nil
}

// CmdWait replaces (*exec.Cmd).Wait: it joins the modeled copying
// goroutine of c, if any, then waits for the command.
func CmdWait(c *exec.Cmd, s Site) error {
	if done, ok := cmdCopies.LoadAndDelete(c); ok && cur() != nil {
		Recv(done.(chan struct{}), s)
	}
	return c.Wait()
}

// CmdRun replaces (*exec.Cmd).Run, which is Start then Wait.
func CmdRun(c *exec.Cmd, s Site) error {
	if err := CmdStart(c, s); err != nil {
		return err
	}
	return CmdWait(c, s)
}

// CmdOutput replaces (*exec.Cmd).Output. It writes the command's
// standard output to a buffer of its own, and its standard error to
// c.Stderr: the model matters when c.Stderr is a buffer it models, and
// then Output is what its documentation says (without the capture of
// standard error into the *exec.ExitError, which needs c.Stderr nil).
func CmdOutput(c *exec.Cmd, s Site) ([]byte, error) {
	if c.Stdout != nil || cur() == nil || len(cmdBuffers(c)) == 0 {
		return c.Output()
	}
	var stdout bytes.Buffer
	c.Stdout = &stdout
	err := CmdRun(c, s)
	return stdout.Bytes(), err
}

// cmdBuffers returns the buffers among c's Stdin, Stdout and Stderr whose
// memory a copying goroutine of Start reads and writes, each once.
func cmdBuffers(c *exec.Cmd) []*bytes.Buffer {
	var bufs []*bytes.Buffer
	add := func(x any) {
		b, ok := x.(*bytes.Buffer)
		if !ok || b == nil {
			return
		}
		for _, y := range bufs {
			if y == b {
				return
			}
		}
		bufs = append(bufs, b)
	}
	if c.Stdin != nil {
		add(c.Stdin)
	}
	if c.Stdout != nil {
		add(c.Stdout)
	}
	if c.Stderr != nil {
		add(c.Stderr)
	}
	return bufs
}
