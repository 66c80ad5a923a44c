// Package strategy holds the search strategies: the deciders consulted at
// every choice point of an iteration. A strategy never touches goroutines;
// it sees the options (enabled goroutines with their pending events, the
// earliest timer, or the ready cases of a select) and returns one.
package strategy

import (
	"fmt"

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

// Point is a choice point with more than one option. Options of a Thread
// point are sorted by goroutine id, the timer (G == 0) first.
type Point struct {
	Kind    Kind
	Index   int   // number of earlier choice points in this iteration
	Current int32 // goroutine that reached the point (0 if it blocked or exited)
	Options []Option
}

// Encode gives the schedule-file encoding of option i of p (see
// wire.Schedule): the goroutine id, 0 for the timer, -1-case for a select.
func (p *Point) Encode(i int) int {
	o := p.Options[i]
	if p.Kind == Select {
		return -1 - int(o.Case)
	}
	return int(o.G)
}

// Find returns the index of the option whose encoding is code, or -1.
func (p *Point) Find(code int) int {
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

// Config holds the parameters common to the strategies.
type Config struct {
	Name     string
	Seed     int64
	PCTDepth int   // bug depth d for PCT (default 3)
	MaxDepth int   // DFS: choice points explored per iteration (default 10000)
	Replay   []int // choices to replay
}

// New returns the strategy named by c.Name.
func New(c Config) (Strategy, error) {
	switch c.Name {
	case "", "random":
		return NewRandom(c.Seed), nil
	case "pct":
		d := c.PCTDepth
		if d <= 0 {
			d = 3
		}
		return NewPCT(c.Seed, d), nil
	case "dfs":
		return NewDFS(c.MaxDepth), nil
	case "replay":
		return NewReplay(c.Replay), nil
	}
	return nil, fmt.Errorf("unknown strategy %q (want random, pct, dfs or replay)", c.Name)
}

// Observer is implemented by strategies that learn from the executed
// events, not only from the options at choice points (the analyses of
// active testing, rt/internal/active). The scheduler calls Executed once
// for every event it records, in execution order, between Begin and End;
// the event's Obj numbers are those of the iteration. Executed must not
// block and must bound what it keeps.
type Observer interface {
	Executed(ev event.Event)
}
