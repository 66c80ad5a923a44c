package bench

import (
	"strings"
	"testing"
)

func TestNativeKind(t *testing.T) {
	for _, c := range []struct{ out, kind string }{
		{"=== RUN   TestX\npanic: test timed out after 10s\n" + strings.Repeat("goroutine dump line\n", 10000), KindHang},
		{"==================\nWARNING: DATA RACE\nRead at ...\n--- FAIL: TestX\n", "data race"},
		{"=== RUN   TestX\npanic: runtime error: index out of range [-1]\n", "panic"},
		{"fatal error: all goroutines are asleep - deadlock!\n", "deadlock"},
		{"=== RUN   TestX\n    x_test.go:9: bad\n--- FAIL: TestX (0.00s)\n", "test failure"},
	} {
		o := &outputScanner{}
		o.Write([]byte(c.out))
		o.flush()
		if kind, _ := nativeKind(o); kind != c.kind {
			t.Errorf("nativeKind(%q) = %s, want %s", c.out, kind, c.kind)
		}
	}
	for _, c := range []struct {
		kind, detect string
		want         bool
	}{
		{KindHang, "deadlock", true},
		{KindHang, "livelock", true},
		{KindHang, "panic", false},
		{"test failure", "livelock", true},
		{"test failure", "deadlock", false},
		{"data race", "data race", true},
	} {
		if got := nativeDetects(c.kind, c.detect); got != c.want {
			t.Errorf("nativeDetects(%s, %s) = %v", c.kind, c.detect, got)
		}
	}
}

func TestRunCounter(t *testing.T) {
	c := &outputScanner{}
	for _, chunk := range []string{"=== RUN   TestA\n--- PASS: TestA\n=== RU", "N   TestA\n=== RUN   TestA/sub\n", "=== RUN   TestA\n"} {
		c.Write([]byte(chunk))
	}
	if c.runs != 3 {
		t.Errorf("counted %d runs, want 3 (subtests and split lines handled)", c.runs)
	}
}
