// Package fixed is the fixed variant of the first-error-race kernel.
package fixed

import "sync"

// Run runs every task concurrently and returns the first error.
func Run(tasks []func() error) error {
	var once sync.Once
	var err error
	var wg sync.WaitGroup
	for _, task := range tasks {
		wg.Add(1)
		go func(task func() error) {
			defer wg.Done()
			if e := task(); e != nil {
				once.Do(func() { err = e })
			}
		}(task)
	}
	wg.Wait()
	return err
}
