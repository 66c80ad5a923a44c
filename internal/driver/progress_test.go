package driver

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"interleave.dev/rt/wire"
)

// recordSink records what it is shown.
type recordSink struct{ shown []TestProgress }

func (r *recordSink) Update(p TestProgress) { r.shown = append(r.shown, p) }
func (r *recordSink) Clear()                {}

// The progress of a test explored by several processes is their sum, and
// a record still being written waits for the next read.
func TestProgressTailSumsProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.jsonl")
	sink := &recordSink{}
	tail := newProgressTail(path, sink)
	tail.read() // no file yet
	tail.show()
	if len(sink.shown) != 0 {
		t.Fatalf("shown before any record: %+v", sink.shown)
	}
	parent := wire.Progress{Test: "TestA", Process: 1, Schedules: 300, Elapsed: wire.Duration(2 * time.Second), Budget: wire.Duration(time.Minute)}
	worker := wire.Progress{Test: "TestA", Process: 2, Schedules: 100, Elapsed: wire.Duration(time.Second), Budget: wire.Duration(59 * time.Second)}
	for _, p := range []wire.Progress{parent, worker} {
		if err := wire.AppendProgress(path, p); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(`{"test":"TestA","process":1,"schedules":`); err != nil {
		t.Fatal(err)
	}
	tail.read()
	tail.show()
	want := TestProgress{Test: "TestA", Schedules: 400, PerSecond: 200, Elapsed: 2 * time.Second, Budget: time.Minute}
	if !reflect.DeepEqual(sink.shown, []TestProgress{want}) {
		t.Fatalf("shown %+v, want %+v", sink.shown, want)
	}
	if _, err := f.WriteString(`500,"elapsed":"4s","budget":"1m0s"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	tail.read()
	tail.show()
	want = TestProgress{Test: "TestA", Schedules: 600, PerSecond: 150, Elapsed: 4 * time.Second, Budget: time.Minute}
	if len(sink.shown) != 2 || !reflect.DeepEqual(sink.shown[1], want) {
		t.Fatalf("shown %+v, want %+v last", sink.shown, want)
	}
	tail.read() // nothing new: nothing shown
	tail.show()
	if len(sink.shown) != 2 {
		t.Errorf("shown again without a new record: %+v", sink.shown)
	}
}
