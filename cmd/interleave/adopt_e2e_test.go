package main

import (
	"strings"
	"testing"

	"interleave.dev/internal/driver"
)

// httpModule is a module whose tests serve HTTP in process: the handlers
// run in goroutines net/http starts, which the runtime adopts.
func httpModule(t *testing.T) string {
	const test = `
import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestHandler(t *testing.T) {
	c := &Counter{}
	srv := httptest.NewServer(c)
	defer srv.Close()
	for i := 0; i < 3; i++ {
		resp, err := http.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if n := c.Hits(); n != 3 {
		t.Errorf("%d hits, want 3", n)
	}
}
`
	return writeModule(t, map[string]string{
		"go.mod": "module example.com/web\n\ngo 1.22\n",
		// The handler counts in a goroutine of its own, after responding:
		// the test's read after the response races with it.
		"buggy/web.go": `package buggy

import (
	"io"
	"net/http"
	"sync"
)

// Counter counts the requests it serves.
type Counter struct {
	hits int
	wg   sync.WaitGroup
}

func (c *Counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.hits++
	}()
	io.WriteString(w, "ok")
}

// Hits returns the number of requests served.
func (c *Counter) Hits() int {
	n := c.hits
	c.wg.Wait()
	return n
}
`,
		"buggy/web_test.go": "package buggy\n" + test,
		// The handler counts before responding: the response orders it
		// before the test's read.
		"fixed/web.go": `package fixed

import (
	"io"
	"net/http"
)

// Counter counts the requests it serves.
type Counter struct{ hits int }

func (c *Counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.hits++
	io.WriteString(w, "ok")
}

// Hits returns the number of requests served.
func (c *Counter) Hits() int { return c.hits }
`,
		"fixed/web_test.go": "package fixed\n" + test,
	})
}

// TestHTTPHandlerRaceFoundAndFixedTwinSilent runs an in-process HTTP test
// under interleave: the race between a handler's goroutine and the test
// is found and replayed; the fixed twin passes.
func TestHTTPHandlerRaceFoundAndFixedTwinSilent(t *testing.T) {
	if testing.Short() {
		t.Skip("explores a module")
	}
	dir := httpModule(t)
	code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules=100", "./fixed")
	if code != 0 {
		t.Fatalf("fixed: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = cli(t, "test", "-C", dir, "-schedules=100", "./buggy")
	if code != driver.ExitFail || !strings.Contains(stdout, "data race") {
		t.Fatalf("buggy: exit %d, want 1 and a data race\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	m := replayLine.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no replay line in the report:\n%s", stdout)
	}
	for i := 0; i < 3; i++ {
		code, rstdout, rstderr := cli(t, "replay", "-C", dir, m[1])
		if code != driver.ExitFail || !strings.Contains(rstdout, "data race") {
			t.Fatalf("replay %d: exit %d, want 1 and the race\nstdout:\n%s\nstderr:\n%s", i, code, rstdout, rstderr)
		}
	}
}
