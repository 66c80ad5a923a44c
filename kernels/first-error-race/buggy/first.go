// Package buggy is the buggy variant of the first-error-race kernel.
package buggy

import "sync"

// Run runs every task concurrently and returns one of their errors.
func Run(tasks []func() error) error {
	var err error
	var wg sync.WaitGroup
	for _, task := range tasks {
		wg.Add(1)
		go func(task func() error) {
			defer wg.Done()
			if e := task(); e != nil {
				err = e // BUG: concurrent writes to the captured err
			}
		}(task)
	}
	wg.Wait()
	return err
}
