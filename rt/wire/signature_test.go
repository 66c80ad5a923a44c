package wire

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A version 1 file, as written before bug signatures, still loads.
func TestScheduleVersion1Loads(t *testing.T) {
	v1 := `{"format":"interleave-schedule","version":1,"package":"example.com/x","test":"TestX",
"strategy":"random","seed":1,"iteration":3,"finding":"deadlock","message":"m","race":true,"leaks":true,
"max_steps":1000000,"steps":9,"event_hash":"53facdd876023aac","choices":[1,2,3,1]}`
	s, err := ParseSchedule("old.json", []byte(v1))
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 1 || s.Signature != nil || len(s.Choices) != 4 {
		t.Fatalf("got %+v", s)
	}
}

func TestSignatureRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.json")
	s := &Schedule{Test: "TestX", Strategy: "random", Seed: 2, Iteration: 5, Finding: "data race", MaxSteps: 100, Steps: 7, EventHash: "abc", Choices: []int{2, 3},
		Signature: &Signature{Events: []SigEvent{
			{Op: "read", File: "/a/c.go", Line: 11, Column: 2, Function: "(*Counter).Inc", FuncLine: 10, Stack: []string{"(*Counter).Inc", "TestCounter.func1"}, Object: 1, Goroutine: 1},
			{Op: "write", File: "/a/c.go", Line: 13, Column: 2, Function: "(*Counter).Inc", FuncLine: 10, Stack: []string{"(*Counter).Inc", "TestCounter.func1"}, Object: 1, Goroutine: 2},
		}}}
	if err := WriteSchedule(p, s); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSchedule(p)
	if err != nil || !reflect.DeepEqual(got, s) || got.Version != ScheduleVersion {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestScheduleRejects(t *testing.T) {
	base := `{"format":"interleave-schedule","version":%V,"test":"TestX","strategy":"random","seed":1,"iteration":1,"race":true,"leaks":true,"max_steps":1,"steps":1,"event_hash":"1","choices":[]%S}`
	for _, c := range []struct{ v, sig, want string }{
		{"6", "", "version 6 is not supported"},
		{"1", `,"signature":{"events":[{"op":"read","goroutine":1},{"op":"write","goroutine":2}]}`, "signature in a version 1 file"},
		{"2", `,"signature":{"events":[]}`, "signature has 0 events"},
		{"2", `,"signature":{"events":[{"op":"","goroutine":1}]}`, "no operation"},
		{"2", `,"signature":{"events":[{"op":"read","goroutine":0}]}`, "bad goroutine"},
		{"2", `,"signature":{"events":[{"op":"read","goroutine":1,"line":-2}]}`, "bad position"},
		{"2", `,"signature":{"events":[{"op":"read","goroutine":1},{"op":"write","goroutine":3}]}`, "bad goroutine"},
		{"2", `,"signature":{"events":[{"op":"read","goroutine":1,"object":3},{"op":"write","goroutine":2}]}`, "bad goroutine or object"},
		{"2", `,"signature":{"events":"x"}`, "not an interleave schedule file"},
	} {
		b := strings.Replace(strings.Replace(base, "%V", c.v, 1), "%S", c.sig, 1)
		_, err := ParseSchedule("f.json", []byte(b))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("version %s %s: got %v, want %q", c.v, c.sig, err, c.want)
		}
	}
}

// TestScheduleViewRoundTrip: the finding's page data goes last, on one
// line, below the indented fields, and reads back as it was.
func TestScheduleViewRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.json")
	s := &Schedule{Test: "TestX", Strategy: "random", Seed: 2, Iteration: 5, Finding: "deadlock", MaxSteps: 100, Steps: 7, EventHash: "abc", Choices: []int{2, 3},
		View: []byte(`{"test": "TestX",
  "events": [{"g": 1, "op": "Lock", "obj": "from.mu#3"}]}`)}
	if err := WriteSchedule(p, s); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	want := `  "view": {"test":"TestX","events":[{"g":1,"op":"Lock","obj":"from.mu#3"}]}`
	if len(lines) < 3 || lines[len(lines)-2] != want || lines[len(lines)-1] != "}" {
		t.Errorf("the page data is not the last field, on one line:\n%s", b)
	}
	got, err := ReadSchedule(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.View) != want[len(`  "view": `):] {
		t.Errorf("view read back as %s", got.View)
	}
	got.View, s.View = nil, nil
	if !reflect.DeepEqual(got, s) {
		t.Errorf("read back %+v, want %+v", got, s)
	}
}
