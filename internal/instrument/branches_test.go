package instrument

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestBranchTerms rewrites a fuzz body with one if statement per case and
// checks the term and the leaves each condition's rt.Branch gets, or that
// the condition is left as it is.
func TestBranchTerms(t *testing.T) {
	cases := []struct {
		cond, sym, leaves string // sym "": not rewritten
	}{
		// Inputs: i j s ok _ w are inputs 0 to 5, bs and wb 7 and 8.
		{"i == 1", "(== i0 1)", "nil"},
		{"i < j", "(< i0 i1)", "nil"},
		{"ok", "i3", "nil"},
		{"!ok", "(! i3)", "nil"},
		{"w > 3", "(> i5 3)", "nil"},
		{"(i == 1)", "(== i0 1)", "nil"},
		{"-i == 3", "(== (neg i0) 3)", "nil"},
		{"+i == 3", "(== i0 3)", "nil"},
		{"i*2-j < 4", "(< (- (* i0 2) i1) 4)", "nil"},
		{"i > 0 && j > 0", "(&& (> i0 0) (> i1 0))", "nil"},
		{"true == ok", "(== 1 i3)", "nil"},
		{"i == 'a'", "(== i0 97)", "nil"},
		{"i == 1<<40", "(== i0 1099511627776)", "nil"},
		{"i == 2.0", "(== i0 2)", "nil"},
		{"i == -c", "(== i0 -5)", "nil"},
		{"i < 3 == ok", "(== (< i0 3) i3)", "nil"},
		// Shared memory.
		{"g == i", "(== m0:i64 i0)", "nil, &g"},
		{"flag", "m0:b", "nil, &flag"},
		{"g8 < -1", "(< m0:i8 -1)", "nil, &g8"},
		{"u > 7", "(> m0:u64 7)", "nil, &u"},
		{"st.n != 0", "(!= m0:i32 0)", "nil, &st.n"},
		{"p.n == int32(i)", "(== m0:i32 i0)", "nil, &p.n"},
		{"arr[2] >= 1", "(>= m0:u16 1)", "nil, &arr[2]"},
		{"sl[1] == j", "(== m0:i64 i1)", "nil, &sl[1]"},
		{"*gp == 2", "(== m0:i64 2)", "nil, gp"},
		{"x == j", "(== m0:i64 i1)", "nil, &x"},
		{"g + g == i", "(== (+ m0:i64 m0:i64) i0)", "nil, &g"},
		{"g > 0 && flag", "(&& (> m0:i64 0) m1:b)", "nil, &g, &flag"},
		{"i > 0 || flag", "(|| (> i0 0) m0:b)", "nil, &flag"},
		{"i > 0 && *gp == 1", "(&& (> i0 0) (== m0:i64 1))", "nil, gp"},
		{"i > 0 && arr[1] == 1", "(&& (> i0 0) (== m0:u16 1))", "nil, &arr[1]"},
		{"int64(i) == int64(g8)", "(== i0 m0:i8)", "nil, &g8"},
		{"d == N(i)", "(== m0:i64 i0)", "nil, &d"},
		// Local values.
		{"loc+i > 0", "(> (+ v0 i0) 0)", "[]int64{int64(loc)}"},
		{"loc > g", "(> v0 m0:i64)", "[]int64{int64(loc)}, &g"},
		{"a > i", "(> v0 i0)", "[]int64{int64(a)}"},
		{"lb == ok", "(== v0 i3)", "[]int64{__rt.B(lb)}"},
		{"loc+i > loc", "(> (+ v0 i0) v0)", "[]int64{int64(loc)}"},
		// Strings: a string stands for its length; a byte read is a term
		// over its concrete value, rt.At, evaluated even where the
		// condition did not read it.
		{"len(s) > i", "(> i2 i0)", "nil"},
		{"len(s) > 2 && s[1] == 'x'", "(&& (> i2 2) (== (@ i2 1 v0) 120))", "[]int64{__rt.At(s, int64(1))}"},
		{"s[i] == 'q'", "(== (@ i2 i0 v0) 113)", "[]int64{__rt.At(s, int64(i))}"},
		{"len(ls) > i", "(> v0 i0)", "[]int64{int64(len(ls))}"},
		// A string compared with a constant: its length and bytes, read
		// without a bounds branch ("@?").
		{`s == ""`, "(== i2 0)", "nil"},
		{`s == "ab"`, "(&& (== i2 2) (== (@? i2 0 v0) 97) (== (@? i2 1 v1) 98))", "[]int64{__rt.At(s, 0), __rt.At(s, 1)}"},
		{`"ab" != s`, "(! (&& (== i2 2) (== (@? i2 0 v0) 97) (== (@? i2 1 v1) 98)))", "[]int64{__rt.At(s, 0), __rt.At(s, 1)}"},
		{`i > 0 && (s) == "q"`, "(&& (> i0 0) (&& (== i2 1) (== (@? i2 0 v0) 113)))", "[]int64{__rt.At(s, 0)}"},
		{`s == "abcdefghijklmnop"`, "(&& (== i2 16) (== (@? i2 0 v0) 97) (== (@? i2 1 v1) 98) (== (@? i2 2 v2) 99) (== (@? i2 3 v3) 100) (== (@? i2 4 v4) 101) (== (@? i2 5 v5) 102) (== (@? i2 6 v6) 103) (== (@? i2 7 v7) 104) (== (@? i2 8 v8) 105) (== (@? i2 9 v9) 106) (== (@? i2 10 v10) 107) (== (@? i2 11 v11) 108) (== (@? i2 12 v12) 109) (== (@? i2 13 v13) 110) (== (@? i2 14 v14) 111) (== (@? i2 15 v15) 112))", "[]int64{__rt.At(s, 0), __rt.At(s, 1), __rt.At(s, 2), __rt.At(s, 3), __rt.At(s, 4), __rt.At(s, 5), __rt.At(s, 6), __rt.At(s, 7), __rt.At(s, 8), __rt.At(s, 9), __rt.At(s, 10), __rt.At(s, 11), __rt.At(s, 12), __rt.At(s, 13), __rt.At(s, 14), __rt.At(s, 15)}"},
		// The bytes of a []byte input that nobody writes are inputs too.
		{"bs[1] == 'C'", "(== (@ i7 1 v0) 67)", "[]int64{__rt.At(bs, int64(1))}"},
		{`len(bs) > 1 && string(bs) == "x"`, "(&& (> i7 1) (&& (== i7 1) (== (@? i7 0 v0) 120)))", "[]int64{__rt.At(bs, 0)}"},
		// ... but not those of one the body writes: a read of memory.
		{"wb[1] == 'C'", "(== m0:u8 67)", "nil, &wb[1]"},
		// At most 16 values.
		{"l0+l1+l2+l3+l4+l5+l6+l7+l8+l9+l10+l11+l12+l13+l14+l15 > i", "(> (+ (+ (+ (+ (+ (+ (+ (+ (+ (+ (+ (+ (+ (+ (+ v0 v1) v2) v3) v4) v5) v6) v7) v8) v9) v10) v11) v12) v13) v14) v15) i0)", "[]int64{int64(l0), int64(l1), int64(l2), int64(l3), int64(l4), int64(l5), int64(l6), int64(l7), int64(l8), int64(l9), int64(l10), int64(l11), int64(l12), int64(l13), int64(l14), int64(l15)}"},
		{"l0+l1+l2+l3+l4+l5+l6+l7+l8+l9+l10+l11+l12+l13+l14+l15+l16 > i", "", ""},
		// Not symbolic.
		{"loc > 0", "", ""},
		{"a > 0", "", ""},
		{"true", "", ""},
		{"i/2 == 0", "", ""},
		{"i%2 == 0", "", ""},
		{"i<<1 == 0", "", ""},
		{"i&1 == 0", "", ""},
		{"^i == 0", "", ""},
		{`s == "abcdefghijklmnopq"`, "", ""}, // more than 16 values
		{`s < "b"`, "", ""},
		{`s == ls`, "", ""},
		{`ls == "ab"`, "", ""},
		{`string(wb) == "x"`, "", ""},
		{"float64(i) > 0.5", "", ""},
		{"m[i] == 0", "", ""},
		{"arr[i] == 0", "", ""},
		{"sl[i] == 0", "", ""},
		{"u == 1<<63", "", ""},
		{"gp != nil", "", ""},
		{"even(i)", "", ""},
		{"g == 1 || g == 2", "", ""},           // two reads of g, a scheduling point between
		{"i > 0 && p.n == 0", "", ""},          // p may be nil when p.n is not evaluated
		{"i > 0 && sl[0] == 0", "", ""},        // sl may be empty
		{"(i > 0 && flag) == ok", "", ""},      // the read of flag is not reported
		{"named", "", ""},                      // not bool: Branch takes a bool
		{"loc == 1 && named == named", "", ""}, // idem
	}
	concrete := map[string]bool{"loc > 0": true, "a > 0": true, "true": true, "named": true, "loc == 1 && named == named": true, `ls == "ab"`: true}
	var b strings.Builder
	b.WriteString(`package p

import "testing"

type N int

type B bool

const c = 5

var (
	g    int
	g8   int8
	u    uint64
	flag bool
	st   struct{ n int32 }
	arr  [4]uint16
	sl   []int
	gp   *int
	m    map[int]int
	d    N
)

func even(n int) bool { return n%2 == 0 }

func FuzzX(f *testing.F) {
	f.Fuzz(func(t *testing.T, i int, j int, s string, ok bool, _ uint8, w uint16, a int, bs []byte, wb []byte) {
		a = 1
		wb[0] = 1
		loc := 1
		var named B
		x := 0
		go func() { x = 1 }()
		p := &st
		lb := j > 1
		ls := "ab"
		var l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15, l16 int
`)
	for k, c := range cases {
		fmt.Fprintf(&b, "\t\tif %s { // case %d\n\t\t}\n", c.cond, k)
	}
	b.WriteString("\t\t_, _, _, _, _, _ = loc, named, x, p, lb, ls\n\t\t_ = l0+l1+l2+l3+l4+l5+l6+l7+l8+l9+l10+l11+l12+l13+l14+l15+l16\n\t})\n}\n")
	out := rewriteSource(t, b.String())
	branch := regexp.MustCompile(`__rt\.Branch\(.*, __rtSites_[0-9a-f]+\+\d+, ("(?:[^"\\]|\\.)*"), (.*)\) \{ // case (\d+)$`)
	for k, line := range caseLines(t, out, len(cases)) {
		c := cases[k]
		// A condition left as it is gets rt.Untracked unless it only
		// uses constants and values that are not tracked.
		if want := c.sym == "" && !concrete[c.cond]; strings.Contains(line, "__rt.Untracked(") != want {
			t.Errorf("%s: rt.Untracked in front: %v, want %v: %s", c.cond, !want, want, line)
		}
		bm := branch.FindStringSubmatch(line)
		if bm == nil {
			if strings.Contains(line, "Branch") {
				t.Errorf("%s: malformed rewrite %s", c.cond, line)
			} else if c.sym != "" {
				t.Errorf("%s: not rewritten, want %s", c.cond, c.sym)
			}
			continue
		}
		sym, err := strconv.Unquote(bm[1])
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.sym == "":
			t.Errorf("%s: rewritten with %s, want it left alone", c.cond, sym)
		case sym != c.sym || bm[2] != c.leaves:
			t.Errorf("%s: got %s with leaves %q, want %s with %q", c.cond, sym, bm[2], c.sym, c.leaves)
		}
	}
}

// rewriteSource rewrites the file src, of a package of its own, without
// Options.Symbolic, and returns the result; warnings fail the test.
func rewriteSource(t *testing.T, src string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg := loadFile(t, path)
	out, warns, err := File(pkg.Fset, pkg.Syntax[0], pkg.Types, pkg.TypesInfo, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		t.Errorf("warning: %s", w)
	}
	return out
}

// caseLines returns the lines of out that end with "// case K", by K,
// and fails the test unless there are n, one for each K.
func caseLines(t *testing.T, out []byte, n int) []string {
	t.Helper()
	caseRE := regexp.MustCompile(`// case (\d+)$`)
	lines := make([]string, n)
	seen := 0
	for _, line := range strings.Split(string(out), "\n") {
		if m := caseRE.FindStringSubmatch(line); m != nil {
			if k, _ := strconv.Atoi(m[1]); k < n && lines[k] == "" {
				lines[k] = line
				seen++
			}
		}
	}
	if seen != n {
		t.Fatalf("found %d cases in the output, want %d:\n%s", seen, n, out)
	}
	return lines
}

// TestSwitchTerms rewrites a fuzz body with one switch statement per
// case and checks whether it became a chain of branches (its tag gone,
// the first case's term as given), was marked untracked, or was left
// alone.
func TestSwitchTerms(t *testing.T) {
	const (
		chain     = iota // rewritten
		untracked        // left as it is, rt.Untracked in front
		alone            // left as it is
	)
	cases := []struct {
		head  string // the switch statement's header and first case
		want  int
		first string // with chain: the first case's term
	}{
		{`switch s { case "ab":`, chain, "(&& (== i2 2) (== (@? i2 0 v0) 97) (== (@? i2 1 v1) 98))"},
		{`switch i { case 1, 2:`, chain, "(== i0 1)"},
		{`switch ok { case false:`, chain, "(== i3 0)"},
		{`switch bs[0] { case 'A':`, chain, "(== (@ i4 0 v0) 65)"},
		{`switch g { case -1:`, chain, "(== m0:i64 -1)"},
		{`switch (i) { case c:`, chain, "(== i0 5)"},
		{`switch { case i > 2:`, chain, "(> i0 2)"},
		{`switch { case s == "x":`, chain, "(&& (== i2 1) (== (@? i2 0 v0) 120))"},
		{`switch k := 3; i { case k:`, untracked, ""}, // a case that is no constant
		{`switch even(i) { case true:`, untracked, ""},
		{`switch i { case len(s):`, untracked, ""},
		{`switch i * i { case 4:`, chain, "(== (* i0 i0) 4)"},
		{`switch i > 0 || ok { case true:`, chain, "(== (|| (> i0 0) i3) 1)"},
		{`switch i % 2 { case 1:`, untracked, ""},
		{`switch loc { case 1:`, alone, ""},
		{`switch 3 { case 3:`, alone, ""},
		{`switch { case loc > 2:`, alone, ""},
	}
	var b strings.Builder
	b.WriteString(`package p

import "testing"

const c = 5

var g int

func even(n int) bool { return n%2 == 0 }

func FuzzX(f *testing.F) {
	f.Fuzz(func(t *testing.T, i int, j int, s string, ok bool, bs []byte) {
		loc := 1
`)
	for k, c := range cases {
		fmt.Fprintf(&b, "\t\t%s // case %d\n\t\t}\n", c.head, k)
	}
	b.WriteString("\t\t_ = loc\n\t})\n}\n")
	out := rewriteSource(t, b.String())
	branch := regexp.MustCompile(`__rt\.Branch\(.*?, __rtSites_[0-9a-f]+\+\d+, ("(?:[^"\\]|\\.)*")`)
	for k, line := range caseLines(t, out, len(cases)) {
		c := cases[k]
		got := alone
		switch {
		case strings.Contains(line, "__rt.Untracked("):
			got = untracked
		case strings.Contains(line, "__rt.Branch("):
			got = chain
		}
		if got != c.want {
			t.Errorf("%s: got %d, want %d (0 chain, 1 untracked, 2 alone): %s", c.head, got, c.want, line)
			continue
		}
		if got != chain {
			continue
		}
		if strings.HasPrefix(c.head, "switch {") != strings.Contains(line, "switch {") ||
			!strings.HasPrefix(c.head, "switch {") && !strings.Contains(line, "switch  {") {
			t.Errorf("%s: the tag was not removed: %s", c.head, line)
		}
		m := branch.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("%s: malformed rewrite %s", c.head, line)
			continue
		}
		if sym, _ := strconv.Unquote(m[1]); sym != c.first {
			t.Errorf("%s: first case's term %s, want %s", c.head, sym, c.first)
		}
	}
}

// fuzzBehaveSrc is a fuzz test whose branches and writes are rewritten;
// its seed corpus runs it natively, without exploration.
const fuzzBehaveSrc = `package fb

import (
	"fmt"
	"testing"
)

var (
	g    int
	flag bool
	arr  [2]int8
	gp   = new(int)
)

func FuzzB(f *testing.F) {
	f.Add(1, 2, true)
	f.Add(-3, 0, false)
	f.Add(7, 7, true)
	f.Fuzz(func(t *testing.T, i int, j int, ok bool) {
		x := 0
		done := make(chan bool)
		go func() {
			x = i + j
			if x > 3 && ok {
				g = x * 2
			}
			done <- true
		}()
		<-done
		if g > i || flag {
			fmt.Println("g", g, "flag", flag)
		}
		flag = !ok
		for k := 0; k < j; k++ {
			g += k
			arr[1]--
		}
		if n := i - 1; n > g && arr[1] < 0 {
			fmt.Println("n", n)
		} else if x == 5 {
			fmt.Println("x", x)
		}
		*gp = j
		for *gp < 3 {
			*gp++
		}
		fmt.Println(i, j, ok, x, g, flag, arr, *gp)
	})
}
`

// TestFuzzBranchBehavior runs the seed corpus of a fuzz test, original
// and rewritten: the rewritten conditions and writes must not change what
// it does.
func TestFuzzBranchBehavior(t *testing.T) {
	fuzzBehave(t, fuzzBehaveSrc, 6, 7)
}

// fuzzSwitchSrc is a fuzz test over a string and a []byte whose switch
// statements and string comparisons are rewritten.
const fuzzSwitchSrc = `package fb

import (
	"fmt"
	"testing"
)

var g int

func FuzzB(f *testing.F) {
	f.Add("incr", []byte{1, 'C'}, 2)
	f.Add("get", []byte{1, 'D', 'x'}, 3)
	f.Add("", []byte{}, 1)
	f.Add("reset", []byte{2}, 5)
	f.Add("ping", []byte{1, 'P'}, 7)
	f.Fuzz(func(t *testing.T, cmd string, frame []byte, n int) {
		g = n
		switch cmd {
		case "get", "ping":
			fmt.Println("read", cmd)
		case "incr":
			fmt.Println("incr")
			fallthrough
		case "reset":
			fmt.Println("write", cmd)
		default:
			fmt.Println("unknown", cmd)
		}
		if len(frame) < 2 || frame[0] != 1 {
			fmt.Println("malformed", frame)
			return
		}
		switch frame[1] {
		case 'D':
			fmt.Println("data", len(frame)-2)
		case 'P', 'C':
			fmt.Println("control", frame[1])
		}
		switch g {
		case 2, 3:
			fmt.Println("g small")
		case 7:
			fmt.Println("g seven")
		}
		switch n > 6 || cmd == "get" {
		case false:
			fmt.Println("neither")
		}
		switch {
		case n > 5:
			fmt.Println("n big")
		case cmd != "incr" && string(frame) == "\x01P":
			fmt.Println("ping frame")
		}
	})
}
`

// TestFuzzSwitchBehavior does the same with switch statements and
// string comparisons: a switch with a tag becomes one without whose
// cases are its comparisons, which must keep their order, fallthrough
// and default.
func TestFuzzSwitchBehavior(t *testing.T) {
	fuzzBehave(t, fuzzSwitchSrc, 14, 1)
}

// fuzzBehave rewrites the fuzz test src, checks that it has the given
// numbers of rewritten conditions and writes, and runs its seed corpus,
// original and rewritten: both must print the same.
func fuzzBehave(t *testing.T, src string, branches, writes int) {
	if testing.Short() {
		t.Skip("builds and runs tests")
	}
	dir := tempModule(t)
	orig := filepath.Join(dir, "orig", "fb_test.go")
	if err := os.MkdirAll(filepath.Dir(orig), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(orig, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// Loaded as a plain file: a _test.go file would be left out.
	plain := filepath.Join(t.TempDir(), "fb.go")
	if err := os.WriteFile(plain, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg := loadFile(t, plain)
	out, warns, err := File(pkg.Fset, pkg.Syntax[0], pkg.Types, pkg.TypesInfo, "fb_test.go", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		t.Errorf("warning: %s", w)
	}
	if n := strings.Count(string(out), "Branch("); n != branches {
		t.Errorf("%d conditions rewritten, want %d:\n%s", n, branches, out)
	}
	if n := strings.Count(string(out), "SymWrite("); n != writes {
		t.Errorf("%d writes followed by SymWrite, want %d:\n%s", n, writes, out)
	}
	inst := filepath.Join(dir, "inst", "fb_test.go")
	if err := os.MkdirAll(filepath.Dir(inst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inst, out, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(sub string) string {
		exe := filepath.Join(dir, "bin", sub+".test")
		if out, err := goCmd(t, dir, "test", "-c", "-o", exe, "./"+sub); err != nil {
			t.Fatalf("build %s: %v\n%s", sub, err, out)
		}
		out, err := exec.Command(exe, "-test.run=FuzzB").CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", sub, err, out)
		}
		return string(out)
	}
	want, got := run("orig"), run("inst")
	t.Logf("output:\n%s", got)
	if got != want {
		t.Errorf("rewritten output differs\n--- original:\n%s--- rewritten:\n%s\n--- source:\n%s", want, got, out)
	}
}

// TestSymbolicKernel rewrites, with Options.Symbolic, a copy of the
// mpc-sentinel kernel's buggy package and its tests, checks the symbolic
// calls its functions get, and runs its tests (and the fuzz test's seed
// corpus) natively, original and rewritten: both must pass alike.
func TestSymbolicKernel(t *testing.T) {
	symbolicKernel(t, filepath.Join("testdata", "kernels", "mpcsentinel"), []string{
		`SymEnter("interleave.dev/internal/instrument/testdata/kernels/mpcsentinel.Run", &i, &j)`,
		`Branch(i+1 == Closed || j == Closed, `,
		`SymWrite(&x, `, // x = i and x = x + 1
		`"(+ m0:i64 1)"`,
		`SymSet(`, // v := x
		`"(== l0 7)"`,
		`Run(i, __rt.SymCall[int](j, "interleave.dev/internal/instrument/testdata/kernels/mpcsentinel.Run", "i0 i1", nil))`,
	})
}

// TestSymbolicDivide does the same with the reload-divide-by-zero kernel,
// whose division by a shared field a Reload may set to 0 must be checked.
func TestSymbolicDivide(t *testing.T) {
	symbolicKernel(t, filepath.Join("testdata", "kernels", "reloaddivide"), []string{
		`Branch(s.per != 0, `,
		`"(!= m0:i64 0)", nil, &s.per); return total / s.per`,
		`SymWrite(&s.per, `,
	})
}

// TestSymbolicSwitch does the same with the fixed twin of the
// mpc-command-dispatch kernel, whose string parameter a switch compares
// with its cases, and that of the mpc-frame-header kernel, whose []byte
// parameter's version and opcode bytes its conditions and switch read.
func TestSymbolicSwitch(t *testing.T) {
	kernels := filepath.Join("..", "..", "kernels")
	symbolicKernel(t, filepath.Join(kernels, "mpc-command-dispatch", "fixed"), []string{
		`SymEnter("(*interleave.dev/kernels/mpc-command-dispatch/fixed.Store).Exec", `,
		`case __rt.Branch(cmd == ("incr"), `,
		`"(&& (== l0 4) (== (@? l0 0 v2) 105) (== (@? l0 1 v3) 110) (== (@? l0 2 v4) 99) (== (@? l0 3 v5) 114))"`,
		`s.Exec(__rt.SymCall[string](cmd, `,
	})
	symbolicKernel(t, filepath.Join(kernels, "mpc-frame-header", "fixed"), []string{
		`"(|| (< l0 2) (!= (@ l0 0 v2) 1))"`,
		`case __rt.Branch(frame[1] == (opData), `,
		`"(== (@ l0 1 v2) 68)"`,
		`"(== (@? l0 1 v2) 67)"`,
		`c.Handle(__rt.SymCall[[]byte](frame, `,
	})
}

// symbolicKernel rewrites the package in directory pkgDir and its tests
// with Options.Symbolic, checks that the result has each of wants, and
// runs the tests, original and rewritten, natively on one P (for the same
// schedule), comparing their outputs.
func symbolicKernel(t *testing.T, pkgDir string, wants []string) {
	if testing.Short() {
		t.Skip("builds and runs tests")
	}
	src, err := filepath.Abs(pkgDir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: loadMode, Dir: src, Tests: true}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	var pkg *packages.Package
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test]") {
			pkg = p
		}
	}
	if pkg == nil {
		t.Fatalf("no test variant among %d packages", len(pkgs))
	}
	files, warns, err := Package(pkg, Options{Symbolic: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		t.Errorf("warning: %s", w)
	}
	var all strings.Builder
	for _, out := range files {
		all.Write(out)
	}
	for _, want := range wants {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no %s in the rewritten kernel:\n%s", want, all.String())
		}
	}
	dir := tempModule(t)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"orig", "inst"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			path := filepath.Join(src, e.Name())
			b, ok := files[path]
			if !ok || sub == "orig" {
				if b, err = os.ReadFile(path); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, sub, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if out, err := goCmd(t, dir, "vet", "./inst"); err != nil {
		t.Fatalf("vet of the rewritten kernel: %v\n%s", err, out)
	}
	run := func(sub string) string {
		exe := filepath.Join(dir, "bin", sub+".test")
		if out, err := goCmd(t, dir, "test", "-c", "-o", exe, "./"+sub); err != nil {
			t.Fatalf("build %s: %v\n%s", sub, err, out)
		}
		cmd := exec.Command(exe, "-test.run=.", "-test.count=20")
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", sub, err, out)
		}
		return string(out)
	}
	if want, got := run("orig"), run("inst"); got != want {
		t.Errorf("rewritten output differs\n--- original:\n%s--- rewritten:\n%s", want, got)
	}
}
