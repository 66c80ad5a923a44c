package explore

import (
	"flag"
	"reflect"
	"testing"
)

// The process that confirms a finding runs only that test, once, with the
// package's own flags and the testing flags that change how it runs, not
// those that select, repeat, profile or format tests.
func TestChildArgs(t *testing.T) {
	fs := flag.NewFlagSet("x.test", flag.ContinueOnError)
	for _, name := range []string{"test.run", "test.count", "test.v", "test.timeout", "test.cpuprofile", "update"} {
		fs.String(name, "", "")
	}
	fs.Bool("test.short", false, "")
	fs.String("unset", "", "")
	err := fs.Parse([]string{"-test.run=TestA|TestB", "-test.count=3", "-test.v=test2json", "-test.timeout=10m0s",
		"-test.cpuprofile", "cpu.out", "-test.short", "-update=yes", "rest"})
	if err != nil {
		t.Fatal(err)
	}
	got := childArgs(fs, "TestA/sub.1")
	want := []string{"-test.short=true", "-test.timeout=10m0s", "-update=yes", "-test.run=^TestA$/^sub\\.1$", "-test.count=1", "--", "rest"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("childArgs:\n got %q\nwant %q", got, want)
	}
}
