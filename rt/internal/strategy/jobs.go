package strategy

// Splitting a fixed search tree (dfs, pcb) between processes. A Job is a
// subtree of the search: the executions whose choices begin with its
// Prefix, explored in the order the sequential search runs them. Its Key
// places it in that order: the schedules of the whole search, run one
// job after another in the order of their keys, each job's in its own
// order, are the sequential search's schedules in the sequential order,
// however the tree was cut into jobs. So a process may run any job, and
// the schedule a finding is numbered with in the sequential search is the
// schedules of the jobs with lower keys plus its number within its job.
//
// dfs: the key of a job is 0 followed by its prefix; the subtree of a
// prefix comes, in depth-first order, after the subtrees of the prefixes
// it is greater than (wire.CompareKeys). A job can give up the rest of its
// subtree while it runs (Split): the siblings to the right of its path,
// at every depth, each a job whose prefix extends the job's own prefix.
//
// pcb: the search runs every item (a prefix ending with a preemption)
// of bound k, in the order they were met, before those of bound k+1; an
// item is a depth-first search over the free choices after its prefix.
// The key of an item is the level k, then the key of the item (or part
// of one) that met it, then -1 and its number among the items that one
// met (Level, Key); a part of an item that another job split off adds
// the choices of its prefix after the item's (as for dfs). -1 is below
// every choice, so an item met by a job comes before the parts split off
// that job, as in the sequential search, which meets it earlier. A job
// is a bundle of items met alike, one after the other (Prefix, then
// More; their keys count up), or a part of an item: the items of a pcb
// search are many and often one schedule each, too many to hand out one
// by one.

// A Job is a subtree of a systematic search.
type Job struct {
	Key    []int   // its place in the sequential search (wire.CompareKeys)
	Prefix []int   // the choices (option indexes) that lead to it
	Level  int     // pcb: the preemptions its item has
	More   [][]int // pcb: the prefixes of the items after the first of a bundle
}

// RootJob is the job of the whole search.
func RootJob() Job { return Job{Key: []int{0}} }

// Action tells a strategy exploring a job what to do before its next
// schedule.
type Action int

// The actions.
const (
	// Go on with the job.
	Go Action = iota
	// Stop the job: the rest of its subtree is not needed (it comes
	// after a finding, or past the schedules of the exploration).
	Stop
	// Split off the rest of the job, as new jobs, for other processes.
	Split
)

// JobResult is what exploring a job gave.
type JobResult struct {
	Schedules int  // schedules run
	Finding   bool // the last one found something, and the job ended there
	// Ended: the job's subtree ran to its end (or up to where it was
	// split); false when it was stopped, or ended with a finding.
	Ended bool
	// Incomplete: an execution was cut by a bound, did not follow the
	// job's prefix (the program did not repeat itself), or pcb met a
	// preemption beyond its bound: the search cannot claim its space.
	Incomplete bool
	// Children are the jobs it made: the rest of its subtree it gave up
	// (Split), and pcb's items of the next bound that it met.
	Children []Job
	// Path, when it was split or found something, is the choices of its
	// last schedule.
	Path []int
}

// Jobs hands the jobs of a split search out to a strategy and takes
// their results. Next may wait for a job; it returns false when there is
// none left for this process.
type Jobs interface {
	Next() (Job, bool)
	// Between is called before each schedule of the current job but the
	// first, with the schedules it ran.
	Between(ran int) Action
	// Done reports the end of the current job.
	Done(r JobResult)
}

// subtree is a strategy that can explore jobs.
type subtree interface {
	// start begins to explore job j (its first schedule follows).
	start(j Job)
	// advance moves to the next schedule of the job; false when its
	// subtree is explored.
	advance() bool
	// split gives up the rest of the job, between schedules, and returns
	// it as jobs.
	split() []Job
	// result gives the job's flags and the jobs it met (its Children
	// without what split returned).
	result() JobResult
	// choices returns the choices of the last schedule, before advance
	// or split.
	choices() []int
}

// jobRunner runs the jobs a Jobs hands out, one after another, with a
// subtree strategy.
type jobRunner struct {
	jobs   Jobs
	job    Job
	active bool
	ran    int
}

// begin starts the next schedule: of the current job, or of the next
// job. It returns false when there is no job left.
func (r *jobRunner) begin(t subtree) bool {
	if r.active {
		var path []int
		var rest []Job
		act := r.jobs.Between(r.ran)
		if act == Split {
			path, rest = t.choices(), t.split()
			act = Go
		}
		if act == Go && rest == nil && t.advance() {
			return true
		}
		res := t.result()
		res.Schedules, res.Ended, res.Path = r.ran, act == Go, path
		res.Children = append(res.Children, rest...)
		r.active = false
		r.jobs.Done(res)
	}
	j, ok := r.jobs.Next()
	if !ok {
		return false
	}
	r.job, r.active, r.ran = j, true, 0
	t.start(j)
	return true
}

// end ends a schedule of the current job; one with a finding ends the
// job (the exploration stops there).
func (r *jobRunner) end(t subtree, o Outcome) {
	if !r.active {
		return
	}
	r.ran++
	if o.Finding {
		res := t.result()
		res.Schedules, res.Finding, res.Path = r.ran, true, t.choices()
		r.active = false
		r.jobs.Done(res)
	}
}

// abandon ends the current job, stopped, when the exploration ends
// before it does (its budget of time ran out), so that the processes
// waiting for it go on.
func (r *jobRunner) abandon(t subtree) {
	if r.active {
		res := t.result()
		res.Schedules = r.ran
		r.active = false
		r.jobs.Done(res)
	}
}

// Abandoner is implemented by the strategies that explore jobs: Abandon
// ends the job being explored, as stopped, when the exploration ends
// before it (the budget of time ran out), so that the processes waiting
// for it go on.
type Abandoner interface {
	Abandon()
}

// rest returns the jobs of the siblings to the right of path (the
// choices of the job's schedule below its prefix) at every frame of
// stack: their prefixes extend j's, and so do their keys.
func rest(j Job, path []int, stack []dfsFrame) []Job {
	var out []Job
	for f := range stack {
		if f > len(path) {
			break // the last schedule ended above these frames
		}
		for k := stack[f].chosen + 1; k < stack[f].n; k++ {
			below := append(append([]int(nil), path[:f]...), k)
			out = append(out, Job{
				Key:    append(append([]int(nil), j.Key...), below...),
				Prefix: append(append([]int(nil), j.Prefix...), below...),
				Level:  j.Level,
			})
		}
	}
	return out
}
