package driver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"interleave.dev"
	"interleave.dev/rt/strategies"
)

// withDefaults returns a copy of opts with its defaults filled in.
func (opts Options) withDefaults() (Options, error) {
	o := opts
	if o.Instrument == nil {
		return o, errors.New("driver: no instrumenter")
	}
	if o.Dir == "" {
		o.Dir = "."
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return o, fmt.Errorf("resolving %s: %w", o.Dir, err)
	}
	o.Dir = dir
	if len(o.Patterns) == 0 {
		o.Patterns = []string{"."}
	}
	if o.Runtime == nil {
		o.Runtime = interleave.RuntimeSource
	}
	if o.SolverSource == nil {
		o.SolverSource = interleave.SolverSource
	}
	if o.CacheDir == "" {
		if o.CacheDir, err = CacheDir(); err != nil {
			return o, err
		}
	}
	if spec := strategies.Lookup(o.Config.Strategy); spec != nil && spec.Learns && o.Config.HaPSetDir == "" {
		// What the strategy learns accumulates from run to run.
		o.Config.HaPSetDir = filepath.Join(o.CacheDir, "hapset")
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.ToolID == "" {
		if o.ToolID, err = executableID(o.CacheDir); err != nil {
			return o, err
		}
	}
	return o, nil
}

// executableID returns a hash of the running executable, which holds the
// instrumenter: instrumented files cached by another build are not reused.
// The hash is remembered in the cache under the executable's path, size and
// modification time, so that it is computed once per build.
func executableID(cacheDir string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("identifying the instrumenter: %w", err)
	}
	info, err := os.Stat(exe)
	if err != nil {
		return "", fmt.Errorf("identifying the instrumenter: %w", err)
	}
	stamp := hashBytes([]byte(fmt.Sprintf("%s\n%d\n%d", exe, info.Size(), info.ModTime().UnixNano())))
	memo := filepath.Join(cacheDir, "tool", stamp[:32])
	if b, err := os.ReadFile(memo); err == nil && len(b) == 64 {
		return string(b), nil
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		return "", fmt.Errorf("identifying the instrumenter: %w", err)
	}
	id := hashBytes(b)
	writeFileAtomic(memo, []byte(id)) // best effort: a miss only costs a hash
	return id, nil
}
