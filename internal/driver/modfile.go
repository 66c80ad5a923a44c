package driver

import (
	"context"
	"errors"
	"fmt"
	"go/version"
	"io/fs"
	"os"
	"path/filepath"
)

// modfilePlan is the temporary go.mod handed to go test with -modfile.
type modfilePlan struct {
	Path string // the temporary go.mod; its go.sum is beside it
	// ModMod reports that the go line had to be raised, so that go test
	// needs -mod=mod to complete the module graph in the temporary file.
	ModMod bool
}

// writeModfile copies the user's go.mod and go.sum into tmpDir and adds
// "require interleave.dev v0.0.0" and "replace interleave.dev => rtDir".
// The user's go line is kept, except that a module older than go 1.21 (the
// runtime module's go line, which the go command requires of its
// dependents) is raised to 1.21 with "godebug default=go<old>", so that its
// run-time behavior (GODEBUG defaults) is that of its declared version and
// its language semantics are unchanged (per-iteration loop variables start
// at 1.22).
//
// Each of mirrors adds "replace path@version => dir" for an instrumented
// dependency module.
func writeModfile(ctx context.Context, tmpDir string, mod *moduleInfo, rtDir string, mirrors []moduleReplace, env []string) (*modfilePlan, error) {
	plan := &modfilePlan{Path: filepath.Join(tmpDir, "go.mod")}
	b, err := os.ReadFile(mod.GoMod)
	if err != nil {
		return nil, fmt.Errorf("reading the module's go.mod: %w", err)
	}
	if err := os.WriteFile(plan.Path, b, 0o644); err != nil {
		return nil, fmt.Errorf("writing the temporary go.mod: %w", err)
	}
	sum, err := os.ReadFile(filepath.Join(mod.Dir, "go.sum"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading the module's go.sum: %w", err)
	}
	if err := os.WriteFile(filepath.Join(tmpDir, "go.sum"), sum, 0o644); err != nil {
		return nil, fmt.Errorf("writing the temporary go.sum: %w", err)
	}
	args := []string{"mod", "edit",
		"-require=" + RuntimeModule + "@v0.0.0",
		"-replace=" + RuntimeModule + "=" + rtDir,
	}
	for _, m := range mirrors {
		args = append(args, "-replace="+m.Path+"@"+m.Version+"="+m.Dir)
	}
	goLine := mod.GoVersion
	if goLine == "" {
		goLine = "1.16" // the go command's assumption for a go.mod without a go line
	}
	if version.Compare("go"+goLine, "go"+runtimeGoVersion) < 0 {
		args = append(args, "-go="+runtimeGoVersion)
		if !mod.GodebugDefault {
			args = append(args, "-godebug=default=go"+goLine)
		}
		plan.ModMod = true
	}
	args = append(args, plan.Path)
	if _, err := goCmd(ctx, mod.Dir, env, args...); err != nil {
		return nil, fmt.Errorf("writing the temporary go.mod: %w", err)
	}
	return plan, nil
}
