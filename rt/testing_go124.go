//go:build go1.24

package rt

import (
	"context"
	"testing"
)

// TContext replaces t.Context: inside an exploration, a context of the
// iteration canceled just before the cleanups run.
func TContext(t testing.TB) context.Context {
	if cur() != nil {
		if testState.ctx == nil {
			testState.ctx, testState.cancel = WithCancel(context.Background(), 0)
		}
		return testState.ctx
	}
	return t.Context()
}
