package driver

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// TimingEnv, set to 1, makes the driver print how long each step took.
const TimingEnv = "INTERLEAVE_TIMING"

// timer records the duration of the driver's steps.
type timer struct {
	on    bool
	start time.Time
	last  time.Time
	laps  []string
}

// newTimer starts a timer that prints when env (or, if nil, the process
// environment) sets TimingEnv to 1.
func newTimer(env []string) *timer {
	now := time.Now()
	t := &timer{start: now, last: now}
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		if kv == TimingEnv+"=1" {
			t.on = true
		}
	}
	return t
}

func (t *timer) lap(step string) {
	now := time.Now()
	t.laps = append(t.laps, fmt.Sprintf("%s %v", step, now.Sub(t.last).Round(time.Millisecond)))
	t.last = now
}

func (t *timer) print(w io.Writer) {
	if t.on {
		fmt.Fprintf(w, "interleave: timing: %s; total %v\n", strings.Join(t.laps, ", "), time.Since(t.start).Round(time.Millisecond))
	}
}
