package driver

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"interleave.dev"
	"interleave.dev/rt/wire"
)

// TestBuildSolver builds interleave-solver from the embedded source, runs
// it on a query (a read of 0 that a write of 1 in another thread can
// change), and builds it only once.
func TestBuildSolver(t *testing.T) {
	cache := t.TempDir()
	bin, err := BuildSolver(context.Background(), cache, interleave.SolverSource, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	q := wire.MCRQuery{
		Trace: wire.MCRTrace{
			Threads: 2,
			Events: []wire.MCREvent{
				{T: 1, K: wire.MCRAccess, Acc: []wire.MCRMemAccess{{Loc: 1, Mask: ^uint64(0), Read: true}}},
				{T: 0, K: wire.MCRAccess, Acc: []wire.MCRMemAccess{{Loc: 1, Mask: ^uint64(0), Write: true, WV: 1}}},
			},
			Init: []wire.MCRInit{{Loc: 1, V: 0}},
		},
		Targets: []wire.MCRTarget{{Event: 0, Value: 1}},
	}
	in, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(string(in) + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the solver: %v", err)
	}
	if !strings.Contains(string(out), `"status":"sat"`) || !strings.Contains(string(out), `"prefix":[1,0]`) {
		t.Errorf("solver answered %s, want the write then the read", out)
	}
	info, _ := os.Stat(bin)
	again, err := BuildSolver(context.Background(), cache, interleave.SolverSource, os.Environ())
	if err != nil || again != bin {
		t.Fatalf("second build: %q, %v", again, err)
	}
	if info2, _ := os.Stat(again); !info2.ModTime().Equal(info.ModTime()) {
		t.Errorf("the solver was built again")
	}
}

// TestBuildSolverWithoutZ3: where Z3's header is missing (a C compiler
// that says so stands in for such a machine), the error is ErrNoZ3, which
// names the package to install, and nothing is left in the cache.
func TestBuildSolverWithoutZ3(t *testing.T) {
	cc := filepath.Join(t.TempDir(), "cc")
	script := "#!/bin/sh\necho 'z3.go:3:10: fatal error: z3.h: No such file or directory' >&2\nexit 1\n"
	if err := os.WriteFile(cc, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	env := append(os.Environ(), "CC="+cc)
	_, err := BuildSolver(context.Background(), cache, interleave.SolverSource, env)
	if !errors.Is(err, ErrNoZ3) {
		t.Fatalf("err = %v, want ErrNoZ3", err)
	}
	if !strings.Contains(err.Error(), "libz3-dev") {
		t.Errorf("the error does not name libz3-dev: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(cache, "solver")); len(entries) != 0 {
		t.Errorf("the failed build left %d entries in the cache", len(entries))
	}
}
