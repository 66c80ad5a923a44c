// Package rt is the runtime API that instrumented code calls.
//
// The instrumenter rewrites every operation the runtime must see (goroutine
// creation, channel operations, select, sync and sync/atomic calls, time and
// context calls, testing.T methods, and reads and writes of memory that may
// be shared) into a call of this package. Every call takes a Site, the static
// source position of the operation, registered once per file by RegisterFile.
//
// Outside an exploration (package initialization, TestMain, benchmarks,
// goroutines the runtime does not control) every call behaves exactly like
// the operation it replaces. Inside one, started by Test or Explore, the
// calling goroutine reports the operation to the scheduler and waits until
// the strategy lets it proceed; the operation then runs against the
// scheduler's model of the primitive, so that exactly one controlled
// goroutine runs at a time and every interleaving is chosen, recorded and
// replayable.
//
// This API is the contract between the instrumenter and the runtime; it is
// kept small and stable. Names mirror the operation they replace: Lock for
// (*sync.Mutex).Lock, RLock for (*sync.RWMutex).RLock, AtomicAddInt32 for
// atomic.AddInt32, Int32Add for (*atomic.Int32).Add, and so on.
package rt
