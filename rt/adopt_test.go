package rt_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// These tests call the runtime by hand the way instrumented code does; the
// handler goroutines are started by net/http, which is not instrumented,
// and are adopted when they reach the runtime.

// get does an HTTP GET natively (net/http is uncontrolled code) and fails
// the iteration on an error.
func get(t *testing.T, url string) string {
	resp, err := http.Get(url)
	if err != nil {
		rt.TError(t, err)
		return ""
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		rt.TError(t, err)
	}
	return string(b)
}

// serve starts an httptest server running h, closed when the iteration's
// body returns.
func serve(h func(w http.ResponseWriter, r *http.Request)) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(h))
}

func TestAdoptedHandlerOrderedByTheResponse(t *testing.T) {
	// The handler writes before responding, the test reads after the
	// response: ordered by the request and the response, no race.
	var counter int
	rep, err := rt.Explore("HandlerFixed", rt.Options{Schedules: 30, StuckAfter: 5 * time.Second, ScheduleDir: "-"}, func() {
		counter = 0
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			rt.Read(&counter, 0)
			rt.Write(&counter, 0)
			counter++
			io.WriteString(w, "ok")
		})
		defer srv.Close()
		rt.Write(&counter, 0) // before the request: ordered before the handler
		counter = 0
		if body := get(t, srv.URL); body != "ok" {
			rt.TErrorf(t, "body %q", body)
		}
		rt.Read(&counter, 0)
		if counter != 1 {
			rt.TErrorf(t, "counter = %d after the response", counter)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || rep.Schedules != 30 {
		t.Fatalf("got %q after %d schedules:\n%s", rep.Kind, rep.Schedules, rep.Text)
	}
}

func TestAdoptedHandlerRaceFound(t *testing.T) {
	// The handler's own goroutine writes after the response: it races
	// with the test's read after the response.
	var counter int
	rep, err := rt.Explore("HandlerBuggy", rt.Options{Schedules: 30, StuckAfter: 5 * time.Second, ScheduleDir: "-"}, func() {
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			rt.Go(func() {
				rt.Write(&counter, 0)
				counter++
			}, 0)
			io.WriteString(w, "ok")
		})
		defer srv.Close()
		get(t, srv.URL)
		rt.Read(&counter, 0)
		_ = counter
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "data race" {
		t.Fatalf("got %q after %d schedules:\n%s", rep.Kind, rep.Schedules, rep.Text)
	}
}

func TestAdoptedHandlerRacesWithATestGoroutine(t *testing.T) {
	// A goroutine of the test writes what the handler writes, with nothing
	// ordering them.
	var shared int
	rep, err := rt.Explore("HandlerVsGoroutine", rt.Options{Schedules: 30, StuckAfter: 5 * time.Second, ScheduleDir: "-"}, func() {
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			rt.Write(&shared, 0)
			shared = 1
		})
		defer srv.Close()
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() {
			rt.Write(&shared, 0)
			shared = 2
		}, 0)
		get(t, srv.URL)
		rt.WGWait(&wg, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "data race" || !strings.Contains(rep.Text, "goroutine") {
		t.Fatalf("got %q after %d schedules:\n%s", rep.Kind, rep.Schedules, rep.Text)
	}
}

func TestInProcessHTTPSeveralRequests(t *testing.T) {
	// Several requests, on kept-alive and new connections, each handler
	// adopted in turn; the test passes.
	var hits int
	var mu sync.Mutex
	rep, err := rt.Explore("SeveralRequests", rt.Options{Schedules: 20, StuckAfter: 5 * time.Second, ScheduleDir: "-"}, func() {
		hits = 0
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			rt.Lock(&mu, 0)
			rt.Write(&hits, 0)
			hits++
			n := hits
			rt.Unlock(&mu, 0)
			io.WriteString(w, strings.Repeat("x", n))
		})
		defer srv.Close()
		for i := 1; i <= 4; i++ {
			if body := get(t, srv.URL); len(body) != i {
				rt.TErrorf(t, "request %d: body %q", i, body)
			}
		}
		srv.CloseClientConnections()
		if body := get(t, srv.URL); len(body) != 5 {
			rt.TErrorf(t, "after closing connections: body %q", body)
		}
		rt.Lock(&mu, 0)
		rt.Read(&hits, 0)
		if hits != 5 {
			rt.TErrorf(t, "%d hits", hits)
		}
		rt.Unlock(&mu, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || rep.Schedules != 20 {
		t.Fatalf("got %q after %d schedules:\n%s", rep.Kind, rep.Schedules, rep.Text)
	}
}

func TestAdoptedHandlerFindingReplays(t *testing.T) {
	// Adoption happens where the controlled goroutines wait for the
	// handler, so the finding's schedule replays with the same events.
	var counter int
	body := func() {
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			rt.Go(func() {
				rt.Write(&counter, 0)
				counter++
			}, 0)
			rt.Gosched(0)
			io.WriteString(w, "ok")
		})
		defer srv.Close()
		get(t, srv.URL)
		rt.Gosched(0)
		rt.Read(&counter, 0)
		_ = counter
	}
	rep, err := rt.Explore("HandlerReplay", rt.Options{Seed: 3, Schedules: 30, StuckAfter: 5 * time.Second, ScheduleDir: t.TempDir()}, body)
	if err != nil || rep.Kind != "data race" {
		t.Fatalf("got %q, %v:\n%s", rep.Kind, err, rep.Text)
	}
	for i := 0; i < 10; i++ {
		again, err := rt.Explore("HandlerReplay", rt.Options{Strategy: "replay", Replay: rep.Schedule, StuckAfter: 5 * time.Second, ScheduleDir: "-"}, body)
		if err != nil || again.Kind != "data race" || again.Diverged != "" {
			t.Fatalf("replay %d: got %q %q, %v", i, again.Kind, again.Diverged, err)
		}
	}
}

func TestAdoptedHandlerAwayIsStuckNotDeadlock(t *testing.T) {
	// The handler waits (in the model) for something only the request's
	// client could give, and the client is blocked in http.Get, in code the
	// tool does not control: nothing can run, but it is not a deadlock of
	// the controlled goroutines. The watchdog reports it.
	rep, err := rt.Explore("HandlerAway", rt.Options{Schedules: 1, StuckAfter: 300 * time.Millisecond, ScheduleDir: "-"}, func() {
		c := rt.MakeChan[int](0, 0)
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			rt.Recv(c, 0)
		})
		defer srv.Close()
		get(t, srv.URL)
		rt.Send(c, 1, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "stuck" || !strings.Contains(rep.Text, "inside code the tool does not control") {
		t.Fatalf("got %q:\n%s", rep.Kind, rep.Text)
	}
}

func TestAdoptionWhileControlledGoroutinesKeepRunning(t *testing.T) {
	// The test polls, in virtual time, for what a goroutine started
	// natively does: the test never blocks natively, so the newcomer is
	// let in at the test's next operation once it has waited a while,
	// rather than starving into a livelock.
	var mu sync.Mutex
	var ready bool
	rep, err := rt.Explore("Poll", rt.Options{Schedules: 5, MaxSteps: 200000, StuckAfter: 5 * time.Second, ScheduleDir: "-"}, func() {
		rt.Lock(&mu, 0)
		ready = false
		rt.Unlock(&mu, 0)
		done := make(chan struct{})
		go func() { // uncontrolled: a library's worker
			defer close(done)
			rt.Lock(&mu, 0)
			ready = true
			rt.Unlock(&mu, 0)
		}()
		for {
			rt.Lock(&mu, 0)
			r := ready
			rt.Unlock(&mu, 0)
			if r {
				break
			}
			rt.Sleep(time.Millisecond, 0)
		}
		<-done
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || rep.Schedules != 5 {
		t.Fatalf("got %q after %d schedules:\n%s", rep.Kind, rep.Schedules, rep.Text)
	}
}

func TestAdoptedGoroutineThatExitedIsNotWaitedFor(t *testing.T) {
	// An adopted goroutine returns to the code that started it, which
	// ends it; the test then waits for a value nobody sends. That is a
	// deadlock, not a goroutine that may still come back.
	var x int
	rep, err := rt.Explore("AdoptedExited", rt.Options{Schedules: 3, StuckAfter: 3 * time.Second, ScheduleDir: "-"}, func() {
		c := rt.MakeChan[int](0, 0)
		started := make(chan struct{})
		go func() {
			close(started)
			rt.Write(&x, 0)
		}()
		<-started
		rt.Recv(c, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "deadlock" {
		t.Fatalf("got %q:\n%s", rep.Kind, rep.Text)
	}
}
