package difftest

import (
	"bufio"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"interleave.dev/rt/wire"
)

// Pair is an unordered pair of lines of the test file: the two accesses of
// a data race. A is at most B.
type Pair struct{ A, B int }

// NewPair returns the pair of lines a and b.
func NewPair(a, b int) Pair {
	if a > b {
		a, b = b, a
	}
	return Pair{a, b}
}

// Has reports whether line l is one of the pair's.
func (p Pair) Has(l int) bool { return p.A == l || p.B == l }

// String returns the pair as "A/B".
func (p Pair) String() string { return strconv.Itoa(p.A) + "/" + strconv.Itoa(p.B) }

// Native is what the native runs of one form showed.
type Native struct {
	Runs int `json:"runs"`
	// Races are the pairs of racing lines go test -race reported.
	Races map[Pair]int `json:"-"`
	// Outcomes counts the digests recorded, Seq the sequential values.
	Outcomes map[string]int `json:"outcomes"`
	Seq      map[string]int `json:"seq"`
	// Failures counts the runs that ended otherwise: "panic", "test
	// failure", "hang", "fatal error".
	Failures map[string]int `json:"failures"`
}

func newNative() *Native {
	return &Native{Races: map[Pair]int{}, Outcomes: map[string]int{}, Seq: map[string]int{}, Failures: map[string]int{}}
}

// Run is one run of the instrumented test binary on one form.
type Run struct {
	Form     Form   `json:"form"`
	Strategy string `json:"strategy"`
	Seed     int64  `json:"seed"`
	Workers  int    `json:"workers,omitempty"`
	Shard    string `json:"shard,omitempty"`
	// NoRace is set when the run did not detect races.
	NoRace bool `json:"no_race,omitempty"`
	// Timers is the timer policy ("": the default).
	Timers string `json:"timers,omitempty"`
	// Result is the runtime's result record (nil: none, a crash).
	Result *wire.Result `json:"result,omitempty"`
	// Race is the pair of lines of a data race finding.
	Race *Pair `json:"race,omitempty"`
	// Outcomes and Seq are what the schedules of the run recorded.
	Outcomes map[string]int `json:"outcomes,omitempty"`
	Seq      map[string]int `json:"seq,omitempty"`
	// Output is the tail of the test binary's output.
	Output string `json:"output,omitempty"`
	// Err says why there is no result.
	Err     string  `json:"err,omitempty"`
	Seconds float64 `json:"seconds"`
}

// Finding reports whether the run reported a finding, and its kind.
func (r *Run) Finding() (string, bool) {
	if r.Result == nil || r.Result.Outcome != wire.OutcomeFinding {
		return "", false
	}
	return r.Result.Kind, true
}

// budgetBound reports whether what the run found depended on the
// machine's speed: its wall-clock budget ran out (or nearly), or a check
// of its solver gave up at its time bound (mcr, mpc), so that the same
// search on a loaded machine may take another path.
func (r *Run) budgetBound(budget time.Duration) bool {
	if r.Result == nil {
		return false
	}
	if r.Result.MCR != nil && r.Result.MCR.Unknown > 0 {
		return true
	}
	return budget > 0 && r.Result.Seconds >= 0.8*budget.Seconds()
}

// Verified reports whether the run says it covered the whole space and
// found nothing.
func (r *Run) Verified() bool {
	return r.Result != nil && r.Result.Outcome == wire.OutcomePass && r.Result.Exhausted
}

// Replay is the replays of one finding's schedule file.
type Replay struct {
	Run     *Run     `json:"-"`
	Verdict string   `json:"verdict"` // the finding's kind
	Got     []string `json:"got"`     // the verdict of each replay
	Again   string   `json:"again"`   // the verdict of the same strategy and seed run again
	// AgainBound says the run again depended on the machine's speed
	// (Run.budgetBound): its verdict is not compared.
	AgainBound bool     `json:"again_bound,omitempty"`
	Outputs    []string `json:"-"` // the output of replays that differed
}

// Observation is everything seen of one program.
type Observation struct {
	Program  *Program         `json:"-"`
	Rendered *Rendered        `json:"-"`
	Native   map[Form]*Native `json:"native"`
	Runs     []*Run           `json:"runs"`
	Replays  []*Replay        `json:"replays,omitempty"`
	// Eager is random under -timers=eager, on the forms where a native
	// outcome is one dfs did not reach, and on the Racy form when random
	// missed a race go test -race reports (Observe).
	Eager map[Form]*Run `json:"eager,omitempty"`
	// Budget is the wall-clock budget each exploration had: a run that
	// used it up stopped at a point that depends on the machine's speed.
	Budget time.Duration `json:"budget"`
	// BuildErr is set when a binary did not build: no oracle applies.
	BuildErr string  `json:"build_err,omitempty"`
	Seconds  float64 `json:"seconds"`
}

// parseOutcomes reads the lines the tests appended to an outcome file:
// per test name, the values and their counts.
func parseOutcomes(path string) (out, seq map[string]map[string]int) {
	out, seq = map[string]map[string]int{}, map[string]map[string]int{}
	f, err := os.Open(path)
	if err != nil {
		return out, seq
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		m := out
		if n, isSeq := strings.CutSuffix(name, ".seq"); isSeq {
			name, m = n, seq
		}
		if m[name] == nil {
			m[name] = map[string]int{}
		}
		m[name][val]++
	}
	return out, seq
}

// parseRaces returns the pairs of lines of fileSuffix that the race
// reports in output name: per report, the first frame in the test file
// of each of the two accesses.
func parseRaces(output, fileSuffix string) map[Pair]int {
	races := map[Pair]int{}
	var lines []int
	inReport, inAccess, found := false, false, false
	for _, l := range strings.Split(output, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "WARNING: DATA RACE"):
			inReport, lines = true, nil
		case !inReport:
		case strings.HasPrefix(t, "=================="):
			if len(lines) == 2 {
				races[NewPair(lines[0], lines[1])]++
			}
			inReport = false
		case strings.HasPrefix(t, "Goroutine "):
			inAccess = false
		case strings.Contains(t, " at 0x") && strings.Contains(t, " by "):
			// "Write at 0x... by goroutine 7:", "Previous read at ...".
			inAccess, found = true, false
		case inAccess && !found && strings.Contains(t, fileSuffix+":"):
			rest := t[strings.Index(t, fileSuffix+":")+len(fileSuffix)+1:]
			if i := strings.IndexByte(rest, ' '); i >= 0 {
				rest = rest[:i]
			}
			if n, err := strconv.Atoi(rest); err == nil {
				lines = append(lines, n)
				found = true
			}
		}
	}
	return races
}

// reportedRace returns the lines of the two accesses of the data race
// that interleave's report in output names ("goroutine 4: read at
// p_test.go:228", "goroutine 1 (test): earlier write at p_test.go:238").
func reportedRace(output, file string) *Pair {
	i := strings.Index(output, "interleave: data race")
	if i < 0 {
		return nil
	}
	var lines []int
	for _, l := range strings.Split(output[i:], "\n") {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "goroutine ") || !strings.Contains(t, "): ") && !strings.Contains(t, ": ") {
			continue
		}
		j := strings.Index(t, " at "+file+":")
		if j < 0 {
			continue
		}
		if n, err := strconv.Atoi(strings.Fields(t[j+len(" at "+file+":"):] + " ")[0]); err == nil {
			lines = append(lines, n)
		}
		if len(lines) == 2 {
			p := NewPair(lines[0], lines[1])
			return &p
		}
	}
	return nil
}

// keys returns the sorted keys of m.
func keys[K comparable](m map[K]int, less func(a, b K) bool) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return less(out[i], out[j]) })
	return out
}
