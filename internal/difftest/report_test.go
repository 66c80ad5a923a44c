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
