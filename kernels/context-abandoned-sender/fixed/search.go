// Package fixed is the fixed variant of the context-abandoned-sender kernel.
package fixed

import (
	"context"
	"strings"
	"sync"
)

// Search looks q up in a goroutine and gives up when ctx is done. The
// worker also watches ctx, and Search waits for it before returning.
func Search(ctx context.Context, q string) (string, error) {
	res := make(chan string)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case res <- strings.ToUpper(q):
		case <-ctx.Done():
		}
	}()
	defer wg.Wait()
	select {
	case r := <-res:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
