package view

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRenderEmbedsDataSafely checks that text from the program (a test
// name, a panic message, a source line) cannot end the page's data
// script, and that the data reads back as it was.
func TestRenderEmbedsDataSafely(t *testing.T) {
	p := &Page{
		Test: "TestX", Kind: "panic", Message: `boom </script><script>alert(1)</script>`,
		Events:  []Event{{G: 1, Op: "go", File: "/a/x.go", Line: 3, Preempt: true}},
		Sources: map[string]map[string]string{"/a/x.go": {"3": `s := "</script>"`}},
	}
	page, err := Render(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	start := strings.Index(s, `<script id="data" type="application/json">`)
	if start < 0 {
		t.Fatal("no data script")
	}
	rest := s[start+len(`<script id="data" type="application/json">`):]
	end := strings.Index(rest, "</script>")
	var back Page
	if err := json.Unmarshal([]byte(rest[:end]), &back); err != nil {
		t.Fatalf("the data script ends early or is not JSON: %v", err)
	}
	if back.Message != p.Message || back.Sources["/a/x.go"]["3"] != p.Sources["/a/x.go"]["3"] || !back.Events[0].Preempt {
		t.Errorf("data read back as %+v", back)
	}
	if strings.Contains(s, "<title>interleave: panic in TestX</title>") == false {
		t.Error("no title")
	}
}
