// Package wire defines the formats exchanged between the interleave driver and
// the runtime inside a test binary: the exploration configuration passed in the
// INTERLEAVE_CONFIG environment variable, the per-test result records, and the
// versioned schedule file.
//
// The package depends only on the standard library so that both halves (the
// command and the injected runtime) can import it.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DefaultHaPSetK and DefaultHaPSetLearn are what Config.HaPSetK and
// Config.HaPSetLearn mean by 0.
const (
	DefaultHaPSetK     = 1
	DefaultHaPSetLearn = 10
)

// ConfigEnv is the environment variable through which the driver hands a
// Config, as JSON, to the test binary.
const ConfigEnv = "INTERLEAVE_CONFIG"

// Config configures the exploration of every test in one test binary run.
// Zero fields take the defaults documented on each field.
type Config struct {
	// View, with strategy "replay", is where the replay writes the HTML
	// page of the finding it reproduces ("interleave view").
	View string `json:"view,omitempty"`
	// Strategy names the search strategy: "random" (default), "coverage",
	// "pct", "dfs", "dpor", "pcb", "hapset" (dpor or pcb guided by
	// HaPSets), "mcr" (maximal causality reduction, with the solver
	// Solver), "mpc" (maximal path causality: fuzz bodies' inputs and
	// schedules together, with the solver Solver), "active" (active testing: predictions
	// from a few observed runs, then one directed exploration each),
	// "replay" or "regression".
	Strategy string `json:"strategy,omitempty"`
	// Schedules is the budget of iterations per test (default 1000).
	Schedules int `json:"schedules,omitempty"`
	// Seed seeds randomized strategies (default 1).
	Seed int64 `json:"seed,omitempty"`
	// Budget bounds the wall-clock time spent exploring one test (0: none).
	Budget Duration `json:"budget,omitempty"`
	// NoRace turns off happens-before data race detection.
	NoRace bool `json:"no_race,omitempty"`
	// NoLeaks turns off the report of goroutines left blocked at test end.
	NoLeaks bool `json:"no_leaks,omitempty"`
	// LeaksAll reports as findings also the leaks that every schedule
	// shows, which are otherwise notes (Result.Notes).
	LeaksAll bool `json:"leaks_all,omitempty"`
	// TimingFail reports as findings also the test failures that only
	// schedules firing a timer early show (the test's timeout beat work
	// that could still run), which are otherwise notes (Result.Timing).
	TimingFail bool `json:"timing_fail,omitempty"`
	// Reduce leaves out the scheduling points of plain memory accesses
	// (Stoller's reduction; with race detection only, where a run
	// without a data race depends only on the order of synchronization
	// operations, and a data race is reported wherever its accesses
	// fall). Strategies active and regression ignore it: they pause
	// goroutines at memory accesses.
	Reduce bool `json:"reduce,omitempty"`
	// MaxSteps bounds the scheduling points in which the running
	// goroutines only poll, with no progress (no channel operation, lock
	// handoff, write, goroutine start or exit, new location read) and no
	// pending timer; an iteration that reaches it is reported as a
	// livelock (default 1000000).
	MaxSteps int `json:"max_steps,omitempty"`
	// PCTDepth is the bug depth d of the PCT strategy (default 3).
	PCTDepth int `json:"pct_depth,omitempty"`
	// Preemptions is the bound K of the pcb strategy: every schedule with
	// at most K preemptions (default 2).
	Preemptions int `json:"preemptions,omitempty"`
	// DPOR is the reduction of the dpor strategy: "optimal" (wakeup
	// trees, the default) or "source" (source sets alone).
	DPOR string `json:"dpor,omitempty"`
	// MPC is the path exploration of strategy mpc: "sound" (default;
	// strategy S2, with unsat cores) or "simple" (S1).
	MPC string `json:"mpc,omitempty"`
	// HaPSetSearch is the search strategy "hapset" guides: "dpor"
	// (default) or "pcb" (with the bound Preemptions).
	HaPSetSearch string `json:"hapset_search,omitempty"`
	// HaPSetK is the number of innermost call sites a statement of
	// strategy hapset includes besides its site (0: DefaultHaPSetK;
	// negative: none).
	HaPSetK int `json:"hapset_k,omitempty"`
	// HaPSetLearn is the number of random runs strategy hapset learns
	// from before its search when nothing was learned before (0:
	// DefaultHaPSetLearn; negative: none).
	HaPSetLearn int `json:"hapset_learn,omitempty"`
	// HaPSetDir, when set, is the directory where strategy hapset keeps
	// what it learned, a file per package and test, so that learning
	// accumulates from one run to the next.
	HaPSetDir string `json:"hapset_dir,omitempty"`
	// HaPSetReset makes strategy hapset start from nothing learned (the
	// files in HaPSetDir are overwritten).
	HaPSetReset bool `json:"hapset_reset,omitempty"`
	// Solver is the path of interleave-solver, the process that answers
	// strategy mcr's queries (the driver builds it when the strategy is
	// mcr); SolverTimeout bounds each of its checks (0: 10s).
	Solver        string   `json:"solver,omitempty"`
	SolverTimeout Duration `json:"solver_timeout,omitempty"`
	// Replay is the path of a schedule file to replay (strategy "replay").
	Replay string `json:"replay,omitempty"`
	// ScheduleDir is where schedule files of findings are written
	// (default: a directory under os.TempDir()).
	ScheduleDir string `json:"schedule_dir,omitempty"`
	// Results, when set, is a file to which one JSON Result line per
	// explored test is appended.
	Results string `json:"results,omitempty"`
	// StuckAfter is how long a goroutine may run uncontrolled code (real
	// I/O, an uninstrumented library) without reaching a scheduling point
	// before the iteration is reported as stuck (default 10s).
	StuckAfter Duration `json:"stuck_after,omitempty"`
	// Package is the import path of the package under test, recorded in
	// schedule files and results.
	Package string `json:"package,omitempty"`
	// Timers says when a pending timer may fire before its time, while
	// goroutines could still run. Every timer fires when its time has come
	// (the clock moves as code runs) or when nothing else can run. "stall"
	// (default): early only to wake a select that also waits on other
	// channels (a timeout racing with work) or to run an AfterFunc
	// callback, and only within Stall of its time; never into a poll or
	// for a sleep. "eager": early at any choice point. "idle": never early
	// (testing/synctest's fake clock). "stall-all": as "stall", for a
	// sleep and a lone wait too; the files of data races found by the
	// schedules that look for races needing a stall after a search under
	// "stall" passed.
	Timers string `json:"timers,omitempty"`
	// Stall bounds how long before its time a timer may fire under
	// "stall" and "stall-all" (default 10ms).
	Stall Duration `json:"stall,omitempty"`
	// MaxGoroutines bounds the live goroutines of one schedule; a schedule
	// that exceeds it is reported as a resource limit (default 100000).
	MaxGoroutines int `json:"max_goroutines,omitempty"`
	// MaxChoices bounds the choice points of one schedule, whose list is
	// kept to be written and replayed; a schedule that exceeds it is
	// reported as a resource limit (default 10000000).
	MaxChoices int `json:"max_choices,omitempty"`
	// MaxObjects bounds the objects (memory words, channels, locks...)
	// one schedule tracks, the race detector's memory; a schedule that
	// exceeds it is reported as a resource limit (default 16000000).
	MaxObjects int `json:"max_objects,omitempty"`
	// Regress is the path of a schedule file with a bug signature that the
	// strategy "regression" steers toward (regression mode: was the bug
	// really fixed? Tsui, Wu, Chan, section 3).
	Regress string `json:"regress,omitempty"`
	// Workers is how many processes explore one test at once (default
	// 1): the test binary starts Workers-1 copies of itself for a test
	// that is still running after a moment, and they share its work out,
	// with a result that does not depend on Workers: random and pct share
	// schedule numbers (schedule i is a function of the seed and i
	// alone), dfs and pcb subtrees of their search (numbered as one
	// process numbers them); dpor explores in rounds of jobs whenever
	// Workers is set (1 too; 0, as interleave bench and rt.Explore leave
	// it, runs the sequential search). The other strategies, and replay,
	// run in one process.
	Workers int `json:"workers,omitempty"`
	// Shard, "K/N" (0 <= K < N), explores the K-th of N disjoint shares
	// of every test (random, pct: the schedules numbered i with (i-1) mod
	// N = K; dfs, pcb: every N-th subtree of a cut of the search that
	// every shard makes alike), so that N runs, on as many machines,
	// explore together what one run would; their results are combined by
	// "interleave merge".
	Shard string `json:"shard,omitempty"`
	// Worker is set by the runtime in the processes it starts to help
	// explore one test: the directory through which they share out its
	// schedules.
	Worker string `json:"worker,omitempty"`
	// MPCWorker is set by the runtime in the processes it starts to make
	// the runs of strategy mpc's search of one fuzz input: they read an
	// MPCRequest per line on file descriptor 3 and answer an MPCServed
	// per line on descriptor 4.
	MPCWorker bool `json:"mpc_worker,omitempty"`
	// Afresh is set by the runtime in the fresh processes it explores a
	// test in when the test leaves state behind that a later schedule
	// sees: such a process explores schedules From to Upto (for a
	// strategy whose schedule i is a function of the seed and i; 0: the
	// whole search), confirms nothing itself and writes the text of a
	// finding's report to Report.
	Afresh bool   `json:"afresh,omitempty"`
	From   int    `json:"from,omitempty"`
	Upto   int    `json:"upto,omitempty"`
	Report string `json:"report,omitempty"`
	// LeakKeys, in such a process, are the goroutines schedule 1 left
	// behind in the first fresh process (Result.LeakKeys), which it
	// compares its schedules' with instead of running schedule 1 first.
	LeakKeys []string `json:"leak_keys,omitempty"`
	// Progress, when set, is a file to which every process exploring a
	// test appends a Progress line now and then (at most every 200ms),
	// so that the driver can show how a long exploration is going.
	Progress string `json:"progress,omitempty"`
}

// ParseShard parses a shard "K/N" with 0 <= K < N; "" is 0/1.
func ParseShard(s string) (k, n int, err error) {
	if s == "" {
		return 0, 1, nil
	}
	ks, ns, ok := strings.Cut(s, "/")
	if ok {
		k, err = strconv.Atoi(ks)
		if err == nil {
			n, err = strconv.Atoi(ns)
		}
	}
	if !ok || err != nil || n < 1 || k < 0 || k >= n {
		return 0, 0, fmt.Errorf("bad shard %q: want K/N with 0 <= K < N", s)
	}
	return k, n, nil
}

// DefaultStall is how long before its time a timer may fire, by default,
// to wake a select that also waits for work (a timeout beating work that
// could still run) or to run an AfterFunc callback: the stall of a
// runnable goroutine the schedule assumes. It is the Go scheduler's time
// slice (a goroutine runs 10ms before it is preempted for another that
// waits for its processor), so a stall of that length is what any
// machine with more runnable goroutines than processors gives; the 100ms
// and one-second timeouts tests put around work that always finishes
// assume stalls no scheduler gives a goroutine that can run. See
// docs/real-modules.md.
const DefaultStall = Duration(10 * time.Millisecond)

// Duration is a time.Duration that encodes in JSON as a Go duration string.
type Duration time.Duration

// MarshalJSON encodes d as a string such as "1m30s".
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON accepts a duration string or a number of nanoseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := time.ParseDuration(s)
		if err != nil {
			return err
		}
		*d = Duration(v)
		return nil
	}
	var n int64
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("duration: %w", err)
	}
	*d = Duration(n)
	return nil
}

// LoadConfig reads the Config from the environment. It returns the zero
// Config when the variable is unset.
func LoadConfig() (Config, error) {
	var c Config
	s := os.Getenv(ConfigEnv)
	if s == "" {
		return c, nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("interleave: bad %s: %w", ConfigEnv, err)
	}
	return c, nil
}

// Encode returns the Config as the value of ConfigEnv.
func (c Config) Encode() string {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // a Config always marshals
	}
	return string(b)
}

// Outcomes of a Result.
const (
	OutcomePass     = "pass"     // every explored schedule passed
	OutcomeFinding  = "finding"  // a schedule exposed a bug
	OutcomeSkip     = "skip"     // the test skipped itself
	OutcomeDiverged = "diverged" // a replayed schedule no longer matches the code
	OutcomeError    = "error"    // the exploration could not run (bad schedule file, ...)
	// OutcomeUnrepeatable: a schedule failed, but the same schedule passes
	// when replayed alone in a fresh process, so the failure came from
	// state earlier runs in the process left behind (or, when two such
	// replays ran differently, from that or from something the tool does
	// not control), not from the interleaving.
	OutcomeUnrepeatable = "unrepeatable"
	// OutcomeNotExplored: the test could not be explored, which is not a
	// finding. Either its first schedule was still running when the
	// budget ran out (Message says how long it ran), or, with Leftover,
	// a run of it leaves state outside its process (a listener on a
	// fixed port, a file) that makes the next run fail, in a fresh
	// process too, as go test -count=2 would.
	OutcomeNotExplored = "not explored"
)

// Result is the record of the exploration of one test.
type Result struct {
	Package   string  `json:"package,omitempty"`
	Test      string  `json:"test"`
	Outcome   string  `json:"outcome"`
	Kind      string  `json:"kind,omitempty"` // finding kind, for OutcomeFinding
	Strategy  string  `json:"strategy"`
	Seed      int64   `json:"seed"`
	Schedules int     `json:"schedules"`           // iterations run, including the failing one
	Exhausted bool    `json:"exhausted,omitempty"` // a systematic strategy covered the whole space
	Seconds   float64 `json:"seconds"`
	Schedule  string  `json:"schedule,omitempty"` // schedule file of the finding
	Message   string  `json:"message,omitempty"`  // one-line summary
	// EventHash is the event hash of the last schedule run (as in a
	// schedule file), so that two runs of a replay can be compared.
	EventHash string `json:"event_hash,omitempty"`
	// Regress is what a run of the strategy "regression" did.
	Regress *RegressResult `json:"regress,omitempty"`
	// Shard is the share of the schedules explored ("K/N"), when not all.
	Shard string `json:"shard,omitempty"`
	// Predictions lists the potential bugs that the active strategy's
	// analyses predicted, and what its directed runs made of each.
	Predictions []Prediction `json:"predictions,omitempty"`
	// Notes say what the exploration noticed that is not a finding, one
	// line each: the goroutines every schedule left behind ("never
	// stops").
	Notes []string `json:"notes,omitempty"`
	// MCR is what strategy mcr asked its solver.
	MCR *MCRStats `json:"mcr,omitempty"`
	// Parts, from a shard of a dfs or pcb search, are the parts of the
	// search it explored, and Limit the schedules the whole search was
	// allowed: Tally combines the shards' parts into the search's result.
	Parts []Part `json:"parts,omitempty"`
	Limit int    `json:"limit,omitempty"`
	// Timing, when not "", says in one line that a schedule failed the
	// test only by firing a timer early (Config.TimingFail): a note.
	Timing string `json:"timing,omitempty"`
	// LeakKeys, from a fresh process exploring a test afresh that ran
	// its schedule 1, are the goroutines that schedule left behind: the
	// reference of the processes that explore its later schedules
	// (Config.LeakKeys).
	LeakKeys []string `json:"leak_keys,omitempty"`
	// Held, from a worker process, says its schedules held a timer back
	// for a sleep or a lone wait on it: the parent then looks for races
	// that need a stall (the test's schedules under "stall-all").
	Held bool `json:"held,omitempty"`
	// Leftover, for OutcomeNotExplored, says why: not the budget, but a
	// schedule that passed in this process failed in a fresh one while
	// this one lived.
	Leftover bool `json:"leftover,omitempty"`
}

// RegressResult says how a regression run (strategy "regression") used
// its bug signature: at which similarity the schedule that ended the run
// matched it, and how loose the search went.
type RegressResult struct {
	// W and D are the window and the call-stack distance of the last
	// schedule run: of the one that re-exposed the bug, when there was a
	// finding. W is a number of lines within the same function, or "any".
	W string `json:"w"`
	D int    `json:"d"`
	// MaxW and MaxD are the loosest window and distance tried.
	MaxW string `json:"max_w"`
	MaxD int    `json:"max_d"`
	// Matched is the number of signature events the last schedule matched,
	// of Events.
	Matched int `json:"matched"`
	Events  int `json:"events"`
	// Unsteered: the last schedule was left to chance (every third one
	// is, in case the fix changed how the bug is triggered).
	Unsteered bool `json:"unsteered,omitempty"`
	// Original is the finding kind of the signature's schedule file.
	Original string `json:"original,omitempty"`
}

// Prediction is a potential bug predicted by the active strategy.
type Prediction struct {
	Kind        string `json:"kind"`        // race, deadlock or atomicity
	Description string `json:"description"` // what and where, one line
	// Status is "confirmed" (a directed run ended with the finding this
	// result reports), "unconfirmed" (its directed runs found nothing:
	// never a failure) or "not tried" (the exploration ended first).
	Status    string `json:"status"`
	Schedules int    `json:"schedules"`         // directed schedules run
	Reached   bool   `json:"reached,omitempty"` // its directed runs reached the predicted situation
}

// AppendResult appends r as one JSON line to the file at path.
func AppendResult(path string, r Result) error {
	if err := appendLine(path, r); err != nil {
		return fmt.Errorf("interleave: results: %w", err)
	}
	return nil
}

// appendLine appends v as one JSON line to the file at path, in one
// write, so that lines appended by several processes do not mix.
func appendLine(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadResults reads every Result line of the file at path.
func ReadResults(path string) ([]Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Result
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var r Result
		if err := dec.Decode(&r); err != nil {
			return out, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// Progress is a record of how far one process got in exploring a test,
// appended now and then to Config.Progress. The processes sharing a test
// (-workers) each write their own; the driver sums them.
type Progress struct {
	Package string `json:"package,omitempty"`
	Test    string `json:"test"`
	// Process identifies the writing process (its pid).
	Process int `json:"process"`
	// Schedules is the number of schedules this process ran so far.
	Schedules int `json:"schedules"`
	// Elapsed is how long this process has explored the test.
	Elapsed Duration `json:"elapsed"`
	// Budget is the wall-clock budget of the test (0: none) and
	// MaxSchedules its budget of schedules (0: the default).
	Budget       Duration `json:"budget,omitempty"`
	MaxSchedules int      `json:"max_schedules,omitempty"`
	// Covered estimates the fraction of the strategy's space that the
	// schedules covered, for a strategy that can tell (dfs); else 0.
	Covered float64 `json:"covered,omitempty"`
}

// AppendProgress appends p as one JSON line to the file at path.
func AppendProgress(path string, p Progress) error {
	if err := appendLine(path, p); err != nil {
		return fmt.Errorf("interleave: progress: %w", err)
	}
	return nil
}

// ReadProgress decodes the complete Progress lines of b and returns
// them with the number of bytes they take: a line still being written
// (no newline yet) is left for a later read.
func ReadProgress(b []byte) ([]Progress, int, error) {
	end := bytes.LastIndexByte(b, '\n') + 1
	var out []Progress
	dec := json.NewDecoder(bytes.NewReader(b[:end]))
	for dec.More() {
		var p Progress
		if err := dec.Decode(&p); err != nil {
			return out, end, fmt.Errorf("progress: %w", err)
		}
		out = append(out, p)
	}
	return out, end, nil
}

// ScheduleFormat and ScheduleVersion identify schedule files.
const (
	ScheduleFormat  = "interleave-schedule"
	ScheduleVersion = 5
)

// Bug signatures (format version 2) follow RegressionMaple (Tsui, Wu,
// Chan, "Toward a methodology to expose partially fixed concurrency bugs
// in modified multithreaded programs", section 2.2): the short sequence of
// events that triggered a bug, each with its operation, site and call
// stack, so that a changed program can be steered toward a similar
// interleaving.

// Signature is the bug signature of a finding (bSig, section 2.2): 1 to 4
// events in the order they happened (pending events, which the goroutines were blocked in when
// the bug showed, last).
type Signature struct {
	Events []SigEvent `json:"events"`
}

// SigEvent is one event of a bug signature: the paper's event <inst, op,
// obj, ctx> (section 2.1) in source terms. Goroutine and object ids of
// the run are not kept: Goroutine and Object only say which events of the
// signature ran in the same goroutine and touched the same object.
type SigEvent struct {
	// Op is the operation (event.Op's Key: "read", "write", "Lock",
	// "send", ...).
	Op string `json:"op"`
	// File, Line and Column are the site of the operation in the source.
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Function is the function the operation is in, without its import
	// path ("(*Counter).Inc", "TestX.func1"); FuncLine is the line where
	// that function begins, so that Line-FuncLine locates the operation
	// inside its function even when the function moved.
	Function string `json:"function,omitempty"`
	FuncLine int    `json:"func_line,omitempty"`
	// Stack is the call stack of the operation, innermost function first,
	// names as in Function, frames of the runtime and of package testing
	// left out.
	Stack []string `json:"stack,omitempty"`
	// Object numbers the objects of the signature from 1: events with the
	// same number touched the same object; 0: no object.
	Object int `json:"object,omitempty"`
	// Goroutine numbers the goroutines of the signature from 1: events
	// with the same number ran in the same goroutine.
	Goroutine int `json:"goroutine"`
	// Pending: the goroutine was about to perform the operation, blocked,
	// when the bug showed (a deadlock's lock requests).
	Pending bool `json:"pending,omitempty"`
}

// MaxSignature is the most events a signature has (Lu et al.: most
// concurrency bugs need no more than four events in a specific order).
const MaxSignature = 4

// Schedule is the content of a schedule file: everything needed to run one
// interleaving of one test again.
//
// Choices lists the decisions taken at every choice point that had more than
// one option, in order:
//
//   - a positive number g: goroutine g (numbered from 1 in creation order)
//     ran next;
//   - 0: the earliest pending timer fired;
//   - a negative number -1-i: a select statement took its ready case i
//     (cases numbered from 0 in source order).
//
// EventHash is a hash of the sequence of events of the run; replay compares
// it to detect code that no longer follows the schedule.
type Schedule struct {
	Format    string `json:"format"`
	Version   int    `json:"version"`
	Package   string `json:"package,omitempty"`
	Test      string `json:"test"`
	Strategy  string `json:"strategy"`
	Seed      int64  `json:"seed"`
	Iteration int    `json:"iteration"` // 1-based index of the schedule in its exploration
	Finding   string `json:"finding,omitempty"`
	Message   string `json:"message,omitempty"`
	Race      bool   `json:"race"`
	Leaks     bool   `json:"leaks"`
	// Reduce says that plain memory accesses were no scheduling points
	// (Config.Reduce); the replay must leave them out too.
	Reduce bool   `json:"reduce,omitempty"`
	Timers string `json:"timers,omitempty"`
	// Stall is the stall bound of the "stall" timer policy.
	Stall    Duration `json:"stall,omitempty"`
	MaxSteps int      `json:"max_steps"`
	// MaxGoroutines and MaxChoices are the resource bounds of the run (0:
	// the defaults).
	MaxGoroutines int    `json:"max_goroutines,omitempty"`
	MaxChoices    int    `json:"max_choices,omitempty"`
	MaxObjects    int    `json:"max_objects,omitempty"`
	Steps         int    `json:"steps"` // scheduling points of the run
	EventHash     string `json:"event_hash"`
	Choices       []int  `json:"choices"`
	// Input is the input of the fuzz body call that was explored (a
	// FuzzXxx test's seed), one value per line in the format of go test's
	// corpus files (int(5), string("a")); a replay calls the body with it.
	Input []string `json:"input,omitempty"`
	// Signature is the bug signature (version 2; nil in version 1 files
	// and when the events could not be told).
	Signature *Signature `json:"signature,omitempty"`
	// View is the data of the finding's HTML page, the JSON the page
	// embeds (package interleave.dev/rt/view's Page), so that
	// "interleave view FILE" writes the page from the file alone, in any
	// directory. Absent in files written before it was added, and when
	// the finding was not written with a page. WriteSchedule writes it
	// last, on one line.
	View json.RawMessage `json:"view,omitempty"`
}

// WriteSchedule writes s to path. Its fields are indented, one a line,
// but the page data (View), which is long and for a program to read,
// goes last on a line of its own.
func WriteSchedule(path string, s *Schedule) error {
	s.Format, s.Version = ScheduleFormat, ScheduleVersion
	fields := *s
	fields.View = nil
	b, err := json.MarshalIndent(&fields, "", "  ")
	if err != nil {
		return fmt.Errorf("interleave: encoding schedule: %w", err)
	}
	if len(s.View) > 0 {
		var view bytes.Buffer
		if err := json.Compact(&view, s.View); err != nil {
			return fmt.Errorf("interleave: encoding schedule: the finding's page: %w", err)
		}
		// MarshalIndent ends the object with "\n}".
		b = append(b[:len(b)-2], ",\n  \"view\": "...)
		b = append(append(b, view.Bytes()...), "\n}"...)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("interleave: writing schedule: %w", err)
	}
	return nil
}

// ErrNotSchedule reports a file that is not an interleave schedule file.
var ErrNotSchedule = errors.New("not an interleave schedule file")

// ReadSchedule reads and validates the schedule file at path.
func ReadSchedule(path string) (*Schedule, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("interleave: reading schedule: %w", err)
	}
	return ParseSchedule(path, b)
}

// ParseSchedule decodes and validates a schedule file's content; name is
// used in error messages.
func ParseSchedule(name string, b []byte) (*Schedule, error) {
	var s Schedule
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: %w (%v)", name, ErrNotSchedule, err)
	}
	if s.Format != ScheduleFormat {
		return nil, fmt.Errorf("%s: %w (format %q)", name, ErrNotSchedule, s.Format)
	}
	if s.Version < 1 || s.Version > ScheduleVersion {
		return nil, fmt.Errorf("%s: schedule format version %d is not supported (this build reads versions 1 to %d)", name, s.Version, ScheduleVersion)
	}
	if s.Signature != nil {
		if s.Version < 2 {
			return nil, fmt.Errorf("%s: corrupt schedule: a signature in a version %d file", name, s.Version)
		}
		if err := s.Signature.validate(); err != nil {
			return nil, fmt.Errorf("%s: corrupt schedule: %w", name, err)
		}
	}
	if s.Test == "" {
		return nil, fmt.Errorf("%s: corrupt schedule: no test name", name)
	}
	if s.Iteration < 1 || s.MaxSteps < 0 || s.Steps < 0 {
		return nil, fmt.Errorf("%s: corrupt schedule: bad counts", name)
	}
	return &s, nil
}

// RunPattern returns the go test -run pattern that selects exactly the test
// name, which may name a subtest ("TestX/case_1").
func RunPattern(test string) string {
	parts := strings.Split(test, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// validate checks a signature read from a file.
func (g *Signature) validate() error {
	if len(g.Events) == 0 || len(g.Events) > MaxSignature {
		return fmt.Errorf("signature has %d events (want 1 to %d)", len(g.Events), MaxSignature)
	}
	for i, e := range g.Events {
		switch {
		case e.Op == "":
			return fmt.Errorf("signature event %d has no operation", i+1)
		case e.Goroutine < 1 || e.Goroutine > len(g.Events) || e.Object < 0 || e.Object > len(g.Events):
			return fmt.Errorf("signature event %d: bad goroutine or object number", i+1)
		case e.Line < 0 || e.Column < 0 || e.FuncLine < 0:
			return fmt.Errorf("signature event %d: bad position", i+1)
		}
	}
	return nil
}
