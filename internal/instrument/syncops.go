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
}

// methodTable maps "pkgpath.Type.Method" to its replacement. Methods of
// sync.Locker are called through the interface value; all the others have
// pointer receivers, except those marked value.
var methodTable = buildMethodTable()

func buildMethodTable() map[string]methodEntry {
	m := map[string]methodEntry{
		"sync.Mutex.Lock":    {rt: "Lock"},
		"sync.Mutex.Unlock":  {rt: "Unlock"},
		"sync.Mutex.TryLock": {rt: "TryLock"},

		"sync.RWMutex.Lock":     {rt: "RWLock"},
		"sync.RWMutex.Unlock":   {rt: "RWUnlock"},
		"sync.RWMutex.TryLock":  {rt: "RWTryLock"},
		"sync.RWMutex.RLock":    {rt: "RLock"},
		"sync.RWMutex.RUnlock":  {rt: "RUnlock"},
		"sync.RWMutex.TryRLock": {rt: "TryRLock"},
		"sync.RWMutex.RLocker":  {rt: "RLocker", noSite: true},

		"sync.Locker.Lock":   {rt: "LockerLock"},
		"sync.Locker.Unlock": {rt: "LockerUnlock"},

		"sync.WaitGroup.Add":  {rt: "WGAdd"},
		"sync.WaitGroup.Done": {rt: "WGDone"},
		"sync.WaitGroup.Wait": {rt: "WGWait"},
		"sync.WaitGroup.Go":   {rt: "WGGo"},

		"sync.Once.Do": {rt: "OnceDo"},

		"sync.Pool.Get": {rt: "PoolGet"},
		"sync.Pool.Put": {rt: "PoolPut"},

		"sync.Cond.Wait":      {rt: "CondWait"},
		"sync.Cond.Signal":    {rt: "CondSignal"},
		"sync.Cond.Broadcast": {rt: "CondBroadcast"},

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
		"reflect.Value.Len":     {rt: "ReflectLen", value: true},
		"reflect.Value.Send":    {rt: "ReflectSend", value: true},
		"reflect.Value.TrySend": {rt: "ReflectTrySend", value: true},
		"reflect.Value.Recv":    {rt: "ReflectRecv", value: true},
		"reflect.Value.TryRecv": {rt: "ReflectTryRecv", value: true},
		"reflect.Value.Close":   {rt: "ReflectClose", value: true},

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
		m["sync.Map."+op] = methodEntry{rt: "Map" + op}
	}
	for _, t := range []string{"Int32", "Int64", "Uint32", "Uint64", "Uintptr"} {
		for _, op := range []string{"Add", "Load", "Store", "Swap", "CompareAndSwap", "And", "Or"} {
			m["sync/atomic."+t+"."+op] = methodEntry{rt: t + op}
		}
	}
	for _, t := range []string{"Bool", "Pointer", "Value"} {
		for _, op := range []string{"Load", "Store", "Swap", "CompareAndSwap"} {
			m["sync/atomic."+t+"."+op] = methodEntry{rt: t + op}
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
