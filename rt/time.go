package rt

import "time"

// Sleep replaces time.Sleep.
func Sleep(d time.Duration, s Site) { time.Sleep(d) }

// After replaces time.After.
func After(d time.Duration, s Site) <-chan time.Time { return time.After(d) }

// Tick replaces time.Tick.
func Tick(d time.Duration, s Site) <-chan time.Time { return time.Tick(d) }

// NewTimer replaces time.NewTimer.
func NewTimer(d time.Duration, s Site) *time.Timer { return time.NewTimer(d) }

// AfterFunc replaces time.AfterFunc; f runs in a controlled goroutine.
func AfterFunc(d time.Duration, f func(), s Site) *time.Timer { return time.AfterFunc(d, f) }

// TimerStop replaces (*time.Timer).Stop.
func TimerStop(t *time.Timer, s Site) bool { return t.Stop() }

// TimerReset replaces (*time.Timer).Reset.
func TimerReset(t *time.Timer, d time.Duration, s Site) bool { return t.Reset(d) }

// NewTicker replaces time.NewTicker.
func NewTicker(d time.Duration, s Site) *time.Ticker { return time.NewTicker(d) }

// TickerStop replaces (*time.Ticker).Stop.
func TickerStop(t *time.Ticker, s Site) { t.Stop() }

// TickerReset replaces (*time.Ticker).Reset.
func TickerReset(t *time.Ticker, d time.Duration, s Site) { t.Reset(d) }

// Now replaces time.Now.
func Now(s Site) time.Time { return time.Now() }

// Since replaces time.Since.
func Since(t time.Time, s Site) time.Duration { return time.Since(t) }

// Until replaces time.Until.
func Until(t time.Time, s Site) time.Duration { return time.Until(t) }
