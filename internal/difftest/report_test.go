package difftest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReport(t *testing.T) {
	d := Discrepancy{Oracle: OracleRaces, Class: "missed race", Form: Racy, Strategy: "random", Kinds: []string{"map.range"}, Detail: "go test -race: 20/30"}
	results := []*Result{
		{Seed: 1, Verdicts: &Verdicts{Discrepancies: []Discrepancy{d}, Checks: []Check{{OracleRaces, "random"}, {OracleRaces, "dfs"}},
			Detections: []Detection{{Strategy: "random", Found: true, Schedules: 4}, {Strategy: "random", Found: true, Schedules: 10}}},
			Shrunk: map[string]string{d.Key(): "testdata/regress/x-1"}, ShrunkSize: map[string]int{d.Key(): 3}},
		{Seed: 2, Verdicts: &Verdicts{Discrepancies: []Discrepancy{d, d}, Checks: []Check{{OracleRaces, "random"}}}},
	}
	sum := Summarize(Config{}.withDefaults(), results, []*Program{Generate(1), Generate(2)}, 10*time.Second, 2)
	if len(sum.Classes) != 1 || len(sum.Classes[0].Programs) != 2 || sum.Classes[0].Shrunk == "" {
		t.Fatalf("classes %+v", sum.Classes)
	}
	if sum.Checks[OracleRaces]["random"] != 2 || sum.Found[OracleRaces]["random"] != 3 || sum.ProgramsWith[OracleRaces] != 2 {
		t.Errorf("counts %v %v %v", sum.Checks, sum.Found, sum.ProgramsWith)
	}
	path := filepath.Join(t.TempDir(), "difftest.md")
	os.WriteFile(path, []byte("# Title\n\nTriage by hand.\n\n"+BeginMarker+"\nold\n"+EndMarker+"\n\nMore by hand.\n"), 0o644)
	if err := writeReport(path, sum); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	text := string(b)
	for _, want := range []string{"Triage by hand.", "More by hand.", "**races: missed race** (form Racy, random): 2 programs (seeds 1, 2)", "Shrunk to 3 statements: `testdata/regress/x-1`", "| random | 2 of 2 | 10 | 10 |"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\nold\n") {
		t.Errorf("the generated part was not replaced:\n%s", text)
	}
}

func TestSaveRegression(t *testing.T) {
	p := Generate(3)
	d := Discrepancy{Oracle: OracleRaces, Class: "false race", Form: Safe, Strategy: "pct"}
	dir := t.TempDir()
	path, err := SaveRegression(dir, Slug(d, 3), p, d)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "false-race-safe-pct-3" {
		t.Errorf("saved as %s", path)
	}
	q, err := ReadProgram(filepath.Join(path, "program.json"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := MarshalProgram(p)
	b, _ := MarshalProgram(q)
	if string(a) != string(b) {
		t.Errorf("read back another program:\n%s\nwant:\n%s", b, a)
	}
	src, _ := os.ReadFile(filepath.Join(path, "p_test.go.txt"))
	text, _ := os.ReadFile(filepath.Join(path, "discrepancy.txt"))
	if string(src) != p.Render(false).Source || !strings.Contains(string(text), "key: "+d.Key()+"\nexpect: open\n") {
		t.Errorf("source or discrepancy.txt differ:\n%s", text)
	}
}
