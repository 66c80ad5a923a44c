package strategy

// Replay follows a recorded list of choices. If the program offers a
// choice point the recording does not match (an option that no longer
// exists, or more choice points than were recorded), Choose returns -1 and
// the iteration is stopped as diverged.
type Replay struct {
	choices []int
	i       int
	ran     bool
}

// NewReplay returns a strategy that replays choices once.
func NewReplay(choices []int) *Replay { return &Replay{choices: choices} }

// Name implements Strategy.
func (r *Replay) Name() string { return "replay" }

// Begin implements Strategy: a replay has exactly one iteration.
func (r *Replay) Begin() bool {
	if r.ran {
		return false
	}
	r.ran = true
	r.i = 0
	return true
}

// Choose implements Strategy.
func (r *Replay) Choose(p *Point) int {
	if r.i >= len(r.choices) {
		return -1
	}
	c := r.choices[r.i]
	r.i++
	return p.Find(c)
}

// End implements Strategy.
func (r *Replay) End(Outcome) {}

// Indexed implements Indexed.
func (r *Replay) Indexed() {}

// Consumed reports whether every recorded choice was used.
func (r *Replay) Consumed() bool { return r.i == len(r.choices) }
