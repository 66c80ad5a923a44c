package active

import (
	"testing"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// directed returns a strategy in phase 2, directed at p.
func directed(p *Prediction) *Strategy {
	s := New(Config{Seed: 1, Observe: 1, PerPrediction: 1})
	s.preds.add(p)
	s.Begin()
	s.End(strategy.Outcome{})
	if !s.Begin() || s.phase != 2 {
		panic("not directed")
	}
	return s
}

func point(i int, opts ...strategy.Option) *strategy.Point {
	return &strategy.Point{Kind: strategy.Thread, Index: i, Options: opts}
}

func opt(g int32, op event.Op, obj int32, site uint32) strategy.Option {
	return strategy.Option{G: g, Ev: ev(g, op, obj, site)}
}

// TestPausedTooLong: a goroutine paused at a race site while another
// keeps running elsewhere (a spin loop) is released after maxPause choice
// points, the paper's monitor for threads paused too long.
func TestPausedTooLong(t *testing.T) {
	s := directed(&Prediction{Kind: Race, A: 100, B: 105, WriteA: true})
	at := opt(2, event.OpWrite, x, 100)
	spin := opt(3, event.OpAtomicLoad, 11, 900)
	for i := 0; i <= maxPause; i++ {
		if c := s.Choose(point(i, at, spin)); c != 1 {
			t.Fatalf("point %d: chose the paused goroutine", i)
		}
	}
	if c := s.Choose(point(maxPause+1, at, spin)); c != 0 && s.Choose(point(maxPause+2, at, spin)) != 0 {
		t.Fatalf("the goroutine paused for %d points is still paused", maxPause+2)
	}
}

// TestAllPausedReleasesOne: when every option is paused one is chosen,
// and when the other site arrives on the same word the race is resolved
// both ways over runs (Algorithm 2).
func TestAllPausedReleasesOne(t *testing.T) {
	s := directed(&Prediction{Kind: Race, A: 100, B: 105, WriteA: true})
	// Both at the prediction's sites but on different words: no race,
	// both paused, one released.
	c := s.Choose(point(0, opt(2, event.OpWrite, x, 100), opt(3, event.OpWrite, x+1, 105)))
	if t2 := s.gs[int32(2+c)]; t2 == nil || !t2.released || s.reached {
		t.Fatalf("choice %d: not released as the one of all paused goroutines (reached %v)", c, s.reached)
	}
	first := map[int32]bool{}
	for seed := int64(1); seed <= 20; seed++ {
		s := directed(&Prediction{Kind: Race, A: 100, B: 105, WriteA: true})
		s.rng = strategy.NewRand(seed, 0xa)
		opts := []strategy.Option{opt(2, event.OpWrite, x, 100), opt(3, event.OpRead, x, 105), opt(4, event.OpRead, 12, 7)}
		c := s.Choose(point(0, opts...))
		if c == 2 {
			t.Fatalf("seed %d: ran a bystander while the race was ready", seed)
		}
		if !s.reached {
			t.Fatalf("seed %d: race not caught", seed)
		}
		first[opts[c].G] = true
		// The other racer runs right after.
		if d := s.Choose(point(1, opts[1-c], opts[2])); d != 0 {
			t.Fatalf("seed %d: the second racer did not follow", seed)
		}
	}
	if !first[2] || !first[3] {
		t.Fatalf("the race was resolved one way only: %v", first)
	}
}
