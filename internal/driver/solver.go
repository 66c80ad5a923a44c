package driver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNoZ3 is the error of a solver build that failed for want of Z3's C
// library or headers: strategy mcr cannot run on this machine.
var ErrNoZ3 = errors.New("strategies mcr and mpc need Z3's C library and headers to build its solver: install libz3-dev (apt-get install libz3-dev) or your system's Z3 development package")

// solverDirs are the directories of the solver's source in
// interleave.SolverSource.
var solverDirs = []string{"rt/wire", "internal/z3", "internal/mcr", "cmd/interleave-solver"}

// solverName is the solver's executable name.
const solverName = "interleave-solver"

// BuildSolver builds interleave-solver, the process that answers strategy
// mcr's queries with Z3 (it links Z3's C library through cgo, which the
// interleave command and the injected runtime do not), from its source
// src (interleave.SolverSource) under cacheDir/solver/<version>, unless
// it is built already, and returns its path. Where Z3 is missing, the
// error wraps ErrNoZ3.
func BuildSolver(ctx context.Context, cacheDir string, src fs.FS, env []string) (string, error) {
	files, err := sourceFiles(src, solverDirs...)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "interleave solver, go %s\n", runtimeGoVersion)
	contents := make([][]byte, len(files))
	for i, f := range files {
		b, err := fs.ReadFile(src, f)
		if err != nil {
			return "", fmt.Errorf("reading the solver's source: %w", err)
		}
		contents[i] = b
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	dir := filepath.Join(cacheDir, "solver", hex.EncodeToString(h.Sum(nil))[:24])
	bin := filepath.Join(dir, solverName)
	if _, err := os.Stat(bin); err == nil {
		markUsed(bin)
		return bin, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("creating the solver cache: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-*")
	if err != nil {
		return "", fmt.Errorf("creating the solver cache: %w", err)
	}
	defer os.RemoveAll(tmp) // after a successful rename this is a no-op
	for i, f := range files {
		out := filepath.Join(tmp, "src", filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", fmt.Errorf("writing the solver's source: %w", err)
		}
		if err := os.WriteFile(out, contents[i], 0o444); err != nil {
			return "", fmt.Errorf("writing the solver's source: %w", err)
		}
	}
	gomod := fmt.Sprintf("module %s\n\ngo %s\n", RuntimeModule, runtimeGoVersion)
	if err := os.WriteFile(filepath.Join(tmp, "src", "go.mod"), []byte(gomod), 0o444); err != nil {
		return "", fmt.Errorf("writing the solver's source: %w", err)
	}
	env = append(append([]string{}, env...), "CGO_ENABLED=1", "GOWORK=off", "GOFLAGS=")
	if _, err := goCmd(ctx, filepath.Join(tmp, "src"), env, "build", "-o", filepath.Join(tmp, solverName), "./cmd/"+solverName); err != nil {
		msg := err.Error()
		if strings.Contains(msg, "z3.h") || strings.Contains(msg, "-lz3") {
			return "", fmt.Errorf("%w\n%s", ErrNoZ3, msg)
		}
		return "", fmt.Errorf("building the mcr solver (it needs cgo: a C compiler and Z3's development package): %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another run may have built the same version meanwhile.
		if _, serr := os.Stat(bin); serr == nil {
			return bin, nil
		}
		return "", fmt.Errorf("installing the mcr solver: %w", err)
	}
	return bin, nil
}
