package wire

import "sort"

// A search tree split between processes or shards (dfs, pcb) is explored
// as parts, subtrees placed in the order the sequential search runs them
// by their keys (CompareKeys): the sequential search's schedules are the
// parts' schedules, part after part in the order of their keys. Each
// process reports the parts it explored; Tally combines them into what
// one process would have reported.

// Part is a part of a systematic search that one process explored.
type Part struct {
	// Key places the part in the sequential search (CompareKeys).
	Key []int `json:"key"`
	// Schedules is the number of schedules it ran.
	Schedules int `json:"schedules"`
	// Finding: its last schedule found something (and the part ended
	// there).
	Finding bool `json:"finding,omitempty"`
	// Ended: it ran to its end; false when it was stopped (past a
	// finding, or past the exploration's schedules) or found something.
	Ended bool `json:"ended,omitempty"`
	// Incomplete: a bound cut an execution, the program did not repeat
	// itself under the part's prefix, or pcb left out a preemption past
	// its bound: the search cannot claim its space.
	Incomplete bool `json:"incomplete,omitempty"`
}

// CompareKeys orders part keys as the sequential search runs the parts:
// by their first difference, and a key before the keys it is a prefix of.
func CompareKeys(a, b []int) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		switch {
		case a[i] < b[i]:
			return -1
		case a[i] > b[i]:
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// sortParts sorts parts by their keys.
func sortParts(parts []Part) {
	sort.Slice(parts, func(i, j int) bool { return CompareKeys(parts[i].Key, parts[j].Key) < 0 })
}

// Tallied is what the parts of a search add up to.
type Tallied struct {
	// Schedules is what the sequential search, allowed limit schedules,
	// runs: with a finding, the number of the failing schedule.
	Schedules int
	// Finding is the index (in the sorted parts) of the part whose last
	// schedule is the sequential search's finding, or -1.
	Finding int
	// Exhausted: no finding, fewer schedules than the limit, and every
	// part ran to its end, complete: the whole space was covered.
	Exhausted bool
}

// Tally sorts parts and combines them: a single process stops at its
// first finding, the one of the part with the lowest key that has one,
// numbered after every schedule of the parts before it, and it stops
// after limit schedules (a finding numbered past limit is not one).
func Tally(parts []Part, limit int) Tallied {
	sortParts(parts)
	t := Tallied{Finding: -1, Exhausted: true}
	sum := 0
	for i, p := range parts {
		if p.Finding {
			if n := sum + p.Schedules; n <= limit {
				t.Finding, t.Schedules, t.Exhausted = i, n, false
				return t
			}
		}
		sum += p.Schedules
		t.Exhausted = t.Exhausted && p.Ended && !p.Incomplete
	}
	t.Schedules = min(sum, limit)
	t.Exhausted = t.Exhausted && sum < limit
	return t
}
