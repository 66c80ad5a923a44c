package driver

import (
	"bufio"
	"reflect"
	"strings"
	"testing"
)

// goTestTimedOut is the end of the output of go test -timeout 1s on a
// package whose TestSlow sleeps 5s, as text and as -json.
const (
	goTestTimedOut     = "panic: test timed out after 1s\n\trunning tests:\n\t\tTestSlow (1s)\n\ngoroutine 3 [running]:\ntesting.(*M).startAlarm.func1()\n\t/usr/local/go/src/testing/testing.go:2802 +0x354\nFAIL\texample.com/to\t1.011s\nFAIL\n"
	goTestTimedOutJSON = `{"Action":"output","Package":"example.com/to","Test":"TestSlow","Output":"panic: test timed out after 1s\n"}
{"Action":"output","Package":"example.com/to","Test":"TestSlow","Output":"\trunning tests:\n"}
{"Action":"output","Package":"example.com/to","Test":"TestSlow","Output":"\t\tTestSlow (1s)\n"}
{"Action":"output","Package":"example.com/to","Test":"TestSlow","Output":"\n"}
{"Action":"output","Package":"example.com/to","Test":"TestSlow","Output":"goroutine 3 [running]:\n"}
{"Action":"output","Package":"example.com/to","Output":"FAIL\texample.com/to\t1.011s\n"}
`
)

// TestTimeoutWatch: the summary can name the package and the test that go
// test's -timeout ended, from its text and its -json output.
func TestTimeoutWatch(t *testing.T) {
	want := []TimedOut{{Package: "example.com/to", After: "1s", Tests: []string{"TestSlow (1s)"}}}
	for _, out := range []string{goTestTimedOut, goTestTimedOutJSON} {
		var w timeoutWatch
		sc := bufio.NewScanner(strings.NewReader(out))
		for sc.Scan() {
			w.line(sc.Bytes())
		}
		if !reflect.DeepEqual(w.found, want) {
			t.Errorf("found %+v, want %+v in:\n%s", w.found, want, out)
		}
	}
	var b strings.Builder
	(&Outcome{TimedOut: want}).WriteSummary(&b)
	if !strings.Contains(b.String(), "-timeout (1s) ended example.com/to with TestSlow (1s) running") {
		t.Errorf("summary: %s", b.String())
	}
}
