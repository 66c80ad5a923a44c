package explore

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/wire"
)

// Splitting a search tree (dfs, pcb) between processes. The tree is cut
// into jobs (strategy.Job: the subtree of a choice prefix, keyed by its
// place in the sequential search), which the processes exploring a test
// claim through a log in their directory (workers.go's pool). Whoever
// runs a job, its schedules are the same, and the
// sequential search runs them after every schedule of the jobs with
// lower keys, so that the processes together explore exactly the
// sequential search's schedules and number them as it does
// (wire.Tally):
//
//   - a process claims the unclaimed job with the lowest key, and runs
//     it to its end;
//   - a process with nothing to claim marks itself hungry; a process
//     running a job that sees a hungry one gives up the rest of its job,
//     the siblings to the right of its path at every depth, as new jobs;
//   - a process stops a job that comes after a finding, or whose
//     schedules come past the exploration's -schedules (the jobs before
//     it ran at least that many);
//   - a process that finds something waits until every job before its
//     own has ended, and numbers its schedule after theirs; a finding
//     before its own supersedes it, and it goes back to claiming jobs.
//
// Everything the processes know of each other is in one file, the log,
// to which each appends records of one line (a job published, claimed,
// ended; a process hungry or fed) with O_APPEND, and which each reads
// from where it left off. All read the records in one order, so the
// first claim of a job in the log is the one that holds: a claim is an
// append and a read, where a file created per job cost a millisecond on
// a virtual disk, more than a schedule.

// treeCheckEvery is how often (in schedules) a process running a job
// reads the log: it then runs at most treeCheckEvery-1 schedules past a
// finding or the exploration's end, and a hungry process waits for as
// many.
const treeCheckEvery = 4

// treeShare is one process's side of a search tree split between
// processes. It implements strategy.Jobs.
type treeShare struct {
	splitWait
	limit int    // the schedules of the whole search
	self  string // names this process in claims and its hunger mark
	log   *splitLog

	jobs   map[string]*treeJob
	order  jobList
	low    *treeJob        // the job with a finding with the lowest key
	active int             // jobs claimed and not ended
	hunger map[string]bool // the processes waiting for a job

	cur *treeJob // the job this process explores
	pace
	hungry     bool
	superseded bool // the last finding of this process was not the first
	err        error
}

// treeJob is what the log says of a job.
type treeJob struct {
	job      strategy.Job
	prefixes string // its prefixes, as the log has them
	name     string
	claimed  bool
	by       string // the process that claimed it
	done     bool
	part     wire.Part
	blk      *jobBlock // where it is in the jobList
}

// splitLogName is the name of the log in the directory of a split test.
const splitLogName = "split.log"

// openTree opens the share of a process in dir, creating the log; jobs
// are published first (the jobs of the search, from the process that
// starts it).
func openTree(dir string, limit int, self string, wait splitWait, jobs []strategy.Job) (*treeShare, error) {
	l, err := openLog(filepath.Join(dir, splitLogName))
	if err != nil {
		return nil, err
	}
	s := &treeShare{splitWait: wait, limit: limit, self: self, log: l, jobs: map[string]*treeJob{}, hunger: map[string]bool{}}
	if err := s.publish(jobs); err != nil {
		l.close()
		return nil, err
	}
	return s, nil
}

// noteExit notes in the log in dir that process pid exited: a part of
// the search it had claimed and not ended is lost, and the search with
// it, which the processes reading the log then say.
func noteExit(dir string, pid int) error {
	l, err := openLog(filepath.Join(dir, splitLogName))
	if err != nil {
		return err
	}
	defer l.close()
	return l.appendLine("X", strconv.Itoa(pid))
}

// close closes the log and takes this process's hunger mark away.
func (s *treeShare) close() {
	s.setHungry(false)
	s.log.close()
}

// keyString encodes a key or a prefix: its numbers separated by commas,
// "-" when empty.
func keyString(k []int) string {
	if len(k) == 0 {
		return "-"
	}
	var b strings.Builder
	for i, x := range k {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}

func parseInts(s string) ([]int, error) {
	if s == "-" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.Atoi(f)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// publish adds jobs to the log, and then the records more.
func (s *treeShare) publish(jobs []strategy.Job, more ...[]string) error {
	var lines [][]string
	for _, j := range jobs {
		prefixes := []string{keyString(j.Prefix)}
		for _, p := range j.More {
			prefixes = append(prefixes, keyString(p))
		}
		lines = append(lines, []string{"J", keyString(j.Key), strconv.Itoa(j.Level), strings.Join(prefixes, ";")})
	}
	return s.log.appendLines(append(lines, more...))
}

// refresh reads the records added to the log since the last read.
func (s *treeShare) refresh() {
	if err := s.log.lines(s.apply); err != nil && s.err == nil {
		s.err = err
	}
}

// apply applies one record to the view of the jobs.
func (s *treeShare) apply(f []string) error {
	if len(f) < 2 {
		return errors.New("short record")
	}
	if f[0] == "J" {
		if len(f) != 4 {
			return errors.New("bad job")
		}
		key, err1 := parseInts(f[1])
		level, err2 := strconv.Atoi(f[2])
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		if s.jobs[f[1]] == nil {
			// Its prefixes are read by the process that claims it.
			tj := &treeJob{job: strategy.Job{Key: key, Level: level}, prefixes: f[3], name: f[1], part: wire.Part{Key: key}}
			s.jobs[f[1]] = tj
			s.order.insert(tj)
		}
		return nil
	}
	switch f[0] {
	case "H":
		s.hunger[f[1]] = true
		return nil
	case "F":
		delete(s.hunger, f[1])
		return nil
	case "X":
		delete(s.hunger, f[1])
		var lost error
		s.order.each(func(tj *treeJob) {
			if tj.by == f[1] && !tj.done && lost == nil {
				lost = fmt.Errorf("a process exploring the search (pid %s) exited during a part of it", f[1])
			}
		})
		return lost
	}
	tj := s.jobs[f[1]]
	if tj == nil {
		return errors.New("unknown job")
	}
	switch f[0] {
	case "C":
		if len(f) != 3 {
			return errors.New("bad claim")
		}
		if !tj.claimed { // the first claim in the log holds
			s.order.update(tj, func() { tj.claimed, tj.by = true, f[2] })
			s.active++
		}
	case "D":
		if len(f) != 4 || !tj.claimed || tj.done {
			return errors.New("bad end")
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return err
		}
		s.order.update(tj, func() {
			tj.done = true
			tj.part.Schedules = n
			tj.part.Ended = strings.Contains(f[3], "e")
			tj.part.Finding = strings.Contains(f[3], "f")
			tj.part.Incomplete = strings.Contains(f[3], "i")
		})
		s.active--
		if tj.part.Finding && (s.low == nil || wire.CompareKeys(tj.job.Key, s.low.job.Key) < 0) {
			s.low = tj
		}
	default:
		return errors.New("unknown record")
	}
	return nil
}

// needed reports whether a job may still count: it comes before every
// finding.
func (s *treeShare) needed(tj *treeJob) bool {
	return s.low == nil || wire.CompareKeys(tj.job.Key, s.low.job.Key) < 0
}

// claimable returns the unclaimed job with the lowest key if it is
// still needed and the jobs before it ran fewer schedules than the
// search's; else nil.
func (s *treeShare) claimable() *treeJob {
	tj, lb := s.order.firstUnclaimed()
	if tj == nil || !s.needed(tj) || lb >= s.limit {
		return nil // neither it nor a job after it counts
	}
	return tj
}

// claim takes tj if no other process did: the first claim in the log
// holds.
func (s *treeShare) claim(tj *treeJob) bool {
	if err := s.log.appendLine("C", tj.name, s.self); err != nil {
		if s.err == nil {
			s.err = err
		}
		return false
	}
	s.refresh()
	return tj.by == s.self
}

// setHungry says in the log that this process waits for a job, or no
// longer does.
func (s *treeShare) setHungry(h bool) {
	if h == s.hungry {
		return
	}
	s.hungry = h
	r := "F"
	if h {
		r = "H"
	}
	if err := s.log.appendLine(r, s.self); err != nil && s.err == nil {
		s.err = err
	}
}

// othersHungry reports whether another process waits for a job.
func (s *treeShare) othersHungry() bool {
	return len(s.hunger) > 1 || len(s.hunger) == 1 && !s.hunger[s.self]
}

// wait pauses between two reads of the log; false: waiting is over
// (past -budget, with no error).
func (s *treeShare) wait(d *time.Duration, what string) bool {
	if err := s.splitWait.wait(d, what); err != nil {
		if s.err == nil && err != errBudget {
			s.err = err
		}
		return false
	}
	return true
}

// Next implements strategy.Jobs: the needed job with the lowest key that
// no process claimed, waiting while another may split its job.
func (s *treeShare) Next() (strategy.Job, bool) {
	d := time.Millisecond
	for {
		s.refresh()
		if s.err != nil {
			break
		}
		if tj := s.claimable(); tj != nil {
			if !s.claim(tj) {
				continue
			}
			s.setHungry(false)
			s.cur, s.calls = tj, 0
			s.lb, _ = s.order.before(tj)
			j := tj.job
			for i, p := range strings.Split(tj.prefixes, ";") {
				prefix, err := parseInts(p)
				if err != nil {
					s.err = fmt.Errorf("interleave: splitting the search: the prefixes %q: %w", tj.prefixes, err)
					break
				}
				if i == 0 {
					j.Prefix = prefix
				} else {
					j.More = append(j.More, prefix)
				}
			}
			return j, s.err == nil
		}
		if s.active == 0 {
			break // no job is left to split
		}
		s.setHungry(true)
		if !s.wait(&d, "for a part of the search") {
			break
		}
	}
	s.setHungry(false)
	return strategy.Job{}, false
}

// pace decides, before each schedule of a job after its first, what
// needs no look at the log: the job stops once the schedules of the
// jobs before it (lb, when last read) and its own reach the search's
// limit; else the log is read every treeCheckEvery schedules.
type pace struct {
	lb, calls int
}

// due returns what to do with the job when look is false, else that it
// is time to read the log.
func (p *pace) due(ran, limit int) (act strategy.Action, look bool) {
	if p.lb+ran >= limit {
		return strategy.Stop, false
	}
	p.calls++
	return strategy.Go, p.calls%treeCheckEvery == 0
}

// Between implements strategy.Jobs.
func (s *treeShare) Between(ran int) strategy.Action {
	if act, look := s.due(ran, s.limit); !look {
		return act
	}
	s.refresh()
	s.lb, _ = s.order.before(s.cur)
	switch {
	case s.err != nil || !s.needed(s.cur) || s.lb+ran >= s.limit:
		return strategy.Stop
	case s.othersHungry() && s.claimable() == nil:
		return strategy.Split
	}
	return strategy.Go
}

// Done implements strategy.Jobs: the jobs it made first, then its end.
func (s *treeShare) Done(r strategy.JobResult) {
	flags := ""
	if r.Ended {
		flags += "e"
	}
	if r.Finding {
		flags += "f"
	}
	if r.Incomplete {
		flags += "i"
	}
	if flags == "" {
		flags = "-"
	}
	err := s.publish(r.Children, []string{"D", s.cur.name, strconv.Itoa(r.Schedules), flags})
	if err != nil && s.err == nil {
		s.err = err
	}
}

// number returns the number the sequential search gives the schedule
// with which this process's job just found something: it waits until
// every job before it has ended. ok is false when the finding is not
// the search's: one before it supersedes it, or it comes past the
// search's end.
func (s *treeShare) number() (n int, ok bool) {
	mine := s.cur
	d := time.Millisecond
	for {
		s.refresh()
		if s.err != nil {
			return 0, false
		}
		if s.low != mine {
			s.superseded = true
			return 0, false
		}
		sum, all := s.order.before(mine)
		if n = sum + mine.part.Schedules; all || n > s.limit {
			// Past the search's end already: the jobs left before it
			// are too (nobody claims them), and it is not a finding.
			return n, n <= s.limit
		}
		if !s.wait(&d, "for the parts of the search before a finding") {
			// Past -budget the jobs before it may never end: its
			// number is at least n.
			return n, s.err == nil && n <= s.limit
		}
	}
}

// TreeReport, when set (tests), is given the schedules each process ran
// of a split search (dfs, pcb, dpor).
var TreeReport func(schedulesByProcess map[string]int)

// byProcess returns the schedules of the parts each process ran.
func (s *treeShare) byProcess() map[string]int {
	out := map[string]int{}
	s.order.each(func(tj *treeJob) {
		if tj.by != "" {
			out[tj.by] += tj.part.Schedules
		}
	})
	return out
}

// parts returns every job of the log as a part (those not ended with
// what they ran).
func (s *treeShare) parts() []wire.Part {
	s.refresh()
	out := make([]wire.Part, 0, s.order.len())
	s.order.each(func(tj *treeJob) { out = append(out, tj.part) })
	return out
}
