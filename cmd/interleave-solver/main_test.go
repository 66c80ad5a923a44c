package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"interleave.dev/rt/wire"
)

// query is T0: write x = 1; T1: read x (0 in the trace), asking the read
// for 1 (sat after the write) and for 5 (never written).
func query(t *testing.T) []byte {
	t.Helper()
	q := wire.MCRQuery{
		Trace: wire.MCRTrace{
			Threads: 2,
			Events: []wire.MCREvent{
				{T: 0, K: wire.MCRAccess, Acc: []wire.MCRMemAccess{{Loc: 7, Mask: ^uint64(0), Write: true, WV: 1}}},
				{T: 1, K: wire.MCRAccess, Acc: []wire.MCRMemAccess{{Loc: 7, Mask: ^uint64(0), Read: true}}},
			},
			Init: []wire.MCRInit{{Loc: 7, V: 0}},
		},
		Targets: []wire.MCRTarget{{Event: 1, Value: 1}, {Event: 1, Value: 5}},
	}
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkAnswer checks the answer line to query.
func checkAnswer(t *testing.T, line []byte) {
	t.Helper()
	var a wire.MCRAnswer
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("answer %q: %v", line, err)
	}
	if a.Error != "" || len(a.Results) != 2 {
		t.Fatalf("answer %+v, want two results", a)
	}
	if r := a.Results[0]; r.Status != wire.MCRSat || !reflect.DeepEqual(r.Prefix, []int32{0, 1}) {
		t.Errorf("first target: %+v, want sat with prefix [0 1]", r)
	}
	if r := a.Results[1]; r.Status != wire.MCRUnsat {
		t.Errorf("second target: %+v, want unsat", r)
	}
}

// mpcQuery is T0: write x = i (input 0, 0 in the run); T1: read x (0 in
// the trace) and branch on x == 7, false in the run. Its prefixes: T1's
// branch negated (sat with i = 7), and the same with T0 cut before its
// write (unsat, T1's path condition the core).
func mpcQuery(t *testing.T) []byte {
	t.Helper()
	x := wire.MPCTerm{Op: wire.TermRead, Read: &wire.MPCRead{Event: 1, Size: 8, Signed: true}}
	q := wire.MPCQuery{
		MPC: true,
		Trace: wire.MCRTrace{
			Threads: 2,
			Events: []wire.MCREvent{
				{T: 0, K: wire.MCRAccess, Acc: []wire.MCRMemAccess{{Loc: 7, Mask: ^uint64(0), Write: true}}},
				{T: 1, K: wire.MCRAccess, Acc: []wire.MCRMemAccess{{Loc: 7, Mask: ^uint64(0), Read: true}}},
			},
			Init: []wire.MCRInit{{Loc: 7, V: 0}},
		},
		Inputs:   []wire.MPCInput{{Min: -100, Max: 100}},
		Writes:   []wire.MPCWrite{{Event: 0, Size: 8, Value: wire.MPCTerm{Op: wire.TermInput}}},
		Branches: []wire.MPCBranch{{T: 1, After: 1, Cond: wire.MPCTerm{Op: "==", Args: []wire.MPCTerm{x, {Op: wire.TermConst, V: 7}}}}},
		Prefixes: []wire.MPCPrefix{
			{Cuts: []wire.MPCCut{{T: 1, N: 1, Negate: true}}},
			{Cuts: []wire.MPCCut{{T: 0}, {T: 1, N: 1, Negate: true}}},
		},
	}
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkMPCAnswer checks the answer line to mpcQuery: an MPCAnswer, which
// has fields an MCRAnswer lacks.
func checkMPCAnswer(t *testing.T, line []byte) {
	t.Helper()
	var a wire.MPCAnswer
	d := json.NewDecoder(bytes.NewReader(line))
	d.DisallowUnknownFields()
	if err := d.Decode(&a); err != nil {
		t.Fatalf("answer %q: %v", line, err)
	}
	if a.Error != "" || len(a.Results) != 2 {
		t.Fatalf("answer %+v, want two results", a)
	}
	if r := a.Results[0]; r.Status != wire.MCRSat || !reflect.DeepEqual(r.Prefix, []int32{0, 1}) || !reflect.DeepEqual(r.Inputs, []int64{7}) {
		t.Errorf("negated branch: %+v, want sat with schedule [0 1] and input 7", r)
	}
	if r := a.Results[1]; r.Status != wire.MCRUnsat || !reflect.DeepEqual(r.Core, []int32{1}) {
		t.Errorf("T0 cut: %+v, want unsat with core [1]", r)
	}
}

// checkError checks that line is an answer with an Error containing want.
func checkError(t *testing.T, line []byte, want string) {
	t.Helper()
	var a wire.MCRAnswer
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("answer %q: %v", line, err)
	}
	if a.Results != nil || !strings.Contains(a.Error, want) {
		t.Errorf("answer %+v, want an error containing %q", a, want)
	}
}

// Every line gets one answer, in order: a query, a line that is not
// JSON, a line over the bound, and a last query with no newline.
func TestServe(t *testing.T) {
	q := query(t)
	long := `{"targets":[` + strings.Repeat(" ", len(q)) + `]}`
	in := string(q) + "\n{not json\n" + long + "\n" + string(q)
	var out bytes.Buffer
	if err := serve(strings.NewReader(in), &out, len(q)); err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != 4 {
		t.Fatalf("%d answer lines, want 4:\n%s", len(lines), out.Bytes())
	}
	checkAnswer(t, lines[0])
	checkError(t, lines[1], "not a query")
	checkError(t, lines[2], "query line too long: more than")
	checkAnswer(t, lines[3])
}

// MPC and MCR queries share the stream, each answered in its kind; an
// MPC line that is not a query, or a malformed one, gets an error.
func TestServeMPC(t *testing.T) {
	mpc, mcr := mpcQuery(t), query(t)
	bad := bytes.Replace(mpc, []byte(`"neg":true`), []byte(`"neg":7`), 1)
	malformed := bytes.Replace(mpc, []byte(`"n":1`), []byte(`"n":2`), 1)
	in := bytes.Join([][]byte{mpc, mcr, bad, malformed, mpc, []byte(`{"mpc":false}`)}, []byte("\n"))
	var out bytes.Buffer
	if err := serve(bytes.NewReader(in), &out, len(in)); err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != 6 {
		t.Fatalf("%d answer lines, want 6:\n%s", len(lines), out.Bytes())
	}
	checkMPCAnswer(t, lines[0])
	checkAnswer(t, lines[1])
	checkError(t, lines[2], "not a query")
	checkError(t, lines[3], "after branch 2, out of range")
	checkMPCAnswer(t, lines[4])
	if got := string(lines[5]); got != "{}" {
		t.Errorf(`answer to {"mpc":false}: %s, want the empty MCRAnswer {}`, got)
	}
}

func TestServeEmptyInput(t *testing.T) {
	var out bytes.Buffer
	if err := serve(strings.NewReader(""), &out, 100); err != nil || out.Len() != 0 {
		t.Fatalf("serve of no input: %v, wrote %q", err, out.Bytes())
	}
}

// Lines longer than the reader's buffer are put together; the bound
// counts the line without its newline.
func TestReadLine(t *testing.T) {
	const max = 40
	fits := strings.Repeat("a", max)
	over := strings.Repeat("b", max+1)
	r := bufio.NewReaderSize(strings.NewReader(fits+"\n"+over+"\n"+"short\n\n"+over), 16)
	for _, want := range []struct {
		line    string
		tooLong bool
	}{{fits, false}, {"", true}, {"short", false}, {"", false}, {"", true}} {
		line, err := readLine(r, max)
		if want.tooLong {
			if !errors.Is(err, errTooLong) {
				t.Fatalf("readLine = %q, %v; want errTooLong", line, err)
			}
			continue
		}
		if err != nil || string(line) != want.line {
			t.Fatalf("readLine = %q, %v; want %q", line, err, want.line)
		}
	}
	if line, err := readLine(r, max); !errors.Is(err, io.EOF) {
		t.Fatalf("at the end: %q, %v; want io.EOF", line, err)
	}
}

// The built command answers each line as it comes (the answer to a query
// is read before the next is sent, so it must have been flushed), answers
// garbage with an error, and exits 0 when its input ends.
func TestCommand(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with")
	}
	bin := filepath.Join(t.TempDir(), "interleave-solver")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// An answer left unflushed would block the test: fail it instead.
	stop := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	defer stop.Stop()
	answers := bufio.NewReader(stdout)
	next := func(send []byte) []byte {
		t.Helper()
		if _, err := stdin.Write(append(send, '\n')); err != nil {
			t.Fatal(err)
		}
		line, err := answers.ReadBytes('\n')
		if err != nil {
			t.Fatalf("reading an answer: %v (stderr: %s)", err, stderr.Bytes())
		}
		return line
	}
	q := query(t)
	checkAnswer(t, next(q))
	checkError(t, next([]byte("garbage")), "not a query")
	checkMPCAnswer(t, next(mpcQuery(t)))
	checkAnswer(t, next(q))
	stdin.Close()
	if rest, _ := io.ReadAll(answers); len(rest) != 0 {
		t.Errorf("output after the last answer: %q", rest)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v (stderr: %s)", err, stderr.Bytes())
	}
}
