package strategy

import (
	"interleave.dev/rt/internal/event"
)

// Kind is the kind of a choice point.
type Kind uint8

const (
	// Thread chooses which goroutine runs next, or whether the earliest
	// pending timer fires now (the option with G == 0).
	Thread Kind = iota
	// Select chooses which ready case a select statement takes, or which
	// pooled object a sync.Pool's Get returns (case 0: none).
	Select
)

// Option is one alternative at a choice point.
type Option struct {
	G    int32       // goroutine that would run; 0 is the timer at a Thread point
	Case int32       // case index, at a Select point
	Ev   event.Event // the pending event of G (or the select case's operation)
}

// Point is a choice point with more than one option.
//
// Its options are listed in Options, except at the Thread points offered
// to an Indexed strategy: there Set holds them, and Options is nil, so
// that the scheduler never lists every enabled goroutine (a point then
// costs the same whatever the number of goroutines). Len, At and Find read
// either form. Listed Thread options are sorted by goroutine id, the
// timer (G == 0) last; a Set's order is a function of the iteration's
// history only (so the same under replay and DFS), not of the ids, with
// the timer last too.
type Point struct {
	Kind    Kind
	Index   int   // number of earlier choice points in this iteration
	Step    int   // number of earlier scheduling points, with one option or more
	Current int32 // goroutine that reached the point (0 if it blocked or exited)
	Options []Option
	Set     OptionSet
}

// OptionSet gives the options of a choice point without listing them.
type OptionSet interface {
	// Len is the number of options.
	Len() int
	// At returns option i, 0 <= i < Len().
	At(i int) Option
	// IndexOf returns the index of the option of goroutine g (0: the
	// timer), or -1.
	IndexOf(g int32) int
}

// Indexed is implemented by strategies that read a Thread point's options
// only through Len, At and Find, in any order the scheduler gives, so that
// the scheduler may hand them a Set instead of a list.
type Indexed interface {
	Strategy
	// Indexed marks the strategy; it does nothing.
	Indexed()
}

// GoerOn is an Indexed strategy that can let the goroutine that reached
// a Thread point go on before the point's options are collected: the
// scheduler's fast path for a point where nothing switches.
type GoerOn interface {
	Indexed
	// GoOn is asked at a Thread point whose options are two or more
	// goroutines, among them g, the goroutine that reached it, and no
	// timer. True is the choice of g's option, as if Choose had returned
	// its index; false means that Choose is asked next at the same point,
	// and chooses as it would have after the draws GoOn made.
	GoOn(g int32) bool
}

// Len returns the number of options of p.
func (p *Point) Len() int {
	if p.Set != nil {
		return p.Set.Len()
	}
	return len(p.Options)
}

// At returns option i of p.
func (p *Point) At(i int) Option {
	if p.Set != nil {
		return p.Set.At(i)
	}
	return p.Options[i]
}

// indexOf returns the index of goroutine g's option (0: the timer), in a
// Set or among the listed Options, or -1.
func (p *Point) indexOf(g int32) int {
	if p.Set != nil {
		return p.Set.IndexOf(g)
	}
	return p.OptionOf(g)
}

// OptionOf returns the index of the option of goroutine g among p's listed
// Options, or -1.
func (p *Point) OptionOf(g int32) int {
	for i, o := range p.Options {
		if o.G == g {
			return i
		}
	}
	return -1
}

// Encode gives the schedule-file encoding of option i of p (see
// wire.Schedule): the goroutine id, 0 for the timer, -1-case for a select.
func (p *Point) Encode(i int) int {
	o := p.At(i)
	if p.Kind == Select {
		return -1 - int(o.Case)
	}
	return int(o.G)
}

// Find returns the index of the option whose encoding is code, or -1.
func (p *Point) Find(code int) int {
	if p.Set != nil && p.Kind == Thread {
		if code < 0 {
			return -1
		}
		return p.Set.IndexOf(int32(code))
	}
	for i := range p.Options {
		if p.Encode(i) == code {
			return i
		}
	}
	return -1
}

// Outcome is how an iteration ended.
type Outcome struct {
	Finding bool   // a bug was found
	Kind    string // its kind
	Points  int    // choice points of the iteration
	Steps   int    // scheduling points of the iteration
}

// Strategy decides at choice points.
type Strategy interface {
	// Name is the strategy's name as given to -strategy.
	Name() string
	// Begin starts an iteration; false means the space is exhausted.
	Begin() bool
	// Choose returns the index of the option taken at p, or -1 to stop the
	// iteration because the program no longer follows the strategy's plan
	// (replay divergence).
	Choose(p *Point) int
	// End ends the iteration.
	End(o Outcome)
}

// Exhaustive is implemented by strategies that can tell whether their
// whole search space has been covered.
type Exhaustive interface {
	// Complete reports whether every iteration of the space was run (and
	// none was cut short by a bound).
	Complete() bool
}

// Estimator is implemented by systematic strategies that can estimate how
// much of their space they covered.
type Estimator interface {
	// Covered estimates the fraction (0 to 1) of the space that the
	// iterations run so far covered, weighing the options of every choice
	// point alike. It is called between iterations.
	Covered() float64
}

// Summarizer is implemented by strategies that say, in a line, what their
// search did or covered (solver queries, orderings learned), for go test
// -v.
type Summarizer interface {
	Summary() string
}

// Independent is implemented by strategies whose schedules do not depend
// on one another: schedule i (numbered from 1) is a function of the seed,
// i and the program alone, so that any process can run any schedule and
// the schedules of an exploration can be split between processes and
// machines with the same result.
type Independent interface {
	Strategy
	// BeginAt starts schedule i. Begin starts the schedule after the last
	// one begun.
	BeginAt(i int) bool
	// Calibrate reports whether the strategy must see schedule 1 run
	// (BeginAt(1), End) before any later one, to learn what it needs of
	// the program (the number of choice points, for PCT).
	Calibrate() bool
}

// scheduleSeed derives the seed of schedule i from the exploration's seed.
func scheduleSeed(seed int64, i int) uint64 {
	return Mix64(uint64(seed)^0x5ced5eed) ^ Mix64(uint64(i))
}

func Mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Observer is implemented by strategies that need the whole execution, not
// only its choice points: dpor (Flanagan and Godefroid 2005 need every
// event and who executed it), regression (the call stacks of the events
// it matches against a bug signature) and active testing (its analyses
// read every event). The scheduler calls it only when the strategy
// implements it, in the order things happen in an iteration:
//
//   - Pending(ev): goroutine ev.G reached its next operation ev. It is
//     called by ev.G itself (so the strategy may take its call stack,
//     Callers), before the choice point that may run it; an operation
//     that touches several objects reports each first (every word of a
//     multi-word access, every channel of a select), its own event last.
//   - Executed(ev, index): ev runs; index counts the events of the
//     iteration from 0. ev is the pending operation of ev.G, a resume or
//     start of ev.G, its exit, or a timer firing (G == 0). The chosen
//     option of a Thread point is the next Executed event; a Select point
//     belongs to the last Executed event.
//   - Woke(g): the running event made goroutine g runnable: it started
//     g, or woke g up from a blocking operation. g's next event happens
//     after it.
//
// The methods must not block and must bound what they keep.
type Observer interface {
	Pending(ev event.Event)
	Executed(ev event.Event, index int)
	Woke(g int32)
}

// Yielder is implemented by observers that must know when goroutine g's
// last Executed event passes it over at the next scheduling point, as a
// runtime.Gosched does: a poll that repeats at site (a select that took
// its default, a failed TryLock, in a spin loop) yields for fairness.
// What the other goroutines can do right after such a poll then depends
// on where it comes, as after an OpYield event (event.Global), which
// Yielded stands for.
type Yielder interface {
	Yielded(g int32, site uint32)
}

// Valuer is implemented by observers that also need the values memory
// accesses read and write (mcr: maximal causality reduction reasons about
// which write a read can return). The scheduler calls Value for every
// word (8 bytes, aligned) a plain access covers, and for the location of
// an atomic operation, with the event's index (as in Executed), the
// location's object number (as in events; negative), the mask of the
// bytes the access covers, and the memory:
//
//   - ValueRead, right after Executed of an access that reads (a read, a
//     statement that reads and writes a location, an atomic load or
//     update): the memory before it, which is what it reads;
//   - ValueOverwritten, right after Executed of a write that does not read
//     (an assignment, an atomic store): the memory it overwrites;
//   - ValueWritten, for a write, at the goroutine's next event or its
//     exit, or right after Executed when the write was reported after it
//     happened (rt.Wrote): the memory the write left.
type Valuer interface {
	Observer
	Value(index int, obj int32, mask, v uint64, k ValueKind)
}

// ValueKind says what a value reported to a Valuer is.
type ValueKind uint8

// The kinds of values.
const (
	ValueRead ValueKind = iota
	ValueOverwritten
	ValueWritten
)
