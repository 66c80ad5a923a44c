package instrument

import (
	"strings"
	"testing"
)

func TestRenderNested(t *testing.T) {
	src := []byte("a(b(c))\nx\n")
	var s editSet
	// Replace b(c) by B[c], and c by C, nested.
	s.add(2, 6, text("B["), span(4, 5), text("]"))
	s.add(4, 5, text("C"))
	s.insert(8, "ins; ")
	out, err := render(src, "f.go", &s, "", "")
	if err != nil {
		t.Fatal(err)
	}
	want := "//line f.go:1\na(B[C])\nins; x\n"
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestRenderMovedTextKeepsLines(t *testing.T) {
	src := []byte("f(\n\tx)\ng()\n")
	var s editSet
	// Replace the call by one on a single line: a newline disappears.
	s.add(0, 6, text("pre("), span(4, 5), text(")"))
	out, err := render(src, "f.go", &s, "", "")
	if err != nil {
		t.Fatal(err)
	}
	// The rest of line 2 gets a directive, so g() is still on line 3.
	want := "//line f.go:1\npre(x)/*line f.go:2:4*/\ng()\n"
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestRenderErrors(t *testing.T) {
	src := []byte("abcdef")
	var s editSet
	s.add(0, 4, text("x"))
	s.add(2, 6, text("y"))
	if _, err := render(src, "f.go", &s, "", ""); err == nil {
		t.Error("overlapping edits: no error")
	}
	var lost editSet
	lost.add(0, 4, text("x")) // drops [0,4) without a span
	lost.add(1, 2, text("y"))
	if _, err := render(src, "f.go", &lost, "", ""); err == nil || !strings.Contains(err.Error(), "lost") {
		t.Errorf("dropped nested edit: err = %v", err)
	}
}

func TestRenderWrapEnclosesEditOfSameRange(t *testing.T) {
	src := []byte("x = <-c\n")
	var s editSet
	// The receive is rewritten, and wrapped twice (the inner wrap is
	// recorded first, as the collector records the inner access first).
	s.add(4, 7, text("recv("), span(6, 7), text(")"))
	s.wrap(4, 7, "in(", ")")
	s.wrap(0, 7, "out(", ")")
	s.insert(4, "ins ")
	out, err := render(src, "f.go", &s, "", "")
	if err != nil {
		t.Fatal(err)
	}
	want := "//line f.go:1\nout(x = ins in(recv(c)))\n"
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
