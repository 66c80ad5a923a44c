package instrument

import (
	"go/types"
)

// funcTable maps package path and function name to the runtime function
// that replaces it.
var funcTable = map[string]map[string]string{
	"sync": {
		"OnceFunc":   "OnceFunc",
		"OnceValue":  "OnceValue",
		"OnceValues": "OnceValues",
	},
	"sync/atomic": atomicFuncs(),
	"time": {
		"Sleep":     "Sleep",
		"After":     "After",
		"Tick":      "Tick",
		"NewTimer":  "NewTimer",
		"AfterFunc": "AfterFunc",
		"NewTicker": "NewTicker",
		"Now":       "Now",
		"Since":     "Since",
		"Until":     "Until",
	},
	"context": {
		"WithCancel":        "WithCancel",
		"WithCancelCause":   "WithCancelCause",
		"WithTimeout":       "WithTimeout",
		"WithTimeoutCause":  "WithTimeoutCause",
		"WithDeadline":      "WithDeadline",
		"WithDeadlineCause": "WithDeadlineCause",
		"AfterFunc":         "ContextAfterFunc",
		"WithoutCancel":     "WithoutCancel",
		"Cause":             "Cause",
	},
	// A sort writes only the elements it moves (rt/sort.go).
	"slices": {
		"Sort":           "SlicesSort",
		"SortFunc":       "SlicesSortFunc",
		"SortStableFunc": "SlicesSortStableFunc",
	},
	"sort": {
		"Ints":        "SortInts",
		"Float64s":    "SortFloat64s",
		"Strings":     "SortStrings",
		"Slice":       "SortSlice",
		"SliceStable": "SortSliceStable",
	},
	// In-memory pipes block in the model (rt/pipe.go, rt/netpipe.go).
	"io":  {"Pipe": "IOPipe"},
	"net": {"Pipe": "NetPipe"},
	"runtime": {
		"Gosched":      "Gosched",
		"Goexit":       "Goexit",
		"GC":           "GC",
		"SetFinalizer": "SetFinalizer",
		"AddCleanup":   "AddCleanup",
		"ReadMemStats": "ReadMemStats",
	},
	// The allocator's counters, less the tool's own allocations.
	"testing": {
		"AllocsPerRun": "AllocsPerRun",
	},
	// Channel operations through reflect (reflect.Value's below).
	"reflect": {
		"Select": "ReflectSelect",
	},
	// A pulled sequence's coroutine runs as the goroutine that resumes it
	// (rt/pull.go).
	"iter": {
		"Pull":  "Pull",
		"Pull2": "Pull2",
	},
	// An exploration's virtual clock is a synctest bubble of its own.
	"testing/synctest": {
		"Test": "SynctestTest",
		"Wait": "SynctestWait",
	},
}

func atomicFuncs() map[string]string {
	m := make(map[string]string)
	for _, t := range []string{"Int32", "Int64", "Uint32", "Uint64", "Uintptr"} {
		for _, op := range []string{"Add", "Load", "Store", "Swap", "CompareAndSwap", "And", "Or"} {
			m[op+t] = "Atomic" + op + t
		}
	}
	for _, op := range []string{"Load", "Store", "Swap", "CompareAndSwap"} {
		m[op+"Pointer"] = "Atomic" + op + "Pointer"
	}
	return m
}

// methodEntry is the runtime function replacing a method.
type methodEntry struct {
	rt     string
	noSite bool // the runtime function takes no Site
	value  bool // the method has a value receiver, passed as a value
	// kind is the kind of object the receiver is, for the operand of the
	// site (sites.go); 0 when the site names no operand.
	kind byte
}

// methodTable maps "pkgpath.Type.Method" to its replacement. Methods of
// sync.Locker are called through the interface value; all the others have
// pointer receivers, except those marked value.
var methodTable = buildMethodTable()

func buildMethodTable() map[string]methodEntry {
	m := map[string]methodEntry{
		"sync.Mutex.Lock":    {rt: "Lock", kind: lockOperand},
		"sync.Mutex.Unlock":  {rt: "Unlock", kind: lockOperand},
		"sync.Mutex.TryLock": {rt: "TryLock", kind: lockOperand},

		"sync.RWMutex.Lock":     {rt: "RWLock", kind: lockOperand},
		"sync.RWMutex.Unlock":   {rt: "RWUnlock", kind: lockOperand},
		"sync.RWMutex.TryLock":  {rt: "RWTryLock", kind: lockOperand},
		"sync.RWMutex.RLock":    {rt: "RLock", kind: lockOperand},
		"sync.RWMutex.RUnlock":  {rt: "RUnlock", kind: lockOperand},
		"sync.RWMutex.TryRLock": {rt: "TryRLock", kind: lockOperand},
		"sync.RWMutex.RLocker":  {rt: "RLocker", noSite: true},

		"sync.Locker.Lock":   {rt: "LockerLock", kind: lockOperand},
		"sync.Locker.Unlock": {rt: "LockerUnlock", kind: lockOperand},

		"sync.WaitGroup.Add":  {rt: "WGAdd", kind: waitGroupOperand},
		"sync.WaitGroup.Done": {rt: "WGDone", kind: waitGroupOperand},
		"sync.WaitGroup.Wait": {rt: "WGWait", kind: waitGroupOperand},
		"sync.WaitGroup.Go":   {rt: "WGGo", kind: waitGroupOperand},

		"sync.Once.Do": {rt: "OnceDo", kind: onceOperand},

		"sync.Pool.Get": {rt: "PoolGet", kind: poolOperand},
		"sync.Pool.Put": {rt: "PoolPut", kind: poolOperand},

		"sync.Cond.Wait":      {rt: "CondWait", kind: condOperand},
		"sync.Cond.Signal":    {rt: "CondSignal", kind: condOperand},
		"sync.Cond.Broadcast": {rt: "CondBroadcast", kind: condOperand},

		"io.PipeReader.Read":           {rt: "PipeReaderRead"},
		"io.PipeReader.Close":          {rt: "PipeReaderClose"},
		"io.PipeReader.CloseWithError": {rt: "PipeReaderCloseWithError"},
		"io.PipeWriter.Write":          {rt: "PipeWriterWrite"},
		"io.PipeWriter.Close":          {rt: "PipeWriterClose"},
		"io.PipeWriter.CloseWithError": {rt: "PipeWriterCloseWithError"},

		"time.Timer.Stop":   {rt: "TimerStop"},
		"time.Timer.Reset":  {rt: "TimerReset"},
		"time.Ticker.Stop":  {rt: "TickerStop"},
		"time.Ticker.Reset": {rt: "TickerReset"},

		// On a channel the model holds the values in flight and the
		// state: reflect must see and change them there.
		"reflect.Value.Len":     {rt: "ReflectLen", value: true, kind: chanOperand},
		"reflect.Value.Send":    {rt: "ReflectSend", value: true, kind: chanOperand},
		"reflect.Value.TrySend": {rt: "ReflectTrySend", value: true, kind: chanOperand},
		"reflect.Value.Recv":    {rt: "ReflectRecv", value: true, kind: chanOperand},
		"reflect.Value.TryRecv": {rt: "ReflectTryRecv", value: true, kind: chanOperand},
		"reflect.Value.Close":   {rt: "ReflectClose", value: true, kind: chanOperand},

		// A cleanup the program stops is no longer awaited (gc.go).
		"runtime.Cleanup.Stop": {rt: "CleanupStop", value: true},

		// Goroutines of a command that copy into or out of the program's
		// buffers (see rt's exec.go).
		"os/exec.Cmd.Start":  {rt: "CmdStart"},
		"os/exec.Cmd.Wait":   {rt: "CmdWait"},
		"os/exec.Cmd.Run":    {rt: "CmdRun"},
		"os/exec.Cmd.Output": {rt: "CmdOutput"},
	}
	for _, op := range []string{"Load", "Store", "LoadOrStore", "LoadAndDelete", "Delete", "Swap", "CompareAndSwap", "CompareAndDelete", "Range", "Clear"} {
		m["sync.Map."+op] = methodEntry{rt: "Map" + op, kind: syncMapOperand}
	}
	for _, t := range []string{"Int32", "Int64", "Uint32", "Uint64", "Uintptr"} {
		for _, op := range []string{"Add", "Load", "Store", "Swap", "CompareAndSwap", "And", "Or"} {
			m["sync/atomic."+t+"."+op] = methodEntry{rt: t + op, kind: memoryOperand}
		}
	}
	for _, t := range []string{"Bool", "Pointer", "Value"} {
		for _, op := range []string{"Load", "Store", "Swap", "CompareAndSwap"} {
			m["sync/atomic."+t+"."+op] = methodEntry{rt: t + op, kind: memoryOperand}
		}
	}
	return m
}

// lookupMethod returns the runtime replacement of method m.
func lookupMethod(m *types.Func) (methodEntry, bool) {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return methodEntry{}, false
	}
	named, ok := types.Unalias(derefType(sig.Recv().Type())).(*types.Named)
	if !ok {
		return methodEntry{}, false
	}
	e, ok := methodTable[m.Pkg().Path()+"."+named.Obj().Name()+"."+m.Name()]
	return e, ok
}
