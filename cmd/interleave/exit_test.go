package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const exitingCode = `package m

import (
	"log"
	"os"
	"sync"
)

// Shutdown exits the process when it is the second to arrive.
func Shutdown(mu *sync.Mutex, n *int) {
	mu.Lock()
	*n++
	last := *n == 2
	mu.Unlock()
	if last {
		os.Exit(3)
	}
}

// Check is fatal when it sees a half-done update.
func Check(l *log.Logger, v int) {
	if v == 1 {
		l.Fatalf("saw %d", v)
	}
}
`

const exitingTests = `package m

import (
	"log"
	"os"
	"sync"
	"testing"
)

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}

func TestExitInGoroutine(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() { defer wg.Done(); Shutdown(&mu, &n) }()
	}
	wg.Wait()
}

func TestLoggerFatal(t *testing.T) {
	var mu sync.Mutex
	v := 0
	done := make(chan bool)
	go func() {
		mu.Lock()
		v = 1
		mu.Unlock()
		mu.Lock()
		v = 2
		mu.Unlock()
		done <- true
	}()
	mu.Lock()
	w := v
	mu.Unlock()
	Check(log.New(os.Stderr, "check: ", 0), w)
	<-done
}

func TestLogFatal(t *testing.T) {
	log.Fatal("never fine")
}

func TestFine(t *testing.T) {
	done := make(chan bool)
	go func() { done <- true }()
	<-done
}
`

// TestExitIsAFinding: os.Exit and log.Fatal during an exploration are
// findings with the call, its status, the goroutine and the site, and a
// schedule file, not a bare FAIL of the whole package; TestMain's
// os.Exit(m.Run()) still ends the process.
func TestExitIsAFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": passingModule, "m.go": exitingCode, "m_test.go": exitingTests})
	code, stdout, stderr := cli(t, "test", "-C", dir, "-json", ".")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	var out strings.Builder
	pass := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var e struct{ Action, Test, Output string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not a test2json event: %q", line)
		}
		out.WriteString(e.Output)
		if e.Test != "" && (e.Action == "pass" || e.Action == "fail") {
			pass[e.Test] = e.Action
		}
	}
	want := map[string]string{"TestExitInGoroutine": "fail", "TestLoggerFatal": "fail", "TestLogFatal": "fail", "TestFine": "pass"}
	for test, action := range want {
		if pass[test] != action {
			t.Errorf("%s: %q, want %q\n%s", test, pass[test], action, out.String())
		}
	}
	for _, s := range []string{
		"interleave: exit after",
		"os.Exit(3) called while the test ran: the test process would end here with exit status 3",
		"called os.Exit(3) at m.go:16",
		"log.Logger.Fatalf called while the test ran: check: saw 1",
		"called log.Logger.Fatalf at m.go:23",
		"log.Fatal called while the test ran: never fine",
		"called log.Fatal at m_test.go:46",
		"replay: interleave replay ",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, out.String())
		}
	}
	if !strings.Contains(stderr, "3 with findings") {
		t.Errorf("summary:\n%s", stderr)
	}
}
