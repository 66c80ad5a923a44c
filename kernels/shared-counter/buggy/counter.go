// Package buggy is the buggy variant of the shared-counter kernel.
package buggy

// Counter counts events from many goroutines.
type Counter struct {
	count int
}

// Inc adds one.
func (c *Counter) Inc() {
	temp := c.count // BUG: unsynchronized read-increment-write
	temp++
	c.count = temp
}

// Value returns the count.
func (c *Counter) Value() int { return c.count }
