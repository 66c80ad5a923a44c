package rt

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"interleave.dev/rt/internal/explore"
	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/strategy/dpor"

	"interleave.dev/rt/wire"
)

// textbooks names the textbook programs the helper below runs.
var textbooks = map[string]textbook{}

func init() {
	for _, p := range append(smallTextbooks(), lastZero(4), lastZero(5), lastZero(7), philosophers(4), readersWriters(2, 2)) {
		textbooks[p.name] = p
	}
}

// TestHelperTextbook explores the textbook program $TEXTBOOK as a test
// (docs/systematic.md), failing when its outcome is $TEXTBOOK_BAD: what
// the tests of -workers under dpor, and the measurements of
// docs/scale.md, run. With $TEXTBOOK_CHECK it first says what the rounds
// of a dpor search explore run in this process alone; $TEXTBOOK_WORK
// makes each execution compute for that many steps more.
func TestHelperTextbook(t *testing.T) {
	if os.Getenv(wire.ConfigEnv) == "" {
		t.Skip("run by TestWorkersSplitDPOR, and by hand to measure -workers")
	}
	explore.WorkerDelay, explore.AwaitWorkers = 0, true
	explore.TreeReport = func(by map[string]int) { fmt.Printf("schedules by process: %v\n", by) }
	p, ok := textbooks[os.Getenv("TEXTBOOK")]
	if !ok {
		t.Fatalf("no textbook program %q", os.Getenv("TEXTBOOK"))
	}
	bad := os.Getenv("TEXTBOOK_BAD")
	work, _ := strconv.Atoi(os.Getenv("TEXTBOOK_WORK"))
	if cfg, _, _ := explore.Config(); cfg.Strategy == "dpor" && cfg.Worker == "" && os.Getenv("TEXTBOOK_CHECK") != "" {
		// What the rounds explore, run here in one process, with no
		// worker and no log: the executions, and the number of the
		// first whose outcome is bad.
		bound := cfg.Preemptions
		if bound <= 0 {
			bound = -1
		}
		optimal := cfg.DPOR != "source" && bound < 0
		limit := cmp.Or(cfg.Schedules, 1000)
		lr := dpor.NewLocalRounds(optimal, bound, limit)
		n, first := 0, 0
		sched.Explore(sched.Config{Strategy: dpor.NewJobs(lr, optimal, bound, 0), Schedules: math.MaxInt32, StuckAfter: 10 * time.Second}, func() {
			n++
			if p.body() == bad && first == 0 {
				first = n
			}
		})
		fmt.Printf("in one process: %d executions, covered %v, first bad %d\n", min(n, limit), lr.Complete(), first)
	}
	Test(t, func(t *testing.T) {
		if out := p.body(); out == bad {
			TErrorf(t, "outcome %s", out)
		}
		spin(work)
	})
}

// spin computes for n steps, as the code a test runs between its
// scheduling points does: the cost of an execution, not its choices.
func spin(n int) {
	x := uint64(1)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	if x == 0 {
		fmt.Print("")
	}
}
