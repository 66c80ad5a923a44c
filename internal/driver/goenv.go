package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// goCmd runs the go command with args in dir and returns its standard
// output; a failure carries the command's standard error.
func goCmd(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("go %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.Bytes(), nil
}

// goEnv holds the go command settings the driver needs.
type goEnv struct {
	GOMOD      string
	GOWORK     string
	GOVERSION  string
	GOMODCACHE string
	GOOS       string
	GOARCH     string
}

// readGoEnv runs "go env" in dir.
func readGoEnv(ctx context.Context, dir string, env []string) (*goEnv, error) {
	out, err := goCmd(ctx, dir, env, "env", "-json", "GOMOD", "GOWORK", "GOVERSION", "GOMODCACHE", "GOOS", "GOARCH")
	if err != nil {
		return nil, err
	}
	var e goEnv
	if err := json.Unmarshal(out, &e); err != nil {
		return nil, fmt.Errorf("decoding go env: %w", err)
	}
	return &e, nil
}

// moduleInfo describes the user's main module, as "go mod edit -json"
// reports its go.mod.
type moduleInfo struct {
	Dir       string // directory of go.mod
	GoMod     string // path of go.mod
	Path      string // module path
	GoVersion string // go line, such as "1.22" or "1.21.3"
	// GodebugDefault reports whether go.mod already has a
	// "godebug default=..." directive.
	GodebugDefault bool
}

// readModule locates and reads the main module's go.mod for dir.
func readModule(ctx context.Context, dir string, env []string, ge *goEnv) (*moduleInfo, error) {
	if ge.GOMOD == "" || ge.GOMOD == "/dev/null" || ge.GOMOD == "NUL" {
		return nil, fmt.Errorf("no go.mod in %s or any parent directory: interleave test runs in a module", dir)
	}
	out, err := goCmd(ctx, dir, env, "mod", "edit", "-json", ge.GOMOD)
	if err != nil {
		return nil, err
	}
	var m struct {
		Module  struct{ Path string }
		Go      string
		Godebug []struct{ Key, Value string }
	}
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", ge.GOMOD, err)
	}
	info := &moduleInfo{Dir: filepath.Dir(ge.GOMOD), GoMod: ge.GOMOD, Path: m.Module.Path, GoVersion: m.Go}
	for _, g := range m.Godebug {
		if g.Key == "default" {
			info.GodebugDefault = true
		}
	}
	return info, nil
}
