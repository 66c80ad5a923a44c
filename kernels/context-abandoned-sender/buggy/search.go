// Package buggy is the buggy variant of the context-abandoned-sender kernel.
package buggy

import (
	"context"
	"strings"
)

// Search looks q up in a goroutine and gives up when ctx is done.
func Search(ctx context.Context, q string) (string, error) {
	res := make(chan string)
	go func() {
		res <- strings.ToUpper(q) // BUG: blocks forever if Search gave up
	}()
	select {
	case r := <-res:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
