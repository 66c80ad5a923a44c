package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/wire"
)

// realModule is a module from the Go module proxy whose own tests run
// under interleave with default flags; every finding it may report is
// explained in docs/real-modules.md.
type realModule struct {
	path, version string
	packages      []string // "." for the module's root package
	schedules     int
	budget        time.Duration // per test (default a minute)
	goFlags       []string
	// findings are the tests that may report with the default flags, with
	// the kind they report ("a|b": either). A finding of any other test,
	// or of another kind, fails the check.
	findings map[string]string
	// policies lists other timer policies the module is checked under,
	// with their findings: the evidence for the default (stall).
	policies map[string]map[string]string
}

// leakyConcTests leave a pool worker blocked: their "before wait"
// subtests call Go and never Wait.
var leakyConcTests = map[string]string{
	"TestPool": "goroutine leak", "TestErrorPool": "goroutine leak", "TestContextPool": "goroutine leak",
	"TestResultGroup": "goroutine leak", "TestResultErrorGroup": "goroutine leak", "TestResultContextPool": "goroutine leak",
}

var realModules = []realModule{{
	path: "golang.org/x/sync", version: "v0.24.0",
	packages:  []string{"errgroup", "semaphore", "singleflight", "syncmap"},
	schedules: 100,
	policies: map[string]map[string]string{
		"idle": {},
		// Tests that assume a timer cannot fire while work is runnable.
		"eager": {"TestWeightedAcquire": "panic|test failure", "TestPanicDo": "test failure", "TestGoexitDo": "test failure"},
	},
}, {
	path: "golang.org/x/time", version: "v0.16.0",
	packages:  []string{"rate"},
	schedules: 100,
	policies: map[string]map[string]string{
		"idle":  {},
		"eager": {"TestWaitTimeout": "test failure"},
	},
}, {
	path: "github.com/sourcegraph/conc", version: "v0.3.0",
	packages:  []string{".", "internal/multierror", "iter", "panics", "pool", "stream"},
	schedules: 30,
	findings:  leakyConcTests,
}, {
	// A connection pool: it synchronizes through golang.org/x/sync's
	// semaphore, a dependency, instrumented by default.
	path: "github.com/jackc/puddle/v2", version: "v2.2.3",
	packages:  []string{".", "internal/genstack"},
	schedules: 20,
	findings:  map[string]string{"TestPoolStatSuccessfulAcquireCounters": "data race"},
}, {
	// A rate limiter whose tests drive a mock clock, a dependency
	// (github.com/benbjohnson/clock), instrumented by default.
	path: "go.uber.org/ratelimit", version: "v0.3.1",
	packages:  []string{"."},
	schedules: 20,
	findings: map[string]string{
		"TestRateLimiter": "deadlock|test failure|goroutine leak", "TestPer": "deadlock|test failure|goroutine leak",
		"TestDelayedRateLimiter": "deadlock|test failure|goroutine leak", "TestInitial": "deadlock|test failure|goroutine leak",
		"TestMaxSlack": "deadlock|test failure|goroutine leak", "TestSlack": "deadlock|test failure|goroutine leak",
	},
}, {
	path: "github.com/alitto/pond", version: "v1.9.2",
	packages:  []string{"."},
	schedules: 20,
	findings: map[string]string{
		// Pools the tests never stop: their workers and purger outlive
		// the test.
		"TestNew": "goroutine leak", "TestNewWithInconsistentOptions": "goroutine leak",
		"TestPurgeAfterPoolStopped": "goroutine leak", "TestGroupSubmit": "goroutine leak",
		"TestGroupContext": "goroutine leak", "TestGroupContextWithError": "goroutine leak",
		"TestGroupContextWithNilContext": "goroutine leak",
		"TestSubmitAndStopWaitFor":       "goroutine leak",
		// The same, or: every task has ended when Wait selects between
		// the tasks' completion and the canceled context, both ready, and
		// it takes the completion and returns nil.
		"TestGroupContextWithCanceledContext": "goroutine leak|test failure",
		// Stop's goroutine cancels the pool after the worker took the
		// next task, which blocks on a channel the test no longer reads.
		"TestSubmitAndStopWithoutWaiting": "deadlock",
	},
}, {
	// Its tests use testing/synctest.
	path: "github.com/gammazero/workerpool", version: "v1.3.0",
	packages:  []string{".", "pacer"},
	schedules: 20,
}, {
	path: "github.com/hashicorp/golang-lru/v2", version: "v2.0.7",
	packages:  []string{".", "expirable", "simplelru", "internal"},
	schedules: 20,
	findings: map[string]string{
		// expirable.NewLRU starts a goroutine that nothing stops, as
		// its source says.
		"TestLRUWithPurge": "goroutine leak", "TestLRUWithPurgeEnforcedBySize": "goroutine leak",
		"TestLoadingExpired": "goroutine leak",
	},
}, {
	// A module without a go.mod (+incompatible).
	path: "github.com/patrickmn/go-cache", version: "v2.1.0+incompatible",
	packages:  []string{"."},
	schedules: 20,
	// The janitor goroutine outlives the test: only a finalizer stops it.
	findings: map[string]string{"TestCacheTimes": "goroutine leak"},
}, {
	path: "github.com/cenkalti/backoff/v4", version: "v4.3.0",
	packages:  []string{"."},
	schedules: 20,
	// go vet (run by go test) rejects an example's name in this version.
	goFlags: []string{"-vet=off"},
	// The tests leave the loop over ticker.C without stopping the ticker.
	findings: map[string]string{"TestTicker": "goroutine leak", "TestTickerDefaultTimer": "goroutine leak"},
}, {
	path: "github.com/sony/gobreaker", version: "v1.0.0",
	packages:  []string{"."},
	schedules: 20,
	// TestCircuitBreakerInParallel sends 100,000 requests through the
	// breaker: one schedule takes minutes, and it is not explored.
	budget: 10 * time.Second,
	findings: map[string]string{
		// The tests read the breaker's counts while a goroutine they
		// started updates them (go test -race reports both too);
		// breakers in package variables, shared by the tests, make
		// TestGeneration's race show only when it is explored afresh.
		"TestCustomCircuitBreaker": "data race", "TestGeneration": "data race",
		"TestPanicInRequest":           "unrepeatable",
		"TestCircuitBreakerInParallel": "not explored",
	},
}, {
	path: "github.com/orcaman/concurrent-map/v2", version: "v2.0.1",
	packages:  []string{"."},
	schedules: 20,
}, {
	path: "github.com/panjf2000/ants/v2", version: "v2.12.1",
	packages:  []string{".", "pkg/sync"},
	schedules: 5,
	// Skipped: tests that submit up to a million tasks, too long for one
	// schedule (a resource limit at the budget, not a bug), and the
	// GetWorkerFromCache family, at the budget on a loaded machine.
	goFlags: []string{"-skip", "GetWorkerFromCache|WaitToGetWorker|^TestNoPool$|^TestAntsPool$|^TestRebootDefaultPool$|^TestRestCodeCoverage$|^TestPoolTuneScaleUp$|^TestDefaultPoolRelease(Timeout|Context)$"},
	findings: map[string]string{
		// Reboot replaces p.once while the last worker of the released
		// pool has yet to read it.
		"TestRebootNewPool": "data race", "TestMultiPool": "data race", "TestMultiPoolWithFunc": "data race",
		"TestMultiPoolWithFuncGeneric": "data race", "TestMultiPoolReleaseContext": "data race",
		"TestRebootNewPoolCalc": "data race", "TestRebootNewPoolWithPreAllocCalc": "data race",
		// The tests submit before the worker that closed their channel
		// went back to the pool.
		"TestNonblockingSubmit": "test failure", "TestNonblockingSubmitWithFunc": "test failure",
		"TestNonblockingSubmitWithFuncGeneric": "test failure",
		// Nine tasks spin on a package flag the test never sets.
		"TestMaxBlockingSubmit": "goroutine leak",
		// The pool is never released: its purge and clock goroutines.
		"TestInfinitePool": "goroutine leak",
	},
}, {
	path: "github.com/puzpuzpuz/xsync/v3", version: "v3.5.1",
	packages:  []string{"."},
	schedules: 5,
	// Skipped: the parallel, resize and snapshot tests do millions of
	// operations, too long for one schedule (a resource limit, not a
	// bug); the blocking MPMC queue and size tests are near the budget on
	// a loaded machine; the mixed RBMutex and custom hasher tests pass
	// but take the longest of the rest (this module's share of the
	// check's time).
	goFlags: []string{"-skip", "Parallel|Resize|AtomicSnapshot|Presized|CounterLenLimit|DoesNotLoseEntries|^TestMPMCQueue(Of)?BlockingCalls$|^TestMap(Of)?Size$|^TestRBMutex_(Optimistic|Mixed)$|^TestMapOfWithHasher"},
}, {
	// Singleflight, an LRU and a consistent hash (the root package's
	// tests start HTTP servers and child processes).
	path: "github.com/golang/groupcache", version: "v0.0.0-20241129210726-2c02b8208cf8",
	packages:  []string{"consistenthash", "lru", "singleflight"},
	schedules: 20,
}, {
	// A fake clock: its timers, tickers and the goroutines waiting on them.
	path: "github.com/jonboulle/clockwork", version: "v0.5.0",
	packages:  []string{"."},
	schedules: 20,
	// Skipped: TestAfterDeliveryInOrder makes 102,000 fake timers and
	// sorts the clock's waiters at each, half a minute a schedule.
	goFlags: []string{"-skip", "^TestAfterDeliveryInOrder$"},
	// The test's Sleep waits for an Advance that may have run before it.
	findings: map[string]string{"TestFakeClockRace": "goroutine leak"},
}, {
	// Deadlines, batches and breakers: timers racing with work.
	path: "github.com/eapache/go-resiliency", version: "v1.7.0",
	packages:  []string{"batcher", "breaker", "deadline", "retrier", "semaphore"},
	schedules: 20,
	findings: map[string]string{
		// Tests that assume work finishes within a few milliseconds; each
		// fails natively too on a loaded machine.
		"TestDeadline": "test failure", "TestBatcherMultipleBatches": "test failure",
		// The test's sum is unsynchronized, and a Shutdown that comes
		// before every Run submitted splits the work into two batches,
		// summed at once: a race go test -race reports under load too.
		"TestShutdownSuccess": "data race",
		// The error's timestamp is taken after the test's sleep began.
		"TestBreakerErrorExpiry": "test failure",
	},
}, {
	path: "github.com/bluele/gcache", version: "v0.0.2",
	packages:  []string{"."},
	schedules: 20,
	// Skipped: tests that start 1000 goroutines per cache type, 10 to
	// 40 seconds each.
	goFlags: []string{"-skip", "^TestLoader(ExpireFuncWith(out)?Expire|PurgeVisitorFunc|Func)$|^TestSimpleUnboundedNoEviction$"},
}, {
	// A module without a go.mod (go 1.16: rand.Seed seeds).
	path: "github.com/rcrowley/go-metrics", version: "v0.0.0-20250401214520-65e299d6c5c9",
	packages:  []string{"."},
	schedules: 20,
	findings: map[string]string{
		// The package's meter arbiter (NewMeter), and the tests' own
		// arbiters, tick forever.
		"TestDebugGCStatsDoubleRegister": "goroutine leak", "TestMeterConcurrency": "goroutine leak",
		"TestMeterDecay": "goroutine leak",
		// It expects the values of rand.Seed(1) that an earlier test
		// left in the global source: it fails alone natively too.
		"TestUniformSampleSnapshot": "test failure",
	},
}, {
	path: "github.com/allegro/bigcache/v3", version: "v3.1.0",
	packages:  []string{".", "queue"},
	schedules: 20,
	// Skipped: tests that run for seconds of virtual time or millions of
	// operations (at the choice bound or the budget, not a bug).
	goFlags: []string{"-skip", "^Test(CacheInitialCapacity|EntriesIteratorParallelAdd|ParallelSetAndIteration|CacheDelRandomly)$"},
	// Caches whose cleaner goroutine the tests never stop (Close).
	findings: map[string]string{
		"TestWriteAndGetOnCache": "goroutine leak", "TestAppendAndGetOnCache": "goroutine leak",
		"TestAppendRandomly": "goroutine leak", "TestCleanShouldEvictAll": "goroutine leak",
		"TestCacheDel": "goroutine leak", "TestWriteAndReadParallelSameKeyWithStats": "goroutine leak",
		"TestBigCache_GetWithInfo": "goroutine leak", "TestCache_RepeatedSetWithBiggerEntry": "goroutine leak",
	},
}, {
	path: "github.com/VictoriaMetrics/fastcache", version: "v1.13.2",
	packages:  []string{"."},
	schedules: 20,
	// Skipped: tests of millions of operations or of files of
	// megabytes, a minute or more.
	goFlags: []string{"-skip", "^Test(CacheWrap|SaveLoadFile|SaveLoadConcurrent|CacheGetSetConcurrent|SetGetBig)$"},
}}

// moreRealModules are run only with -realmodules.all: schedulers, stream
// multiplexers, clocks, caches and the like, each with its findings
// explained in docs/real-modules.md like those of realModules.
var moreRealModules = []realModule{{
	// A cron scheduler: its tests wait seconds of real time for jobs.
	path: "github.com/robfig/cron/v3", version: "v3.0.1",
	packages:  []string{"."},
	schedules: 100,
}, {
	// A mock clock; ratelimit above uses an older version.
	path: "github.com/benbjohnson/clock", version: "v1.3.5",
	packages:  []string{"."},
	schedules: 100,
	// Goroutines that add timers each tick the same due timer: a send
	// past its channel's one slot blocks with the clock's lock held.
	// The ticker tests wait for the ticker's goroutine with a 1ms sleep
	// (gosched); when it ends first, the check fails and its message
	// reads the counter plainly while the goroutine adds to it
	// atomically: a race on the failure path.
	findings: map[string]string{"TestMock_AfterRace": "deadlock",
		"TestMock_Ticker_Reset": "data race", "TestMock_Ticker_Stop_Reset": "data race"},
}, {
	path: "github.com/avast/retry-go/v4", version: "v4.7.0",
	packages:  []string{".", "examples"},
	schedules: 100,
}, {
	// A TTL cache with a cleaner goroutine.
	path: "github.com/jellydator/ttlcache/v3", version: "v3.4.1",
	packages:  []string{"."},
	schedules: 100,
	// The second, "no-op" Start runs after the test's Stop and starts a
	// cleaner that nobody stops.
	findings: map[string]string{"Test_Cache_Start": "goroutine leak"},
}, {
	// In-process pub/sub, and its net/rpc flavour over HTTP on fixed
	// ports (a module without a go.mod).
	path: "github.com/asaskevich/EventBus", version: "v0.0.0-20200907212545-49d423059eef",
	packages:  []string{"."},
	schedules: 100,
	// Server.Stop and Client.Stop never close their listener on a fixed
	// port, and Start ignores Listen's error: the run after the first,
	// in this process or a fresh one while it lives, serves a nil
	// listener (a panic in net/http) or fails the test, as go test
	// -count=2 does. (Each test alone is not explored, for that reason;
	// after other tests it is reported.) The goroutine of http.Serve
	// left in a real Accept is a never-stops note.
	findings: map[string]string{
		"TestNewServer": "panic|test failure", "TestNewClient": "panic|test failure",
		"TestServerPublish": "panic|test failure", "TestNetworkBus": "panic|test failure",
	},
}, {
	// A run group: actors that interrupt each other (oklog/run).
	path: "github.com/oklog/run", version: "v1.2.0",
	packages:  []string{"."},
	schedules: 100,
	budget:    20 * time.Second,
}, {
	// Retries with backoff under a context.
	path: "github.com/sethvargo/go-retry", version: "v0.5.0",
	packages:  []string{"."},
	schedules: 100,
	budget:    20 * time.Second,
}, {
	// A circuit breaker; the first slice has v1, whose tests raced.
	path: "github.com/sony/gobreaker/v2", version: "v2.4.0",
	packages:  []string{"."},
	schedules: 100,
	budget:    20 * time.Second,
}, {
	// Retries and a backoff ticker; the first slice has v4.
	path: "github.com/cenkalti/backoff/v5", version: "v5.0.3",
	packages:  []string{"."},
	schedules: 100,
	budget:    20 * time.Second,
	// Skipped: ExampleRetry gets http://httpbin.org, out of reach here,
	// and retries for 15 minutes (natively it ran out of go test's 10).
	goFlags: []string{"-skip", "^ExampleRetry$"},
}, {
	// A pub/sub bus: one goroutine serves every command.
	path: "github.com/cskr/pubsub", version: "v1.0.2",
	packages:  []string{"."},
	schedules: 100,
	budget:    20 * time.Second,
	// TryPub returns once the bus has the command, not once it is done:
	// the test's receive frees the slot the second message then takes.
	findings: map[string]string{"TestTryPub": "test failure"},
}, {
	// A mock clock whose traps and tickers hold the test through an
	// interface of their own (their cleanups stop goroutines).
	path: "github.com/coder/quartz", version: "v0.3.1",
	packages:  []string{"."},
	schedules: 100,
	budget:    20 * time.Second,
}, {
	// A cache whose items expire on timers (no release: a pseudo-version).
	path: "github.com/muesli/cache2go", version: "v0.0.0-20221011235721-518229cd8021",
	packages:  []string{"."},
	schedules: 100,
	budget:    20 * time.Second,
}, {
	// A lock-free hash map.
	path: "github.com/alphadose/haxmap", version: "v1.4.0",
	packages:  []string{"."},
	schedules: 100,
	budget:    20 * time.Second,
	// Skipped: TestMapParallel cannot finish one schedule: its watchdog
	// goroutines spin on a closed channel for ever (a resource limit).
	goFlags: []string{"-skip", "^TestMapParallel$"},
	// 112,050 Sets in one goroutine: one schedule takes about the budget.
	findings: map[string]string{"TestInfiniteLoop": "not explored"},
}, {
	// A job scheduler: triggers, retries, a job queue.
	path: "github.com/reugn/go-quartz", version: "v0.15.2",
	packages:  []string{"job", "logger", "matcher", "quartz", "internal/assert", "internal/csm", "internal/mock"},
	schedules: 100,
	budget:    20 * time.Second,
}, {
	// libp2p's fork of yamux, over net.Pipe and loopback TCP.
	path: "github.com/libp2p/go-yamux/v5", version: "v5.1.0",
	packages:  []string{"."},
	schedules: 100,
	budget:    20 * time.Second,
	// Skipped: tests whose one schedule outlives the 20s budget (streams
	// of megabytes, a ping flood, many streams: not explored, not a bug).
	goFlags: []string{"-skip", "^Test(Session_PingOfDeath|SendData_(Large|VeryLarge)|ManyStreams_PingPong|InitialStreamWindow|SessionCloseDeadlock)$"},
	findings: map[string]string{
		// The receive loop wakes the stream's reader before it removes
		// the stream from the session; the test counts streams between.
		"TestSendData_Small": "test failure",
		// docs/real-modules.md, "Found running libp2p/go-yamux": the
		// words of a 32 MiB copy, modeled one by one, pass the -objects
		// bound on the first schedule: not explored (once the watchdog
		// called the copy stuck, before the smaller word models).
		"TestWindowOverflow": "not explored",
		// One schedule takes about the budget.
		"TestManyStreams": "not explored",
	},
}, {
	// A worker pool with groups, subpools and results; v1 is in the
	// first slice.
	path: "github.com/alitto/pond/v2", version: "v2.7.1",
	packages:  []string{".", "internal/assert", "internal/future", "internal/linkedbuffer"},
	schedules: 100,
	budget:    20 * time.Second,
	// Skipped: one schedule of TestSubpoolStopAndWait outlives the budget.
	goFlags: []string{"-skip", "^TestSubpoolStopAndWait$"},
	// The tests read the pool's counters as soon as a task's Wait
	// returns; the worker counts the task only after its future resolved.
	findings: map[string]string{
		"TestTaskGroupWaitShouldNotDeadlockWhenPoolContextCanceledWithQueuedTasks": "test failure",
		"TestPoolWithQueueSizeZero": "test failure", "TestResultPoolSubmitContextCanceled": "test failure",
	},
}, {
	// A generic cache with eviction policies and a janitor goroutine
	// that expires items on a ticker.
	path: "github.com/Code-Hex/go-generics-cache", version: "v1.5.1",
	packages: []string{".", "policy/clock", "policy/fifo", "policy/internal/policyutil", "policy/lfu",
		"policy/lru", "policy/mru", "policy/simple"},
	schedules: 100,
	budget:    20 * time.Second,
}, {
	// A stream multiplexer over loopback TCP and net.Pipe.
	path: "github.com/hashicorp/yamux", version: "v0.1.2",
	packages:  []string{"."},
	schedules: 100,
	// Skipped: tests that move megabytes to gigabytes through the
	// streams, at the budget or the choice bound in one schedule (not a
	// bug), and three that use the whole budget for 5 to 89 schedules
	// (most of this module's time).
	goFlags: []string{"-skip", "^Test(SendData_(Small|Large|VeryLarge)|ManyStreams(_PingPong)?|KeepAlive)$"},
	// The server reads the data and sends a window update while the
	// client closes its session: written after the close, the update
	// meets a reset, the server's session fails, and stream2.Read
	// returns "connection reset by peer" instead of the data
	// (session_test.go:971). A true race of the test, over real TCP: the
	// kernel's reset is not always repeated alike on replay.
	findings: map[string]string{"TestHalfCloseSessionShutdown": "unrepeatable|test failure"},
}, {
	// A job scheduler over a clock interface (clockwork), whose real
	// timers it stops through the interface.
	path: "github.com/go-co-op/gocron/v2", version: "v2.21.2",
	packages:  []string{"."},
	schedules: 100,
	budget:    20 * time.Second,
	findings: map[string]string{
		// stopScheduler signals StopJobs before it clears started: a
		// second Start in between does nothing (and a Shutdown after it
		// then times out).
		"TestSchedulerMonitor_MultipleStartStop": "test failure",
		"TestScheduler_Shutdown":                 "test failure",
		// ShutdownWithContext cancels, then reads started: when the
		// scheduler goroutine stops the executor and clears started in
		// between, Shutdown returns nil without telling the monitor
		// (SchedulerShutdown never called), its stopErrCh left full.
		"TestSchedulerMonitor_StartWithoutJobs":    "test failure",
		"TestSchedulerMonitor_IntegrationWithJobs": "test failure",
		// selectStart loops for good on a one-time job whose time has
		// passed (10ms pass before Start).
		"TestScheduler_JobsWaitingInQueue": "livelock",
		// 1000 jobs every 100ms for a second: one schedule outlives
		// the budget.
		"TestScheduler_ManyJobs": "not explored",
	},
}, {
	// A cache with weak references, clean-up goroutines, lossy striped
	// buffers and a timer wheel: its internal packages, and the cache
	// tests that once showed defects of ours (collection, allocation
	// counts, pulled sequences; docs/real-modules.md). The whole cache
	// package outlives go test's ten minutes.
	path: "github.com/maypok86/otter/v2", version: "v2.4.0",
	// Every package the tested ones import is copied, and tested as far
	// as -run selects.
	packages: []string{".", "internal/deque", "internal/deque/queue", "internal/expiration", "internal/generated/node",
		"internal/hashmap", "internal/lossy", "internal/xiter", "internal/xmath", "internal/xruntime", "internal/xsync", "stats"},
	schedules: 100,
	budget:    20 * time.Second,
	goFlags: []string{
		"-run", "^TestCache_(GC|GCWithCallbackHoldingTheCache|ScheduleDrainBuffersDoesNotAllocate|Eviction|Coldest|Hottest|StopAllGoroutinesWhileIterating|IterationVisitsKeysReplacedDuringIt|SkippedTickCleansUpOnceTheLockIsReleased|PanicInExecutorDoesNotStopMaintenance)$|^Test(NewMPSC|MPSC_|Wheel_|Ring_|NewStriped|Striped_|Padding|Adder|Hasher_|HashUint64|ToUint64|StackHash|HashStack|Counter_|NoopRecorder|Stats)",
		// Millions of operations: one schedule outlives the budget.
		"-skip", "^Test(MPSC_KeepsTheOrderOfEachProducer|AdderParallelIncrementors)$",
	},
}}

var (
	realModulesStrategy = flag.String("realmodules.strategy", "", "run TestRealModules under this strategy (default random)")
	realModulesOnly     = flag.String("realmodules.only", "", "run TestRealModules on the modules whose path matches this regexp")
	realModulesBound    = flag.Int("realmodules.preemptions", 0, "the preemption bound of the strategy (pcb, dpor)")
	realModulesReduce   = flag.Bool("realmodules.reduce", false, "run TestRealModules with -reduce")
	realModulesAll      = flag.Bool("realmodules.all", false, "run TestRealModules on moreRealModules too")
	realModulesSched    = flag.Int("realmodules.schedules", 0, "schedules per test for every module (default each module's own)")
	realModulesBudget   = flag.Duration("realmodules.budget", 0, "budget per test for every module (default each module's own)")
)

// TestRealModules copies packages of real modules from the module cache
// into temporary modules and runs their own tests under interleave
// (docs/real-modules.md), with default flags: only the listed tests may
// report, with the listed kind. x/sync and x/time are also run under the
// other timer policies, where a timing report must say that its schedule
// fired a timer early.
//
// -realmodules.strategy runs them under another strategy (the check any
// strategy passes before it is called done: a finding not listed is one
// to explain), with -realmodules.preemptions and -realmodules.reduce, and
// -realmodules.only narrows the modules. -realmodules.all adds the
// modules of moreRealModules, a second slice that CI does not run.
// -realmodules.schedules and -realmodules.budget give every module the
// same (the corpus's measure: 100 schedules and 20s a test), where a
// finding not listed is one to explain.
func TestRealModules(t *testing.T) {
	if testing.Short() {
		t.Skip("explores the tests of real modules (minutes)")
	}
	only, err := regexp.Compile(*realModulesOnly)
	if err != nil {
		t.Fatalf("-realmodules.only: %v", err)
	}
	modules := realModules
	if *realModulesAll {
		modules = append(slices.Clip(modules), moreRealModules...)
	}
	for _, m := range modules {
		if !only.MatchString(m.path) {
			continue
		}
		if *realModulesSched > 0 {
			m.schedules = *realModulesSched
		}
		if *realModulesBudget > 0 {
			m.budget = *realModulesBudget
		}
		t.Run(m.path, func(t *testing.T) {
			dir, patterns := copyModule(t, m)
			cache := t.TempDir()
			checkRealModule(t, m, dir, patterns, cache, "", m.findings)
			for _, policy := range []string{"idle", "eager"} {
				if want, ok := m.policies[policy]; ok {
					checkRealModule(t, m, dir, patterns, cache, policy, want)
				}
			}
		})
	}
}

// copyModule copies m's packages from the module cache into a temporary
// module and returns its directory and the packages' patterns.
func copyModule(t *testing.T, m realModule) (dir string, patterns []string) {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", m.path+"@"+m.version).Output()
	if err != nil {
		t.Skipf("%s@%s is neither in the module cache nor downloadable: %v", m.path, m.version, err)
	}
	var mod struct{ Version, Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		if _, err := os.Stat(filepath.Join(mod.Dir, f)); err == nil {
			copyTree(t, filepath.Join(mod.Dir, f), filepath.Join(dir, f))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		// A module without a go.mod builds as go 1.16, as the go command
		// builds it as a dependency.
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+m.path+"\n\ngo 1.16\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pkg := range m.packages {
		if pkg == "." {
			copyGoFiles(t, mod.Dir, dir)
			// The root package's test files, as a subpackage's are
			// copied with its directory (yamux's certificates).
			if _, err := os.Stat(filepath.Join(mod.Dir, "testdata")); err == nil {
				copyTree(t, filepath.Join(mod.Dir, "testdata"), filepath.Join(dir, "testdata"))
			}
		} else {
			copyTree(t, filepath.Join(mod.Dir, pkg), filepath.Join(dir, pkg))
		}
		patterns = append(patterns, "./"+pkg)
	}
	if b, err := exec.Command("go", "-C", dir, "mod", "download").CombinedOutput(); err != nil {
		t.Skipf("the dependencies of %s cannot be had: %v\n%s", m.path, err, b)
	}
	return dir, patterns
}

// checkRealModule runs m's tests under the timer policy ("" for the
// default) and checks that only the tests in want report, each with its
// kind.
func checkRealModule(t *testing.T, m realModule, dir string, patterns []string, cache, policy string, want map[string]string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	start := time.Now()
	res, err := driver.Test(context.Background(), driver.Options{
		Dir:        dir,
		Patterns:   patterns,
		GoFlags:    append([]string{"-v", "-timeout=20m"}, m.goFlags...),
		Config:     wire.Config{Strategy: *realModulesStrategy, Preemptions: *realModulesBound, Reduce: *realModulesReduce, Schedules: m.schedules, Seed: 1, Budget: wire.Duration(cmp.Or(m.budget, time.Minute)), Timers: policy},
		Instrument: instrumentFile,
		CacheDir:   cache,
		Stdout:     &stdout,
		Stderr:     &stderr,
	})
	if err != nil {
		t.Fatalf("interleave test: %v\n%s", err, stderr.String())
	}
	if res.BuildFailed {
		t.Fatalf("a package did not build instrumented:\n%s", stderr.String())
	}
	name := policy
	if name == "" {
		name = "default"
	}
	t.Logf("%s %s, strategy %s, timers %s, %d schedules per test, %s, exit %d", m.path, m.version, cmp.Or(*realModulesStrategy, "random"), name, m.schedules, time.Since(start).Round(time.Second), res.ExitCode())
	timing := 0
	for _, r := range res.Results {
		msg, _, _ := strings.Cut(r.Message, "\n")
		t.Logf("| %s | %s | %s %s | %d | %.1fs | %s |", r.Package, r.Test, r.Outcome, r.Kind, r.Schedules, r.Seconds, msg)
		kind := r.Kind
		switch r.Outcome {
		case wire.OutcomePass, wire.OutcomeSkip:
			continue
		case wire.OutcomeUnrepeatable:
			kind = "unrepeatable"
		case wire.OutcomeNotExplored:
			kind = "not explored"
		}
		if k, ok := want[r.Test]; !ok || !strings.Contains("|"+k+"|", "|"+kind+"|") {
			t.Errorf("timers %s: %s: unexpected %s %s: %s", name, r.Test, r.Outcome, r.Kind, r.Message)
		}
		if policy == "eager" && r.Kind != "goroutine leak" {
			timing++
		}
	}
	if notes := strings.Count(stdout.String(), "timing: the "); notes < timing {
		t.Errorf("%d timing findings but %d reports explain an early timer:\n%s", timing, notes, stdout.String())
	}
	if out := stdout.String(); t.Failed() {
		t.Logf("output (last 20000 bytes):\n%s", out[max(0, len(out)-20000):])
	}
}

// copyGoFiles copies the files (not the directories) of src to dst.
func copyGoFiles(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			copyTree(t, filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()))
		}
	}
}

// copyTree copies the file or directory src to dst, with writable modes
// (the module cache is read-only).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
