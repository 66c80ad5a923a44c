package explore

import (
	"sort"

	"interleave.dev/rt/wire"
)

// jobList keeps the jobs of a split search (split.go) in the order of
// their keys, with what the processes ask of it between schedules: the
// schedules the ended jobs before a job ran, whether they all ended, and
// the first job no process claimed. A search can have as many jobs as
// schedules (pcb's items often have one or two), so the jobs are kept in
// blocks of at most 2*blockJobs with their counts, and each of these
// costs a pass over the blocks and one block.
type jobList struct {
	blocks []*jobBlock
}

type jobBlock struct {
	jobs      []*treeJob
	schedules int // of its ended jobs
	undone    int // its jobs not ended
	unclaimed int // its jobs no process claimed
}

// blockJobs is half the most jobs a block holds.
const blockJobs = 64

// insert adds a new job, neither claimed nor ended.
func (l *jobList) insert(tj *treeJob) {
	if len(l.blocks) == 0 {
		l.blocks = []*jobBlock{{}}
	}
	// The last block whose first job comes before tj (or the first).
	bi := sort.Search(len(l.blocks), func(i int) bool {
		b := l.blocks[i]
		return len(b.jobs) > 0 && wire.CompareKeys(b.jobs[0].job.Key, tj.job.Key) > 0
	})
	b := l.blocks[max(bi-1, 0)]
	i := sort.Search(len(b.jobs), func(i int) bool { return wire.CompareKeys(b.jobs[i].job.Key, tj.job.Key) > 0 })
	b.jobs = append(b.jobs, nil)
	copy(b.jobs[i+1:], b.jobs[i:])
	b.jobs[i] = tj
	tj.blk = b
	b.undone++
	b.unclaimed++
	if len(b.jobs) > 2*blockJobs {
		l.splitBlock(max(bi-1, 0))
	}
}

// splitBlock cuts block bi in two.
func (l *jobList) splitBlock(bi int) {
	b := l.blocks[bi]
	nb := &jobBlock{jobs: append([]*treeJob(nil), b.jobs[blockJobs:]...)}
	b.jobs = b.jobs[:blockJobs:blockJobs]
	for _, x := range []*jobBlock{b, nb} {
		x.schedules, x.undone, x.unclaimed = 0, 0, 0
		for _, tj := range x.jobs {
			tj.blk = x
			x.count(tj, 1)
		}
	}
	l.blocks = append(l.blocks, nil)
	copy(l.blocks[bi+2:], l.blocks[bi+1:])
	l.blocks[bi+1] = nb
}

// count adds tj's counts to b's, or takes them away (sign -1).
func (b *jobBlock) count(tj *treeJob, sign int) {
	if tj.done {
		b.schedules += sign * tj.part.Schedules
	} else {
		b.undone += sign
	}
	if !tj.claimed {
		b.unclaimed += sign
	}
}

// update changes tj's state by f, keeping the counts.
func (l *jobList) update(tj *treeJob, f func()) {
	tj.blk.count(tj, -1)
	f()
	tj.blk.count(tj, 1)
}

// before returns the schedules the ended jobs before tj ran, and
// whether every job before it ended.
func (l *jobList) before(tj *treeJob) (int, bool) {
	sum, all := 0, true
	for _, b := range l.blocks {
		if b == tj.blk {
			for _, o := range b.jobs {
				if o == tj {
					break
				}
				if o.done {
					sum += o.part.Schedules
				} else {
					all = false
				}
			}
			break
		}
		sum += b.schedules
		all = all && b.undone == 0
	}
	return sum, all
}

// firstUnclaimed returns the unclaimed job with the lowest key and the
// schedules the ended jobs before it ran, or nil.
func (l *jobList) firstUnclaimed() (*treeJob, int) {
	sum := 0
	for _, b := range l.blocks {
		if b.unclaimed == 0 {
			sum += b.schedules
			continue
		}
		for _, tj := range b.jobs {
			if !tj.claimed {
				return tj, sum
			}
			if tj.done {
				sum += tj.part.Schedules
			}
		}
	}
	return nil, sum
}

// each calls f for every job in the order of their keys.
func (l *jobList) each(f func(tj *treeJob)) {
	for _, b := range l.blocks {
		for _, tj := range b.jobs {
			f(tj)
		}
	}
}

// len returns the number of jobs.
func (l *jobList) len() int {
	n := 0
	for _, b := range l.blocks {
		n += len(b.jobs)
	}
	return n
}
