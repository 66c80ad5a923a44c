// Package buggy is the buggy variant of the publish-flag-race kernel.
package buggy

// Box publishes data from one goroutine to another.
type Box struct {
	data  []int
	ready bool
}

// Publish stores data and marks it ready.
func (b *Box) Publish(data []int) {
	b.data = data
	b.ready = true // BUG: a plain flag publishes nothing: no happens-before
}

// Get returns the data if it has been published.
func (b *Box) Get() ([]int, bool) {
	if !b.ready {
		return nil, false
	}
	return b.data, true
}
