package sched

import (
	"runtime/debug"

	"interleave.dev/rt/internal/event"
)

// Exit ends the iteration with a finding of kind KindExit: the program, in
// goroutine g, called os.Exit (or log.Fatal) at site, which would end the
// test process with go test's bare FAIL. call describes the call (for
// example "os.Exit(3)") and msg is the finding's summary. Exit does not
// return: g is unwound with the other goroutines of the iteration.
func (g *G) Exit(call, msg string, site uint32) {
	it := g.it
	it.step(g, event.OpProcessExit, nil, site)
	gi := it.info(g)
	gi.Status, gi.Site, gi.Stack = "called "+call, site, string(debug.Stack())
	it.fail(g, &Finding{Kind: KindExit, Message: msg, Goroutines: []GoroutineInfo{gi}, Logs: it.logs})
	panic("unreachable: the iteration ended")
}
