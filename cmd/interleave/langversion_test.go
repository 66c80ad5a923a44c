package main

import (
	"strings"
	"testing"
)

// TestLanguageVersionKeptUnderInstrumentation runs a module declaring go
// 1.21 and one declaring go 1.26 through the real instrumenter and runtime:
// both must build, and each must keep its loop-variable semantics (one
// variable per loop before go 1.22, one per iteration since).
func TestLanguageVersionKeptUnderInstrumentation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	for _, tc := range []struct{ goLine, want string }{
		{"1.21", "[3 3 3]"},
		{"1.26", "[0 1 2]"},
	} {
		t.Run("go"+tc.goLine, func(t *testing.T) {
			dir := writeModule(t, map[string]string{
				"go.mod": "module example.com/loop\n\ngo " + tc.goLine + "\n",
				"loop.go": `package loop

import "sync"

// Captured runs one goroutine per closure made in a loop and returns what
// each saw of the loop variable.
func Captured() []int {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	out := make([]int, len(fs))
	var wg sync.WaitGroup
	for k, f := range fs {
		wg.Add(1)
		go func(k int, f func() int) {
			defer wg.Done()
			out[k] = f()
		}(k, f)
	}
	wg.Wait()
	return out
}
`,
				"loop_test.go": `package loop

import (
	"fmt"
	"testing"
)

func TestCaptured(t *testing.T) {
	if got := fmt.Sprint(Captured()); got != "` + tc.want + `" {
		t.Fatalf("Captured() = %s, want ` + tc.want + `", got)
	}
}
`,
			})
			code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules=50", "-v", ".")
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stdout, "--- PASS: TestCaptured") || !strings.Contains(stdout, "50 schedules explored") {
				t.Errorf("test not explored:\n%s", stdout)
			}
		})
	}
}
