package driver

import (
	"path/filepath"
	"testing"

	"interleave.dev/rt/wire"
)

func TestAttributorCompletesSchedules(t *testing.T) {
	dir := t.TempDir()
	paths := map[string]string{}
	for _, name := range []string{"a", "b", "c"} {
		p := filepath.Join(dir, name+".json")
		if err := wire.WriteSchedule(p, &wire.Schedule{Test: "TestX", Iteration: 1, EventHash: "0"}); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	a := newAttributor()
	for _, l := range []string{
		"--- FAIL: TestX (0.01s)",
		"        replay: interleave replay " + paths["a"],
		"FAIL",
		"FAIL\texample.com/m/one\t0.012s",
		"        replay: interleave replay " + paths["b"],
		"--- PASS: TestY (0.00s)",
		"    --- PASS: TestY/sub (0.00s)",
		"ok  \texample.com/m/two\t0.012s",
		`{"Time":"x","Action":"pass","Package":"example.com/m/three","Test":"TestZ","Elapsed":0}`,
		`{"Time":"x","Action":"output","Package":"example.com/m/three","Test":"TestX","Output":"        replay: interleave replay ` + paths["c"] + `\n"}`,
	} {
		a.line([]byte(l))
	}
	results := []wire.Result{{Test: "TestX", Schedule: paths["a"]}, {Test: "TestY"}, {Test: "TestZ"}, {Test: "TestW"}}
	a.complete(results)
	for name, want := range map[string]string{"a": "example.com/m/one", "b": "example.com/m/two", "c": "example.com/m/three"} {
		s, err := wire.ReadSchedule(paths[name])
		if err != nil {
			t.Fatal(err)
		}
		if s.Package != want {
			t.Errorf("schedule %s: package %q, want %q", name, s.Package, want)
		}
	}
	if results[0].Package != "example.com/m/one" || results[1].Package != "example.com/m/two" ||
		results[2].Package != "example.com/m/three" || results[3].Package != "" {
		t.Errorf("results %+v", results)
	}
}
