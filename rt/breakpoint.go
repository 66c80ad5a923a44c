package rt

// BreakpointTurns bounds how long a goroutine stands at a breakpoint
// without a partner: that many yields, after which it goes on.
const BreakpointTurns = 1000

// standing is a goroutine standing at a breakpoint.
type standing struct {
	name, wait string
	met        bool
}

// Breakpoint is a concurrency breakpoint, CalFuzzer's check() (section 3
// of papers/calfuzzer-active-testing.txt): the instrumenter turns the
// comment directive
//
//	//interleave:breakpoint NAME WAIT
//
// on a line of its own between two statements into a call to it. Inside an
// exploration the goroutine stands at breakpoint NAME until another
// goroutine arrives at breakpoint WAIT (or finds it standing there, if it
// arrived first), yielding to the others meanwhile; both then go on, in an
// order the strategy chooses. A goroutine that arrives at WAIT while one
// stands at NAME does not stand itself. Standing is bounded: after
// BreakpointTurns yields without a partner the goroutine goes on, so a
// breakpoint never makes a schedule hang (Algorithm 1's release of paused
// threads). Every yield is a scheduling point, so schedules with
// breakpoints replay like any other. Outside an exploration it does
// nothing; an empty WAIT waits for another goroutine at NAME.
func Breakpoint(name, wait string, s Site) {
	g := cur()
	if g == nil {
		return
	}
	if wait == "" {
		wait = name
	}
	st := iterationRand(g)
	for _, w := range st.bp {
		if !w.met && w.name == wait && (w.wait == name) {
			w.met = true
			Gosched(s) // the partner may go first
			return
		}
	}
	me := &standing{name: name, wait: wait}
	st.bp = append(st.bp, me)
	defer func() {
		for i, w := range st.bp {
			if w == me {
				st.bp = append(st.bp[:i], st.bp[i+1:]...)
				break
			}
		}
	}()
	for i := 0; i < BreakpointTurns && !me.met; i++ {
		Gosched(s)
	}
}
