// Package partial is the partial variant of the shared-counter kernel.
package partial

// Counter counts events from many goroutines.
type Counter struct {
	count int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.count++ // BUG: one statement is still a read and a write
}

// Value returns the count.
func (c *Counter) Value() int { return c.count }
