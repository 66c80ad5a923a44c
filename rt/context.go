package rt

import (
	"context"
	"time"
)

// WithCancel replaces context.WithCancel.
func WithCancel(parent context.Context, s Site) (context.Context, context.CancelFunc) {
	return context.WithCancel(parent)
}

// WithCancelCause replaces context.WithCancelCause.
func WithCancelCause(parent context.Context, s Site) (context.Context, context.CancelCauseFunc) {
	return context.WithCancelCause(parent)
}

// WithTimeout replaces context.WithTimeout.
func WithTimeout(parent context.Context, d time.Duration, s Site) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, d)
}

// WithTimeoutCause replaces context.WithTimeoutCause.
func WithTimeoutCause(parent context.Context, d time.Duration, cause error, s Site) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(parent, d, cause)
}

// WithDeadline replaces context.WithDeadline.
func WithDeadline(parent context.Context, t time.Time, s Site) (context.Context, context.CancelFunc) {
	return context.WithDeadline(parent, t)
}

// WithDeadlineCause replaces context.WithDeadlineCause.
func WithDeadlineCause(parent context.Context, t time.Time, cause error, s Site) (context.Context, context.CancelFunc) {
	return context.WithDeadlineCause(parent, t, cause)
}

// ContextAfterFunc replaces context.AfterFunc; f runs in a controlled
// goroutine.
func ContextAfterFunc(ctx context.Context, f func(), s Site) (stop func() bool) {
	return context.AfterFunc(ctx, f)
}

// WithoutCancel replaces context.WithoutCancel.
func WithoutCancel(parent context.Context, s Site) context.Context {
	return context.WithoutCancel(parent)
}

// Cause replaces context.Cause.
func Cause(ctx context.Context, s Site) error { return context.Cause(ctx) }
