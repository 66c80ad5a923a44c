package driver

import (
	"context"
	"fmt"
	"os"
)

// workspace is the environment of one run: the go command's settings, the
// main module, and a temporary directory for the modfile and results.
type workspace struct {
	env  []string
	goe  *goEnv
	mod  *moduleInfo
	load loadConfig
	tmp  string
}

func newWorkspace(ctx context.Context, o Options) (*workspace, error) {
	ws := &workspace{env: o.Env}
	var err error
	if ws.goe, err = readGoEnv(ctx, o.Dir, ws.env); err != nil {
		return nil, err
	}
	if ws.goe.GOWORK != "" && ws.goe.GOWORK != "off" {
		fmt.Fprintf(o.Stderr, "interleave: warning: ignoring workspace %s (go test -modfile does not support workspaces)\n", ws.goe.GOWORK)
		ws.env = append(ws.env, "GOWORK=off")
		if ws.goe, err = readGoEnv(ctx, o.Dir, ws.env); err != nil {
			return nil, err
		}
	}
	if ws.mod, err = readModule(ctx, o.Dir, ws.env, ws.goe); err != nil {
		return nil, err
	}
	ws.load = loadConfig{Dir: o.Dir, Env: ws.env}
	if vendored(ws.mod.Dir) && !hasFlag(o.GoFlags, "mod") {
		// The build reads dependencies from the module cache (see
		// injectRuntime): load the files it will compile, not the
		// vendored copies, so that those are the ones instrumented.
		ws.load.BuildFlags = append(ws.load.BuildFlags, "-mod=mod")
	}
	if o.Tags != "" {
		ws.load.BuildFlags = append(ws.load.BuildFlags, "-tags="+o.Tags)
	}
	if ws.tmp, err = os.MkdirTemp("", "interleave-"); err != nil {
		return nil, fmt.Errorf("creating a temporary directory: %w", err)
	}
	return ws, nil
}

func (ws *workspace) close() { os.RemoveAll(ws.tmp) }
