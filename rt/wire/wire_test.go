package wire

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestConfigRoundTrip(t *testing.T) {
	c := Config{Strategy: "pct", Schedules: 10, Seed: 4, Budget: Duration(90 * time.Second), NoRace: true, Replay: "/x.json"}
	t.Setenv(ConfigEnv, c.Encode())
	got, err := LoadConfig()
	if err != nil || !reflect.DeepEqual(got, c) {
		t.Fatalf("got %+v, %v", got, err)
	}
	t.Setenv(ConfigEnv, `{"strategy":"dfs","bogus":1}`)
	if _, err := LoadConfig(); err == nil {
		t.Error("unknown field accepted")
	}
}

func TestScheduleRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.json")
	s := &Schedule{Test: "TestX", Strategy: "random", Seed: 2, Iteration: 5, Finding: "deadlock", MaxSteps: 100, Steps: 7, EventHash: "abc", Choices: []int{2, 0, -1, 3}}
	if err := WriteSchedule(p, s); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSchedule(p)
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("got %+v, %v", got, err)
	}
	if _, err := ReadSchedule(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}

func TestResults(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.jsonl")
	for _, r := range []Result{{Test: "A", Outcome: OutcomePass}, {Test: "B", Outcome: OutcomeFinding, Kind: "deadlock"}} {
		if err := AppendResult(p, r); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := ReadResults(p)
	if err != nil || len(rs) != 2 || rs[1].Kind != "deadlock" {
		t.Fatalf("got %+v, %v", rs, err)
	}
	os.WriteFile(p, []byte("{broken"), 0o644)
	if _, err := ReadResults(p); err == nil {
		t.Error("corrupt results accepted")
	}
}

func TestProgressLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.jsonl")
	a := Progress{Test: "TestA", Process: 7, Schedules: 40, Elapsed: Duration(time.Second), Budget: Duration(time.Minute)}
	b := Progress{Package: "p", Test: "TestB", Process: 8, Schedules: 3, MaxSchedules: 100}
	for _, p := range []Progress{a, b} {
		if err := AppendProgress(path, p); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	partial := append(data, `{"test":"TestC","sched`...) // a line still being written
	got, n, err := ReadProgress(partial)
	if err != nil || n != len(data) || !reflect.DeepEqual(got, []Progress{a, b}) {
		t.Fatalf("got %+v, %d, %v; want both records and %d bytes", got, n, err, len(data))
	}
	if got, n, err := ReadProgress(partial[n:]); err != nil || n != 0 || len(got) != 0 {
		t.Errorf("the partial line alone gave %+v, %d, %v; want nothing", got, n, err)
	}
}
