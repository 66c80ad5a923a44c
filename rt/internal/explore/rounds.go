package explore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/internal/strategy/dpor"
)

// Splitting a dpor search between processes (strategy/dporsplit.go):
// the search runs in rounds of jobs, and every process keeps its own
// copy of the search's skeleton. Within a round, a process claims the
// job with the lowest index no process claimed (the first claim in the
// log, split.go's, holds), explores it, and appends its result to a file
// of its own; when every job of the round has a result, each process
// merges them all, in the order of the jobs, into its skeleton, which
// makes the next round's jobs the same in every process. A job's
// executions are numbered after every execution of the rounds before
// and of the round's jobs before it: a finding is numbered as one
// process running the jobs in order would number it, and one before it
// in its round supersedes it.

// roundShare is one process's side of a dpor search split into rounds.
// It implements dpor.Jobs.
type roundShare struct {
	splitWait
	dir   string
	limit int    // the executions of the whole search
	self  string // names this process in claims and its results file
	log   *splitLog

	tree    *dpor.Tree
	round   int
	jobs    []*dpor.Job
	by      []string               // who claimed each job of the round ("": none)
	later   map[int]map[int]string // claims of later rounds (other processes are ahead)
	results []*dpor.Result         // of the current round, by index
	ahead   map[int][][]byte       // results of later rounds
	files   map[string]*splitLog   // the processes' results files
	exited  map[string]bool        // the processes that exited
	byProc  map[string]int         // executions each process ran, rounds before
	mine    *splitLog
	before  int // executions of the rounds before

	// Cursors over the round's jobs: those before open are claimed,
	// those before ended have results (done executions), and the first
	// with a finding is low.
	open, ended, done, low int

	solo bool // no other process will run: results are not written
	cur  *dpor.Job
	pace
	over       bool // the search ended (or this process's part of it)
	incomplete bool // a job was stopped or cut
	superseded bool
	err        error
}

// openRounds opens the share of a process in dir, of a search with wakeup
// trees (optimal) or source sets, bounded to bound preemptions
// (negative: none), of limit executions.
func openRounds(dir string, optimal bool, bound, limit int, self string, wait splitWait) (*roundShare, error) {
	l, err := openLog(filepath.Join(dir, splitLogName))
	if err != nil {
		return nil, err
	}
	mine, err := openLog(resultsLog(dir, self))
	if err != nil {
		l.close()
		return nil, err
	}
	s := &roundShare{
		splitWait: wait, dir: dir, limit: limit, self: self, log: l,
		tree: dpor.NewTree(optimal, bound), later: map[int]map[int]string{},
		ahead: map[int][][]byte{}, files: map[string]*splitLog{self: mine}, mine: mine, exited: map[string]bool{}, byProc: map[string]int{},
	}
	s.setRound(s.tree.Round())
	return s, nil
}

// setRound starts a round of jobs, with the claims and results of it
// read already.
func (s *roundShare) setRound(jobs []*dpor.Job) {
	s.jobs = jobs
	s.by = make([]string, len(jobs))
	s.results = make([]*dpor.Result, len(jobs))
	s.open, s.ended, s.done, s.low = 0, 0, 0, len(jobs)
	for i, p := range s.later[s.round] {
		if i < len(s.by) {
			s.by[i] = p
		}
	}
	delete(s.later, s.round)
	for _, b := range s.ahead[s.round] {
		if err := s.take(b); err != nil && s.err == nil {
			s.err = err
		}
	}
	delete(s.ahead, s.round)
}

// resultsLog is where process self appends its jobs' results.
func resultsLog(dir, self string) string { return filepath.Join(dir, "results-"+self) }

func (s *roundShare) close() {
	for _, f := range s.files {
		f.close()
	}
	s.log.close()
}

func jobKey(round, index int) string { return strconv.Itoa(round) + "." + strconv.Itoa(index) }

// parseJobKey parses a jobKey.
func parseJobKey(k string) (round, index int, err error) {
	r, i, ok := strings.Cut(k, ".")
	if !ok {
		return 0, 0, errors.New("bad job")
	}
	if round, err = strconv.Atoi(r); err == nil {
		index, err = strconv.Atoi(i)
	}
	return round, index, err
}

// refresh reads the claims and the results added since the last read.
func (s *roundShare) refresh() {
	err := s.log.lines(func(f []string) error {
		switch {
		case len(f) == 3 && f[0] == "C":
			round, i, err := parseJobKey(f[1])
			if err != nil {
				return err
			}
			switch {
			case round == s.round && i >= 0 && i < len(s.by) && s.by[i] == "":
				s.by[i] = f[2] // the first claim holds
			case round > s.round:
				if s.later[round] == nil {
					s.later[round] = map[int]string{}
				}
				if s.later[round][i] == "" {
					s.later[round][i] = f[2]
				}
			}
			if s.files[f[2]] == nil {
				l, err := openLog(resultsLog(s.dir, f[2]))
				if err != nil {
					return err
				}
				s.files[f[2]] = l
			}
		case len(f) == 2 && f[0] == "X":
			s.exited[f[1]] = true
		default:
			return errors.New("unknown record")
		}
		return nil
	})
	for p, l := range s.files {
		if err != nil {
			break
		}
		if p != s.self { // its own results it took as they came
			err = l.blobs(s.take)
		}
	}
	for i := s.ended; len(s.exited) > 0 && i < len(s.jobs) && err == nil; i++ {
		if p := s.by[i]; s.exited[p] && s.results[i] == nil {
			err = fmt.Errorf("interleave: a process exploring the search (pid %s) exited during a part of it", p)
		}
	}
	if err != nil && s.err == nil {
		s.err = err
	}
}

// take takes a result read from a results file.
func (s *roundShare) take(b []byte) error {
	round, n := binary.Varint(b)
	if n <= 0 {
		return errors.New("a result without its round")
	}
	switch {
	case int(round) > s.round:
		s.ahead[int(round)] = append(s.ahead[int(round)], append([]byte(nil), b...))
		return nil
	case int(round) < s.round:
		return nil // merged already (this one ran it too)
	}
	r, err := dpor.UnmarshalResult(b, func(round, index int) *dpor.Job {
		if round == s.round && index >= 0 && index < len(s.jobs) {
			return s.jobs[index]
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.put(r)
	return nil
}

// put takes the result of a job of the current round.
func (s *roundShare) put(r *dpor.Result) {
	i := r.Job.Index
	s.results[i] = r
	if r.Finding && i < s.low {
		s.low = i
	}
	for s.ended < len(s.results) && s.results[s.ended] != nil {
		s.done += s.results[s.ended].Executions
		s.ended++
	}
}

// beforeJob returns the executions of the rounds before and of the
// round's jobs before job i that have their result, and whether they
// all do.
func (s *roundShare) beforeJob(i int) (int, bool) {
	sum := s.before + s.done
	if i <= s.ended {
		// The prefix is summed already: take the jobs after i out.
		for _, r := range s.results[i:s.ended] {
			sum -= r.Executions
		}
		return sum, true
	}
	for _, r := range s.results[s.ended:i] {
		if r != nil {
			sum += r.Executions
		}
	}
	return sum, false
}

// next moves to the next round once every job of this one has its
// result; false: not yet. The search is over at a finding (the jobs
// after it do not count), or once the jobs before the others ran the
// search's executions.
func (s *roundShare) next() bool {
	sum := s.before
	for _, r := range s.results {
		if sum >= s.limit || r != nil && r.Finding {
			s.over = true
			return true
		}
		if r == nil {
			return false
		}
		sum += r.Executions
	}
	for i, r := range s.results {
		s.before += r.Executions
		s.incomplete = s.incomplete || r.Incomplete || !r.Ended
		s.byProc[s.by[i]] += r.Executions
	}
	s.tree.Merge(s.results)
	s.round++
	jobs := s.tree.Round()
	if len(jobs) == 0 || s.before >= s.limit {
		s.jobs, s.results, s.over = nil, nil, true
		return true
	}
	s.setRound(jobs)
	return true
}

// Next implements dpor.Jobs.
func (s *roundShare) Next() (*dpor.Job, bool) {
	d := time.Millisecond
	for s.err == nil && !s.over {
		s.refresh()
		for s.open < len(s.by) && s.by[s.open] != "" {
			s.open++
		}
		claimed := false
		if i := s.open; i < s.low {
			// Not past the search's end: the jobs before it ran fewer
			// executions than it has.
			if lb, _ := s.beforeJob(i); lb < s.limit {
				if s.claim(i) {
					s.cur, s.calls, s.lb = s.jobs[i], 0, lb
					return s.jobs[i], true
				}
				claimed = true // another's: look again
			}
		}
		if claimed || s.next() {
			continue
		}
		if err := s.wait(&d, "for the other parts of the search's round"); err == errBudget {
			s.over = true
		} else if err != nil {
			s.err = err
		}
	}
	return nil, false
}

// claim claims job i of the round; the first claim in the log holds.
func (s *roundShare) claim(i int) bool {
	if err := s.log.appendLine("C", jobKey(s.round, i), s.self); err != nil {
		s.err = err
		return false
	}
	s.refresh()
	return s.by[i] == s.self
}

// Between implements dpor.Jobs.
func (s *roundShare) Between(ran int) strategy.Action {
	if act, look := s.due(ran, s.limit); !look {
		return act
	}
	s.refresh()
	s.lb, _ = s.beforeJob(s.cur.Index)
	if s.err != nil || s.low < s.cur.Index || s.lb+ran >= s.limit {
		return strategy.Stop
	}
	return strategy.Go
}

// Done implements dpor.Jobs.
func (s *roundShare) Done(r *dpor.Result) {
	if !s.solo {
		b, err := r.MarshalBinary()
		if err == nil {
			err = s.mine.appendBlob(b)
		}
		if err != nil && s.err == nil {
			s.err = err
		}
	}
	s.put(r)
}

// number returns the number one process gives the execution with which
// this process's job just found something: it waits until the jobs of
// the round before it have their results. ok is false when a finding
// before it supersedes it, or it comes past the search's end.
func (s *roundShare) number() (n int, ok bool) {
	mine := s.cur.Index
	d := time.Millisecond
	for s.err == nil {
		s.refresh()
		if s.low < mine {
			s.superseded = true
			return 0, false
		}
		sum, all := s.beforeJob(mine)
		if n = sum + s.results[mine].Executions; all || n > s.limit {
			// Past the search's end already: the jobs left before it
			// are too (nobody claims them), and it is not a finding.
			return n, n <= s.limit
		}
		if err := s.wait(&d, "for the parts of the search before a finding"); err == errBudget {
			// Past -budget the jobs before it may never end: its
			// number is at least n.
			return n, n <= s.limit
		} else if err != nil {
			s.err = err
		}
	}
	return 0, false
}

// byProcess returns the executions each process ran.
func (s *roundShare) byProcess() map[string]int {
	out := map[string]int{}
	for p, n := range s.byProc {
		out[p] = n
	}
	for i, r := range s.results {
		if r != nil {
			out[s.by[i]] += r.Executions
		}
	}
	return out
}

// tally returns the executions of the search and whether it covered its
// space, once it is over.
func (s *roundShare) tally() (int, bool) {
	sum := s.before
	for _, r := range s.results {
		if r != nil {
			sum += r.Executions
		}
	}
	covered := s.over && len(s.jobs) == 0 && s.before < s.limit && !s.incomplete && !s.tree.Dropped()
	return min(sum, s.limit), covered
}
