package explore

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt/strategies"
	"interleave.dev/rt/wire"
)

// Splitting the schedules of a test between processes (-workers) and
// machines (-shard). Under random and pct, schedule i is a function of the
// seed and i alone (strategy.Independent), so any process can run any
// schedule. A shard K/N owns the schedules i with (i-1) mod N = K; within
// a run, the process running the test (the parent) and the copies of the
// test binary it starts (workers, running only this test) claim chunks of
// those schedules through a directory: chunk c is taken by whoever creates
// the file c<c> first. A process that finds something notes the
// schedule's number in the directory's file "found"; every process looks
// there now and then and stops before a schedule numbered above the
// lowest noted, and all below it run, so the finding reported, the
// lowest-numbered one, is the one a single process running the schedules
// in order would report. The parent starts its
// workers only when the test is still running after WorkerDelay, so that
// short tests cost no process.

// WorkerDelay is how long a test explores alone before the parent starts
// its workers.
var WorkerDelay = 100 * time.Millisecond

// AwaitWorkers makes the parent start its workers at once and explore
// only when they are ready (or gone), so that they take part however
// busy the machine is: the tests of the split set it, which check that
// the workers ran some of the work. A run never waits longer than
// awaitBound.
var AwaitWorkers bool

const awaitBound = time.Minute

// readyFile is the file worker process pid creates in the workers'
// directory dir when it starts exploring.
func readyFile(dir string, pid int) string {
	return filepath.Join(dir, fmt.Sprintf("ready%d", pid))
}

// awaitWorkers waits until every worker of p is ready or has exited.
func (p *pool) awaitWorkers() {
	<-p.spawned
	deadline := time.Now().Add(awaitBound)
	for time.Now().Before(deadline) {
		ready, _ := filepath.Glob(filepath.Join(p.dir, "ready*"))
		gone := 0
		for _, w := range p.workers {
			select {
			case <-w.exited:
				gone++
			default:
			}
		}
		if len(ready)+gone >= len(p.workers) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// chunkSize is the number of schedules a process claims at a time, and
// foundEvery how often (in schedules) it looks for another's finding: a
// file created per chunk and a file read every foundEvery schedules cost
// well under a microsecond per schedule, and a process runs at most
// foundEvery-1 schedules past another's finding.
const (
	chunkSize  = 32
	foundEvery = 8
)

// splits says how cfg splits its tests' explorations between processes
// or shards, under strategy spec. dpor explores in rounds whenever the
// driver sets Workers, one worker too, so that its result does not depend
// on their number; shards it has none (cmd/interleave refuses them).
func splits(cfg wire.Config, spec *strategies.Spec) strategies.Split {
	if spec.Workers == strategies.SplitRounds && (cfg.Workers >= 1 || cfg.Worker != "") && cfg.Shard == "" {
		return strategies.SplitRounds
	}
	if cfg.Workers <= 1 && cfg.Shard == "" && cfg.Worker == "" {
		return strategies.SplitNone
	}
	if spec.Workers == strategies.SplitRounds {
		return strategies.SplitNone
	}
	return spec.Workers
}

// share hands out the numbers of the schedules one process runs.
type share struct {
	k, n  int    // the shard
	dir   string // where the processes of a run claim chunks ("": alone)
	found string // the file of found schedules
	err   error  // what went wrong claiming

	// mu orders the parent's exploration and the start of its workers:
	// until then the parent is alone and claims no files (a short test
	// pays nothing), and the workers begin past the chunk it is in.
	mu    sync.Mutex
	alone bool
	c     int // the next chunk to try
	pos   int // the next position in the shard's sequence
	end   int // the end of the claimed chunk
}

func newShare(cfg wire.Config, dir string) (*share, error) {
	k, n, err := wire.ParseShard(cfg.Shard)
	if err != nil {
		return nil, fmt.Errorf("interleave: %w", err)
	}
	s := &share{k: k, n: n, dir: dir}
	if dir != "" {
		s.found = filepath.Join(dir, "found")
	}
	return s, nil
}

// next returns the number of the next schedule this process runs, or 0.
func (s *share) next() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pos >= s.end {
		if s.dir == "" || s.alone {
			s.end = s.pos + chunkSize
		} else if !s.claim() {
			return 0
		}
	}
	i := s.pos*s.n + s.k + 1
	s.pos++
	if s.dir != "" && (s.pos-1)%foundEvery == 0 {
		if f := lowestFound(s.found); f > 0 && f < i {
			return 0 // every schedule below the lowest finding is another's
		}
	}
	return i
}

// share ends the parent's time alone: the chunks below the one it
// returns are the parent's (run, or the one it runs now).
func (s *share) share() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.alone = false
	s.c = s.end / chunkSize
	return s.c
}

// startFile holds the first chunk the workers may claim.
func startFile(dir string) string { return filepath.Join(dir, "start") }

// claim takes the next free chunk.
func (s *share) claim() bool {
	for {
		c := s.c
		s.c++
		f, err := os.OpenFile(filepath.Join(s.dir, "c"+strconv.Itoa(c)), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			s.pos, s.end = c*chunkSize, (c+1)*chunkSize
			return true
		}
		if !errors.Is(err, os.ErrExist) {
			s.err = fmt.Errorf("interleave: claiming schedules: %w", err)
			return false
		}
	}
}

// noteFound records that schedule i found something.
func noteFound(path string, i int) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("interleave: noting a finding: %w", err)
	}
	_, err = fmt.Fprintf(f, "%d\n", i)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// lowestFound returns the lowest schedule number noted in the file, or 0.
func lowestFound(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	low := 0
	for _, l := range strings.Fields(string(b)) {
		if i, err := strconv.Atoi(l); err == nil && i > 0 && (low == 0 || i < low) {
			low = i
		}
	}
	return low
}

// pool is the parent's side of a test explored by several processes.
type pool struct {
	t      *testing.T
	cfg    wire.Config
	dir    string
	share  *share      // schedule numbers (random, pct)
	tree   *treeShare  // subtrees (dfs, pcb)
	rounds *roundShare // rounds (dpor)
	start  time.Time

	mu      sync.Mutex
	done    bool // the parent's exploration ended: start no worker
	workers []*worker
	spawned chan struct{} // closed when the spawner is done
}

// worker is a copy of the test binary helping the parent.
type worker struct {
	cmd     *exec.Cmd
	out     bytes.Buffer
	results string
	err     error // of starting or waiting for it
	exited  chan struct{}
}

// startPool prepares the exploration of t split as cfg says (a split
// of kind strategies.SplitNumbers, strategies.SplitSubtrees, whose shard's jobs body may be run
// to find, or strategies.SplitRounds), and starts the workers after WorkerDelay if
// the parent is still exploring then; opts is set to explore the
// parent's share.
func startPool(t *testing.T, cfg wire.Config, kind strategies.Split, opts *Options, body func()) (*pool, error) {
	p := &pool{t: t, cfg: cfg, start: time.Now(), spawned: make(chan struct{})}
	dir := ""
	if cfg.Workers > 1 || kind == strategies.SplitSubtrees || kind == strategies.SplitRounds {
		var err error
		if dir, err = os.MkdirTemp("", "interleave-workers-"); err != nil {
			return nil, fmt.Errorf("interleave: creating the workers' directory: %w", err)
		}
		p.dir = dir
	}
	switch kind {
	case strategies.SplitRounds:
		var err error
		if p.rounds, err = openDPORRounds(dir, cfg, waitOf(t, cfg)); err != nil {
			p.cleanup()
			return nil, err
		}
		p.rounds.solo = cfg.Workers <= 1
		opts.rounds, opts.number = p.rounds, p.rounds.number
	case strategies.SplitSubtrees:
		jobs, err := treeJobs(cfg, t.Name(), *opts, body)
		if err == nil {
			p.tree, err = openTree(dir, schedulesOf(cfg), strconv.Itoa(os.Getpid()), waitOf(t, cfg), jobs)
		}
		if err != nil {
			p.cleanup()
			return nil, err
		}
		opts.jobs, opts.number = p.tree, p.tree.number
	default:
		s, err := newShare(cfg, dir)
		if err != nil {
			p.cleanup()
			return nil, err
		}
		p.share = s
		opts.Next = s.next
	}
	if cfg.Workers <= 1 {
		close(p.spawned)
		return p, nil
	}
	if p.share != nil {
		p.share.alone = true
	}
	if AwaitWorkers {
		defer p.awaitWorkers()
	}
	go func() {
		defer close(p.spawned)
		delay := WorkerDelay
		if AwaitWorkers {
			delay = 0
		}
		timer := time.NewTimer(delay)
		defer timer.Stop()
		<-timer.C
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.done {
			return
		}
		if p.share != nil {
			first := p.share.share()
			if err := os.WriteFile(startFile(p.dir), []byte(strconv.Itoa(first)), 0o644); err != nil {
				p.share.mu.Lock()
				p.share.err = fmt.Errorf("interleave: starting the workers: %w", err)
				p.share.mu.Unlock()
				return
			}
		}
		for w := 1; w < cfg.Workers; w++ {
			p.workers = append(p.workers, p.spawn(w))
		}
	}()
	return p, nil
}

// spawn starts worker w.
func (p *pool) spawn(w int) *worker {
	child := p.cfg
	child.Workers = 0
	child.Worker = p.dir
	child.Results = filepath.Join(p.dir, fmt.Sprintf("results%d.jsonl", w))
	if child.ScheduleDir == "-" {
		// The parent reads a worker's finding from its schedule file.
		child.ScheduleDir = filepath.Join(p.dir, "schedules")
	}
	if child.Budget > 0 {
		child.Budget -= wire.Duration(time.Since(p.start))
		if child.Budget <= 0 {
			child.Budget = 1 // a budget of 0 would be none
		}
	}
	wk := &worker{results: child.Results, exited: make(chan struct{})}
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	wk.cmd = exec.Command(exe, childArgs(flag.CommandLine, p.t.Name())...)
	wk.cmd.Dir = initialDir
	wk.cmd.Env = append(os.Environ(), wire.ConfigEnv+"="+child.Encode())
	wk.cmd.Stdout, wk.cmd.Stderr = &wk.out, &wk.out
	wk.cmd.WaitDelay = 10 * time.Second
	if wk.err = wk.cmd.Start(); wk.err != nil {
		close(wk.exited)
		return wk
	}
	go func() {
		wk.err = wk.cmd.Wait()
		if p.tree != nil || p.rounds != nil {
			// The processes that wait for a part it had claimed stop.
			if err := noteExit(p.dir, wk.cmd.Process.Pid); err != nil && wk.err == nil {
				wk.err = err
			}
		}
		close(wk.exited)
	}()
	return wk
}

// finish waits for the workers (until the test's deadline) and merges
// their results into rep, the parent's: the lowest-numbered finding wins,
// and the schedule files of the others are removed. With a nil rep (the
// parent could not explore), the workers are stopped.
func (p *pool) finish(rep *Report) (*Report, error) {
	defer p.cleanup()
	if p.dir == "" {
		return rep, p.share.err
	}
	if p.tree != nil {
		defer p.tree.close()
	}
	if p.rounds != nil {
		defer p.rounds.close()
	}
	if rep == nil {
		p.mu.Lock()
		p.done = true
		p.mu.Unlock()
		<-p.spawned
		for _, w := range p.workers {
			if w.cmd.Process != nil {
				w.cmd.Process.Kill()
			}
			<-w.exited // bounded by WaitDelay
		}
		return nil, nil
	}
	if p.share != nil && rep.Kind != "" && rep.Diverged == "" {
		if err := noteFound(p.share.found, rep.Schedules); err != nil {
			return rep, err
		}
	}
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
	<-p.spawned // bounded: the spawner waits WorkerDelay at most, then starts processes
	var deadline <-chan time.Time
	if d, ok := p.t.Deadline(); ok {
		timer := time.NewTimer(time.Until(d))
		defer timer.Stop()
		deadline = timer.C
	}
	var errs []string
	for _, w := range p.workers {
		select {
		case <-w.exited:
		case <-deadline:
			if w.cmd.Process != nil {
				w.cmd.Process.Kill()
			}
			<-w.exited // bounded by WaitDelay
		}
		rs, err := wire.ReadResults(w.results)
		var r *wire.Result
		for i := range rs {
			if rs[i].Test == p.t.Name() {
				r = &rs[i]
			}
		}
		if r == nil {
			why := "it reported nothing"
			switch {
			case w.err != nil:
				why = w.err.Error()
			case err != nil && !os.IsNotExist(err):
				why = err.Error()
			}
			errs = append(errs, fmt.Sprintf("a worker process exited (%s):\n%s", why, tail(w.out.String(), 20)))
			continue
		}
		rep = p.merge(rep, r)
	}
	if p.share != nil && p.share.err != nil {
		errs = append(errs, p.share.err.Error())
	}
	if p.tree != nil {
		p.tallyTree(rep)
		if p.tree.err != nil {
			errs = append(errs, p.tree.err.Error())
		}
	}
	if r := p.rounds; r != nil {
		r.refresh()
		if TreeReport != nil {
			TreeReport(r.byProcess())
		}
		if rep.Kind == "" {
			rep.Schedules, rep.Exhausted = r.tally()
		}
		if r.err != nil {
			errs = append(errs, r.err.Error())
		}
	}
	if len(errs) > 0 {
		return rep, errors.New(strings.Join(errs, "\n"))
	}
	return rep, nil
}

// tallyTree gives rep, without a finding, the schedules and the verdict
// of the split search, which the processes' own counts are not: they
// count schedules past the search's end, which it leaves out. A shard's
// report keeps its parts, for "interleave merge", and its schedules and
// finding are numbered within its share.
func (p *pool) tallyTree(rep *Report) {
	parts := p.tree.parts()
	if TreeReport != nil {
		TreeReport(p.tree.byProcess())
	}
	if rep.Kind == "" {
		t := wire.Tally(parts, p.tree.limit)
		rep.Schedules, rep.Exhausted = t.Schedules, t.Exhausted
	}
	if p.cfg.Shard != "" {
		rep.parts = parts
		rep.Exhausted = false // its share is; "interleave merge" says whether the whole space was
	}
}

// merge combines a worker's result r into rep.
func (p *pool) merge(rep *Report, r *wire.Result) *Report {
	if r.Outcome != wire.OutcomeFinding {
		if rep.Kind == "" {
			if r.Outcome == wire.OutcomePass && r.Schedules > 0 && rep.NotExplored != "" && !rep.leftover {
				// This process's first schedule did not end within the
				// budget (it started late, or the machine is loaded);
				// another's did: the test was explored.
				rep.NotExplored = ""
			}
			rep.held = rep.held || r.Held
			rep.Schedules += r.Schedules
			rep.Skipped = rep.Skipped || r.Outcome == wire.OutcomeSkip
			rep.Notes = mergeNotes(rep.Notes, r.Notes)
		}
		return rep
	}
	if rep.Kind != "" && rep.Schedules <= r.Schedules {
		removeOther(r.Schedule, rep.Path)
		return rep
	}
	text, err := os.ReadFile(reportFile(p.dir, r.Schedules))
	if err != nil {
		text = []byte(fmt.Sprintf("interleave: %s: %s (the worker's report is lost: %v)", r.Kind, r.Message, err))
	}
	w := &Report{
		leakKeys: rep.leakKeys,
		Test:     rep.Test, Strategy: r.Strategy, Seed: r.Seed, Schedules: r.Schedules,
		Kind: r.Kind, Message: r.Message, Text: string(text), Path: r.Schedule,
		Elapsed: rep.Elapsed, EventHash: r.EventHash,
	}
	if r.Schedule != "" {
		w.View = viewPath(r.Schedule)
	}
	if s, err := wire.ReadSchedule(r.Schedule); err == nil {
		w.Schedule = s
	}
	if p.cfg.ScheduleDir == "-" {
		w.Path, w.View = "", "" // the pool's directory goes
	}
	if rep.Kind != "" {
		removeOther(rep.Path, w.Path)
	}
	return w
}

// mergeNotes adds to notes those of more it does not have.
func mergeNotes(notes, more []string) []string {
	for _, n := range more {
		if !slices.Contains(notes, n) {
			notes = append(notes, n)
		}
	}
	return notes
}

// removeOther removes the schedule file (and page) of a finding that is
// not reported (a higher-numbered schedule), unless it is the reported
// one's file.
func removeOther(path, kept string) {
	if path != kept {
		removeFinding(path)
	}
}

func reportFile(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("report%d.txt", i))
}

func (p *pool) cleanup() {
	if p.dir != "" {
		os.RemoveAll(p.dir)
	}
}

// runWorker is a worker process's side: explore the schedules (or the
// parts of the search) it claims and report to the parent through the
// directory and the results file.
func runWorker(t *testing.T, cfg wire.Config, kind strategies.Split, opts Options, run func()) {
	var s *share
	var tree *treeShare
	var rounds *roundShare
	var err error
	switch kind {
	case strategies.SplitRounds:
		if rounds, err = openDPORRounds(cfg.Worker, cfg, waitOf(t, cfg)); err != nil {
			t.Fatal(err)
		}
		defer rounds.close()
		rounds.alive = parentAlive()
		opts.rounds, opts.number = rounds, rounds.number
	case strategies.SplitSubtrees:
		tree, err = openTree(cfg.Worker, schedulesOf(cfg), strconv.Itoa(os.Getpid()), waitOf(t, cfg), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tree.close()
		tree.alive = parentAlive()
		opts.jobs, opts.number = tree, tree.number
	default:
		if s, err = newShare(cfg, cfg.Worker); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(startFile(cfg.Worker))
		if err == nil {
			s.c, err = strconv.Atoi(string(b))
		}
		if err != nil {
			t.Fatalf("interleave: worker: %v", err)
		}
		opts.Next = s.next
	}
	if err := os.WriteFile(readyFile(cfg.Worker, os.Getpid()), nil, 0o644); err != nil {
		t.Fatalf("interleave: worker: %v", err)
	}
	rep, err := exploreShare(t.Name(), opts, run, again(tree, rounds))
	if err != nil {
		t.Fatal(err)
	}
	res := wire.Result{
		Package: cfg.Package, Test: t.Name(), Outcome: wire.OutcomePass, Strategy: rep.Strategy, Seed: rep.Seed,
		Schedules: rep.Schedules, Seconds: rep.Elapsed.Seconds(), Shard: cfg.Shard,
		Kind: rep.Kind, Message: rep.Message, Schedule: rep.Path, EventHash: rep.EventHash, Notes: rep.Notes,
		Held: rep.held,
	}
	switch {
	case rep.Kind != "":
		res.Outcome = wire.OutcomeFinding
		if err := os.WriteFile(reportFile(cfg.Worker, rep.Schedules), []byte(rep.Text), 0o644); err != nil {
			t.Fatal(err)
		}
		if s != nil {
			if err := noteFound(s.found, rep.Schedules); err != nil {
				t.Fatal(err)
			}
		}
	case rep.Skipped:
		res.Outcome = wire.OutcomeSkip
	}
	if s != nil && s.err != nil {
		t.Fatal(s.err)
	}
	if tree != nil && tree.err != nil {
		t.Fatal(tree.err)
	}
	if rounds != nil && rounds.err != nil {
		t.Fatal(rounds.err)
	}
	if err := wire.AppendResult(cfg.Results, res); err != nil {
		t.Fatal(err)
	}
}

// exploreShare explores a process's share of a test: under a split
// search, again as long as again says its finding was superseded by one
// before it, since the parts before that one are still to run.
func exploreShare(name string, opts Options, body func(), again func() bool) (*Report, error) {
	held := false // a round that held a timer back (stallRaces)
	for {
		rep, err := Explore(name, opts, body)
		if rep != nil {
			held = held || rep.held
			rep.held = held
		}
		if err != nil || again == nil || !again() {
			return rep, err
		}
	}
}

// again returns, for the share of a split search (nil: none), whether
// its last finding was superseded (and notes that it was told).
func again(tree *treeShare, rounds *roundShare) func() bool {
	switch {
	case tree != nil:
		return func() bool {
			s := tree.superseded
			tree.superseded = false
			return s
		}
	case rounds != nil:
		return func() bool {
			s := rounds.superseded
			rounds.superseded = false
			return s
		}
	}
	return nil
}

// openDPORRounds opens this process's share of the dpor search of cfg
// split into rounds, in dir.
func openDPORRounds(dir string, cfg wire.Config, wait splitWait) (*roundShare, error) {
	bound := cfg.Preemptions
	if bound <= 0 {
		bound = -1
	}
	return openRounds(dir, cfg.DPOR != "source" && bound < 0, bound, schedulesOf(cfg), strconv.Itoa(os.Getpid()), wait)
}

// schedulesOf returns the schedules cfg explores per test.
func schedulesOf(cfg wire.Config) int {
	if cfg.Schedules > 0 {
		return cfg.Schedules
	}
	return 1000
}

// waitOf returns the bounds of a process's waits for the others while
// it explores t: the test's deadline, and the end of cfg's budget.
func waitOf(t *testing.T, cfg wire.Config) splitWait {
	var w splitWait
	w.deadline, _ = t.Deadline()
	if cfg.Budget > 0 {
		w.budget = time.Now().Add(time.Duration(cfg.Budget))
	}
	return w
}
