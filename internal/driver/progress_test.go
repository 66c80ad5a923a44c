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
	// The rate is the recent one: 200 schedules in the last 2 seconds.
	want = TestProgress{Test: "TestA", Schedules: 600, PerSecond: 100, Elapsed: 4 * time.Second, Budget: time.Minute}
	if len(sink.shown) != 2 || !reflect.DeepEqual(sink.shown[1], want) {
		t.Fatalf("shown %+v, want %+v last", sink.shown, want)
	}
	tail.read() // nothing new: nothing shown
	tail.show()
	if len(sink.shown) != 2 {
		t.Errorf("shown again without a new record: %+v", sink.shown)
	}
}

// The rate shown is over the last rateWindow: an exploration that slows
// down shows its new rate, not the average since it began.
func TestProgressRateIsRecent(t *testing.T) {
	tail := newProgressTail("", &recordSink{})
	k := [2]string{"", "TestA"}
	var rate float64
	for sec := 1; sec <= 20; sec++ {
		n := 1000 * min(sec, 10) // 1000/s for 10s, then 0/s
		if sec > 10 {
			n += 10 * (sec - 10) // then 10/s
		}
		tail.tests[k] = map[int]wire.Progress{1: {Test: "TestA", Process: 1, Schedules: n, Elapsed: wire.Duration(time.Duration(sec) * time.Second)}}
		rate = tail.sum(k).PerSecond
		if sec == 10 && rate != 1000 {
			t.Errorf("after 10s at 1000/s: rate %v", rate)
		}
	}
	if rate != 10 {
		t.Errorf("after 10s at 10/s: rate %v, want 10 (the average since the start is %v)", rate, 10100.0/20)
	}
	if z := tail.recent[k]; len(z) > int(rateWindow/time.Second)+1 {
		t.Errorf("%d samples kept for a %v window", len(z), rateWindow)
	}
}
