// Package fidelity holds tests whose outcome must be the same under
// interleave as natively: each computes a value that the program under
// the tool must not be able to tell apart from a native run's.
package fidelity
