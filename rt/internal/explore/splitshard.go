package explore

import (
	"fmt"
	"sort"

	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/wire"
)

// Shards cannot claim jobs from one another: each machine runs on its
// own. A shard's jobs are fixed before it starts, the same on every
// machine: each cuts the search the same way, by probing (probeJobs),
// and takes every N-th job of the cut in the order of their keys. Its
// results carry its parts (wire.Result.Parts), and "interleave merge"
// tallies every shard's parts as the processes of one run are tallied.

// probing hands out the jobs of a search being cut for its shards: the
// job with the shortest prefix (the largest subtree, as far as one can
// tell) runs its first schedule and gives the rest up, until the cut
// has enough jobs or the probes reach their bound. Each probed
// schedule becomes a job of its own (its whole path as its prefix, its
// job's key), run again by its shard.
type probing struct {
	pending []strategy.Job
	cut     []strategy.Job // the probed schedules
	probes  int
	want    int // jobs in the cut
	most    int // probes at most
	cur     strategy.Job
	found   bool // a probed schedule found something
}

// Next implements strategy.Jobs.
func (p *probing) Next() (strategy.Job, bool) {
	if len(p.pending) == 0 || len(p.pending)+len(p.cut) >= p.want || p.probes >= p.most {
		return strategy.Job{}, false
	}
	best := 0
	for i, j := range p.pending {
		b := p.pending[best]
		if len(j.Prefix) < len(b.Prefix) || len(j.Prefix) == len(b.Prefix) && wire.CompareKeys(j.Key, b.Key) < 0 {
			best = i
		}
	}
	p.cur = p.pending[best]
	p.pending = append(p.pending[:best], p.pending[best+1:]...)
	p.probes++
	return p.cur, true
}

// Between implements strategy.Jobs: a probe runs one schedule.
func (p *probing) Between(int) strategy.Action { return strategy.Split }

// Done implements strategy.Jobs.
func (p *probing) Done(r strategy.JobResult) {
	p.cut = append(p.cut, strategy.Job{Key: p.cur.Key, Prefix: r.Path, Level: p.cur.Level})
	p.pending = append(p.pending, r.Children...)
	p.found = p.found || r.Finding
}

// probeJobs cuts the search of opts into about want jobs (at most most
// probes), in the order of their keys.
func probeJobs(name string, opts Options, body func(), want, most int) ([]strategy.Job, error) {
	p := &probing{pending: []strategy.Job{strategy.RootJob()}, want: want, most: most}
	opts.jobs = p
	opts.number = func() (int, bool) { return 0, false } // its shard reports it
	opts.ScheduleDir, opts.Progress = "-", nil
	for {
		p.found = false
		if _, err := Explore(name, opts, body); err != nil {
			return nil, err
		}
		if !p.found {
			break // no job left to probe
		}
	}
	jobs := append(p.cut, p.pending...)
	sort.Slice(jobs, func(a, b int) bool { return wire.CompareKeys(jobs[a].Key, jobs[b].Key) < 0 })
	return jobs, nil
}

// Probing cuts a search into shardJobs jobs per shard, with at most
// shardProbes probes per shard: enough that the shards' shares of a
// search whose subtrees differ in size are alike.
const (
	shardJobs   = 8
	shardProbes = 64
)

// treeJobs returns the jobs a search split as cfg says begins with: the
// whole search, or a shard's share of it (every N-th job of the cut).
func treeJobs(cfg wire.Config, name string, opts Options, body func()) ([]strategy.Job, error) {
	if cfg.Shard == "" {
		return []strategy.Job{strategy.RootJob()}, nil
	}
	k, n, err := wire.ParseShard(cfg.Shard)
	if err != nil {
		return nil, fmt.Errorf("interleave: %w", err)
	}
	all, err := probeJobs(name, opts, body, shardJobs*n, shardProbes*n)
	if err != nil {
		return nil, err
	}
	var mine []strategy.Job
	for i, j := range all {
		if i%n == k {
			mine = append(mine, j)
		}
	}
	return mine, nil
}
