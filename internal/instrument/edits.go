package instrument

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
)

// An edit replaces the original bytes [start, end) of a file with parts:
// generated text and spans of original text. A span is rendered with the
// edits nested inside it applied, so rewrites compose: the operand of a
// rewritten receive may itself contain a rewritten receive. An edit with
// start == end is an insertion.
type edit struct {
	start, end int
	parts      []part
	seq        int
	wrap       bool // text around the unchanged span [start, end): it encloses any edit of the same range
	children   []*edit
}

// A part is either generated text or a span [start, end) of original text.
type part struct {
	text       string
	isSpan     bool
	soft       bool // a moved span: copy it as generated text when it has no edits and one line
	start, end int
}

func text(s string) part           { return part{text: s} }
func span(start, end int) part     { return part{isSpan: true, start: start, end: end} }
func softSpan(start, end int) part { return part{isSpan: true, soft: true, start: start, end: end} }
func (p part) String() string      { return fmt.Sprintf("%q/%d-%d", p.text, p.start, p.end) }
func (e *edit) contains(c *edit) bool {
	if e.start == e.end {
		return false
	}
	if c.start == c.end {
		return e.start < c.start && c.start < e.end
	}
	return e.start <= c.start && c.end <= e.end
}

// editSet collects the edits of one file.
type editSet struct {
	edits []*edit
}

func (s *editSet) add(start, end int, parts ...part) *edit {
	e := &edit{start: start, end: end, parts: parts, seq: len(s.edits)}
	s.edits = append(s.edits, e)
	return e
}

func (s *editSet) insert(at int, t string) {
	s.add(at, at, text(t))
}

// wrap surrounds the original bytes [start, end), with the edits inside
// them, by before and after. Unlike other edits of one range, a wrap and
// another edit of the same range compose: the wrap goes outside.
func (s *editSet) wrap(start, end int, before, after string) {
	e := s.add(start, end, text(before), span(start, end), text(after))
	e.wrap = true
}

// tree arranges the edits into a forest by containment and returns the
// roots in order.
func (s *editSet) tree() ([]*edit, error) {
	es := append([]*edit(nil), s.edits...)
	for _, e := range es {
		e.children = nil
	}
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.start != b.start {
			return a.start < b.start
		}
		ae, be := a.start == a.end, b.start == b.end
		if ae != be {
			return ae // insertions before replacements at the same offset
		}
		if a.end != b.end {
			return a.end > b.end // outer first
		}
		if a.wrap != b.wrap {
			return a.wrap // a wrap encloses the other edits of its range
		}
		return a.seq < b.seq
	})
	var roots, stack []*edit
	for _, e := range es {
		for len(stack) > 0 && !stack[len(stack)-1].contains(e) {
			top := stack[len(stack)-1]
			if e.start < top.end && e.start != e.end && top.start != top.end {
				return nil, fmt.Errorf("overlapping rewrites at offsets %d-%d and %d-%d", top.start, top.end, e.start, e.end)
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, e)
		} else {
			p := stack[len(stack)-1]
			if p.start == e.start && p.end == e.end && !p.wrap {
				return nil, fmt.Errorf("two rewrites of the same range %d-%d", e.start, e.end)
			}
			p.children = append(p.children, e)
		}
		stack = append(stack, e)
	}
	return roots, nil
}

// renderer writes the rewritten file, keeping every piece of original
// text mapped to its original line with line directives.
type renderer struct {
	src       []byte
	filename  string
	lineStart []int // offsets of line starts
	out       bytes.Buffer
	curLine   int // the line the compiler attributes to the output position
}

func newRenderer(src []byte, filename string) *renderer {
	r := &renderer{src: src, filename: filename, lineStart: []int{0}}
	for i, c := range src {
		if c == '\n' {
			r.lineStart = append(r.lineStart, i+1)
		}
	}
	return r
}

// lineCol returns the 1-based line and byte column of offset off.
func (r *renderer) lineCol(off int) (int, int) {
	i := sort.Search(len(r.lineStart), func(i int) bool { return r.lineStart[i] > off }) - 1
	return i + 1, off - r.lineStart[i] + 1
}

func (r *renderer) gen(s string) {
	r.out.WriteString(s)
	r.curLine += bytes.Count([]byte(s), []byte{'\n'})
}

func (r *renderer) orig(start, end int) {
	if start >= end {
		return
	}
	line, col := r.lineCol(start)
	// Text without a newline that moved keeps the line of where it went
	// (a select's channel operands belong to the select); the next
	// original text re-synchronizes.
	if line != r.curLine && bytes.IndexByte(r.src[start:end], '\n') >= 0 {
		fmt.Fprintf(&r.out, "/*line %s:%d:%d*/", r.filename, line, col)
		r.curLine = line
	}
	r.out.Write(r.src[start:end])
	r.curLine += bytes.Count(r.src[start:end], []byte{'\n'})
}

func (r *renderer) renderRange(start, end int, kids []*edit) error {
	pos := start
	for _, c := range kids {
		if c.start < pos || c.end > end {
			return fmt.Errorf("rewrite at offsets %d-%d escapes its span %d-%d", c.start, c.end, start, end)
		}
		r.orig(pos, c.start)
		if err := r.renderEdit(c); err != nil {
			return err
		}
		pos = c.end
	}
	r.orig(pos, end)
	return nil
}

func (r *renderer) renderEdit(e *edit) error {
	used := make([]bool, len(e.children))
	for _, p := range e.parts {
		if !p.isSpan {
			r.gen(p.text)
			continue
		}
		var kids []*edit
		for i, c := range e.children {
			if used[i] {
				continue
			}
			in := p.start <= c.start && c.end <= p.end
			if in {
				used[i] = true
				kids = append(kids, c)
			}
		}
		if p.soft && len(kids) == 0 && !bytes.Contains(r.src[p.start:p.end], []byte{'\n'}) {
			r.gen(string(r.src[p.start:p.end]))
			continue
		}
		if err := r.renderRange(p.start, p.end, kids); err != nil {
			return err
		}
	}
	for i, u := range used {
		if !u {
			c := e.children[i]
			return fmt.Errorf("internal: rewrite at offsets %d-%d lost inside rewrite %d-%d", c.start, c.end, e.start, e.end)
		}
	}
	return nil
}

// render applies the edits to src. The result starts with header and a
// line directive naming filename, and every original byte keeps its line.
func render(src []byte, filename string, s *editSet, trailer, header string) ([]byte, error) {
	roots, err := s.tree()
	if err != nil {
		return nil, err
	}
	r := newRenderer(src, filename)
	r.gen(header)
	r.gen("//line " + filename + ":1\n")
	r.curLine = 1
	if err := r.renderRange(0, len(src), roots); err != nil {
		return nil, err
	}
	if trailer != "" {
		if len(src) > 0 && src[len(src)-1] != '\n' {
			r.gen("\n")
		}
		r.gen(trailer)
	}
	return r.out.Bytes(), nil
}

// quote returns s as a Go string literal.
func quote(s string) string { return strconv.Quote(s) }
