package rt_test

import (
	"strings"
	"sync"
	"testing"

	"interleave.dev/rt"
)

// Programs whose sites name their operands as an instrumented file would
// (the table of rt.RegisterFile): a report names each object as the
// source does, its kind and number kept.
var namedSites = rt.RegisterFile("names.go", strings.Join([]string{
	0: "l*from.mu", 1: "l*to.mu", // Transfer's locks
	2: "v*c.n", 3: "v*c.n", // a counter's field, hit by two goroutines
	4: "v*st.m", 5: "v*st.m[k]", // an element of a map: the map's field, then its contents
	6: "c*s.ch",                      // a send or a receive
	7: "",                            // a go statement
	8: "w*wg", 9: "w*wg", 10: "w*wg", // Add, Done, Wait
}, "\n"), 10, 2, 12, 2, 20, 2, 20, 2, 30, 9, 30, 9, 40, 2, 50, 2, 60, 2, 61, 9, 62, 2)

func ns(k int) rt.Site { return namedSites + rt.Site(k) }

// exploreNamed runs body under dfs until a finding, and returns its report.
func exploreNamed(t *testing.T, body func()) *rt.Report {
	t.Helper()
	rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", Schedules: 2000, ScheduleDir: "-"}, body)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind == "" {
		t.Fatal("no finding")
	}
	return rep
}

func wantText(t *testing.T, rep *rt.Report, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(rep.Text, w) {
			t.Errorf("the report has no %q:\n%s", w, rep.Text)
		}
	}
}

// TestReportNamesLocks: the goroutines of a lock-order deadlock wait for
// from.mu and to.mu, named by the site each blocks at, in the report's
// statuses and in its interleaving.
func TestReportNamesLocks(t *testing.T) {
	rep := exploreNamed(t, func() {
		var a, b sync.Mutex
		var wg sync.WaitGroup
		transfer := func(from, to *sync.Mutex) {
			rt.Lock(from, ns(0))
			rt.Lock(to, ns(1))
			rt.Unlock(to, ns(1))
			rt.Unlock(from, ns(0))
			rt.WGDone(&wg, ns(9))
		}
		rt.WGAdd(&wg, 2, ns(8))
		rt.Go(func() { transfer(&a, &b) }, ns(7))
		rt.Go(func() { transfer(&b, &a) }, ns(7))
		rt.WGWait(&wg, ns(10))
	})
	if rep.Kind != "deadlock" {
		t.Fatalf("%s: %s, want a deadlock", rep.Kind, rep.Message)
	}
	wantText(t, rep,
		"blocked in Lock on to.mu (Mutex#", ") held by goroutine ",
		"blocked in WaitGroup.Wait on wg (WaitGroup#",
		"Lock from.mu#", "WaitGroup.Add wg#")
}

// TestReportNamesRacingField: a race on a field is a read or write of
// c.n, by both accesses.
func TestReportNamesRacingField(t *testing.T) {
	rep := exploreNamed(t, func() {
		var n int
		done := make(chan bool)
		rt.Go(func() { rt.Update(&n, ns(2)); done <- true }, ns(7))
		rt.Update(&n, ns(3))
		<-done
	})
	if rep.Kind != "data race" {
		t.Fatalf("%s: %s, want a data race", rep.Kind, rep.Message)
	}
	if !strings.HasPrefix(rep.Message, "write of c.n (variable#") || !strings.Contains(rep.Message, "races with earlier write of c.n by goroutine") {
		t.Errorf("message %q does not name c.n", rep.Message)
	}
	wantText(t, rep, "location: c.n (variable#", ": write of c.n at ", "earlier write of c.n at ", "write c.n#")
}

// TestReportNamesMapElement: the contents of a map are named by the
// element the access reads or writes, st.m[k].
func TestReportNamesMapElement(t *testing.T) {
	rep := exploreNamed(t, func() {
		m := map[string]int{}
		done := make(chan bool)
		rt.Go(func() { rt.Write(m, ns(5)); done <- true }, ns(7))
		rt.Read(m, ns(5))
		<-done
	})
	if rep.Kind != "data race" || !strings.Contains(rep.Message, "of st.m[k] (variable#") {
		t.Fatalf("%s: %s, want a data race on st.m[k]", rep.Kind, rep.Message)
	}
}

// TestReportNamesChannel: the test goroutine receives twice from s.ch,
// which one goroutine sends to once: it is left blocked on s.ch.
func TestReportNamesChannel(t *testing.T) {
	rep := exploreNamed(t, func() {
		ch := rt.MakeChan[int](0, 0)
		rt.Go(func() { rt.Send(ch, 1, ns(6)) }, ns(7))
		rt.Recv(ch, ns(6))
		rt.Recv(ch, ns(6))
	})
	if rep.Kind != "deadlock" {
		t.Fatalf("%s: %s, want a deadlock", rep.Kind, rep.Message)
	}
	wantText(t, rep, "blocked in receive on s.ch (channel#", "receive s.ch#", "send s.ch#")
}
