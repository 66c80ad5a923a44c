package rt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"interleave.dev/rt/internal/strategy"
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
// It implements strategy.DPORJobs.
type roundShare struct {
	splitWait
	dir   string
	limit int    // the executions of the whole search
	self  string // names this process in claims and its results file
	log   *splitLog

	tree    *strategy.DPORTree
	round   int
	jobs    []*strategy.DPORJob
	claimed map[string]bool // "round.index"
	by      map[string]string
	results []*strategy.DPORResult // of the current round, by index
	ahead   map[int][][]byte       // results of later rounds (other processes are ahead)
	files   map[string]*splitLog   // the processes' results files
	exited  map[string]bool        // the processes that exited
	byProc  map[string]int         // executions each process ran, rounds before
	mine    *splitLog
	before  int // executions of the rounds before

	cur *strategy.DPORJob
	pace
	over       bool // the search ended (or this process's part of it)
	incomplete bool // a job was stopped or cut
	superseded bool
	err        error
}

// openRounds opens the share of a process in dir, of a search with wakeup
// trees (optimal) or source sets, bounded to bound preemptions
// (negative: none), of limit executions.
func openRounds(dir string, optimal bool, bound, limit int, self string, deadline time.Time) (*roundShare, error) {
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
		splitWait: splitWait{deadline: deadline}, dir: dir, limit: limit, self: self, log: l,
		tree: strategy.NewDPORTree(optimal, bound), claimed: map[string]bool{}, by: map[string]string{},
		ahead: map[int][][]byte{}, files: map[string]*splitLog{self: mine}, mine: mine, exited: map[string]bool{}, byProc: map[string]int{},
	}
	s.jobs = s.tree.Round()
	s.results = make([]*strategy.DPORResult, len(s.jobs))
	return s, nil
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

// refresh reads the claims and the results added since the last read.
func (s *roundShare) refresh() {
	err := s.log.lines(func(f []string) error {
		switch {
		case len(f) == 3 && f[0] == "C":
			if !s.claimed[f[1]] { // the first claim holds
				s.claimed[f[1]], s.by[f[1]] = true, f[2]
				if s.files[f[2]] == nil {
					l, err := openLog(resultsLog(s.dir, f[2]))
					if err != nil {
						return err
					}
					s.files[f[2]] = l
				}
			}
		case len(f) == 2 && f[0] == "X":
			s.exited[f[1]] = true
		default:
			return errors.New("unknown record")
		}
		return nil
	})
	for _, l := range s.files {
		if err != nil {
			break
		}
		err = l.blobs(s.take)
	}
	for i := range s.jobs {
		if p := s.by[jobKey(s.round, i)]; err == nil && s.exited[p] && s.results[i] == nil {
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
	r, err := strategy.UnmarshalDPORResult(b, func(round, index int) *strategy.DPORJob {
		if round == s.round && index >= 0 && index < len(s.jobs) {
			return s.jobs[index]
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.results[r.Job.Index] = r
	return nil
}

// low returns the index of the job of the round with a finding with the
// lowest index, or len(jobs).
func (s *roundShare) low() int {
	for i, r := range s.results {
		if r != nil && r.Finding {
			return i
		}
	}
	return len(s.jobs)
}

// before returns the executions of the jobs of the round before job i,
// and whether they all have their result.
func (s *roundShare) beforeJob(i int) (int, bool) {
	sum, all := s.before, true
	for _, r := range s.results[:i] {
		if r == nil {
			all = false
		} else {
			sum += r.Executions
		}
	}
	return sum, all
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
		s.byProc[s.by[jobKey(s.round, i)]] += r.Executions
	}
	s.tree.Merge(s.results)
	s.round++
	s.jobs = s.tree.Round()
	s.results = make([]*strategy.DPORResult, len(s.jobs))
	if len(s.jobs) == 0 || s.before >= s.limit {
		s.over = true
		return true
	}
	for _, b := range s.ahead[s.round] {
		if err := s.take(b); err != nil {
			s.err = err
		}
	}
	delete(s.ahead, s.round)
	return true
}

// Next implements strategy.DPORJobs.
func (s *roundShare) Next() (*strategy.DPORJob, bool) {
	d := time.Millisecond
	for s.err == nil && !s.over {
		s.refresh()
		low, lb := s.low(), s.before
		claimed := false
		for i, j := range s.jobs[:low] {
			if !s.claimed[jobKey(s.round, i)] {
				if lb >= s.limit {
					break // it and the jobs after it come past the search's end
				}
				if s.claim(i) {
					s.cur, s.calls = j, 0
					s.lb, _ = s.beforeJob(i)
					return j, true
				}
				claimed = true // another's: look again
				break
			}
			if r := s.results[i]; r != nil {
				lb += r.Executions
			}
		}
		if claimed || s.next() {
			continue
		}
		if err := s.wait(&d, "for the other parts of the search's round"); err != nil {
			s.err = err
		}
	}
	return nil, false
}

// claim claims job i of the round; the first claim in the log holds.
func (s *roundShare) claim(i int) bool {
	k := jobKey(s.round, i)
	if err := s.log.appendLine("C", k, s.self); err != nil {
		s.err = err
		return false
	}
	s.refresh()
	return s.by[k] == s.self
}

// Between implements strategy.DPORJobs.
func (s *roundShare) Between(ran int) strategy.Action {
	if act, look := s.due(ran, s.limit); !look {
		return act
	}
	s.refresh()
	s.lb, _ = s.beforeJob(s.cur.Index)
	if s.err != nil || s.low() < s.cur.Index || s.lb+ran >= s.limit {
		return strategy.Stop
	}
	return strategy.Go
}

// Done implements strategy.DPORJobs.
func (s *roundShare) Done(r *strategy.DPORResult) {
	b, err := r.MarshalBinary()
	if err == nil {
		err = s.mine.appendBlob(b)
	}
	if err != nil && s.err == nil {
		s.err = err
	}
	s.refresh()
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
		if s.low() < mine {
			s.superseded = true
			return 0, false
		}
		if sum, all := s.beforeJob(mine); all {
			n = sum + s.results[mine].Executions
			return n, n <= s.limit
		}
		if err := s.wait(&d, "for the parts of the search before a finding"); err != nil {
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
			out[s.by[jobKey(s.round, i)]] += r.Executions
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
