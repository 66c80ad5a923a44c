// Package atomicity holds an atomicity violation: Register checks that a
// name is free and claims it in two separate critical sections, so two
// goroutines registering the same name can both succeed.
package atomicity

import (
	"errors"
	"sync"
)

// ErrTaken is returned when a name is already registered.
var ErrTaken = errors.New("name taken")

// Registry maps names to owners.
type Registry struct {
	mu     sync.Mutex
	owners map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{owners: map[string]string{}} }

func (r *Registry) taken(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.owners[name]
	return ok
}

func (r *Registry) claim(name, owner string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.owners[name] = owner
}

// Register gives name to owner unless it is taken. BUG: the check and the
// claim are not one critical section (each is race-free on its own).
func (r *Registry) Register(name, owner string) error {
	if r.taken(name) {
		return ErrTaken
	}
	r.claim(name, owner)
	return nil
}
