package sched

import (
	"strings"
	"testing"
)

func TestStuckWhere(t *testing.T) {
	semaphore := `goroutine 21 [select, 2 minutes]:
runtime.gopark(0x1?, 0x0?, 0x0?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/proc.go:435 +0xce fp=0xc sp=0xc pc=0x4
runtime.selectgo(0xc000, 0xc000, 0x0?, 0x0, 0x0?, 0x1)
	/usr/local/go/src/runtime/select.go:351 +0x837
golang.org/x/sync/semaphore.(*Weighted).Acquire(0xc00, {0x7, 0xc0}, 0x1)
	/root/go/pkg/mod/golang.org/x/sync@v0.1.0/semaphore/semaphore.go:60 +0x2c5
example.com/pool.(*Pool).Get(0xc0)
	/src/pool/pool.go:12 +0x25
interleave.dev/rt/internal/sched.(*Iteration).run(0xc0)
	/cache/runtime/rt/internal/sched/iteration.go:100 +0x25`
	got := stuckWhere(semaphore)
	for _, want := range []string{`"select"`, "golang.org/x/sync/semaphore.(*Weighted).Acquire at semaphore.go:60", "left native"} {
		if !strings.Contains(got, want) {
			t.Errorf("semaphore: %q lacks %q", got, want)
		}
	}
	read := `goroutine 7 [IO wait]:
runtime.gopark(0x1?)
	/usr/local/go/src/runtime/proc.go:435 +0xce
internal/poll.(*pollDesc).waitRead(...)
	/usr/local/go/src/internal/poll/fd_poll_runtime.go:89
net.(*conn).Read(0xc0, {0xc0, 0x1, 0x1})
	/usr/local/go/src/net/net.go:194 +0x45
example.com/client.(*C).Recv(0xc0)
	/src/client/c.go:40 +0x25`
	got = stuckWhere(read)
	for _, want := range []string{`"IO wait"`, "internal/poll.(*pollDesc).waitRead", "called from example.com/client.(*C).Recv at c.go:40", "real I/O"} {
		if !strings.Contains(got, want) {
			t.Errorf("read: %q lacks %q", got, want)
		}
	}
	pull := `goroutine 8 [coroutine]:
runtime.coroswitch(0xc0)
	/usr/local/go/src/runtime/coro.go:137 +0x4b
iter.Pull[...].func2()
	/usr/local/go/src/iter/iter.go:317 +0xd6
example.com/m.TestPull.func1(0xc0)
	/src/m/m_test.go:20 +0x25`
	if got := stuckWhere(pull); !strings.Contains(got, `"coroutine", in iter.Pull[...].func2 at iter.go:317, called from example.com/m.TestPull.func1 at m_test.go:20`) || !strings.Contains(got, "iter.Pull in a call left native") {
		t.Errorf("pull: %q", got)
	}
	wg := `goroutine 9 [sync.WaitGroup.Wait]:
runtime.gopark(0x1?)
	/usr/local/go/src/runtime/proc.go:435 +0xce
sync.(*WaitGroup).Wait(0xc0)
	/usr/local/go/src/sync/waitgroup.go:118 +0x48
interleave.dev/rt/internal/sched.(*Iteration).run(0xc0)
	/cache/runtime/rt/internal/sched/iteration.go:100 +0x25`
	if got := stuckWhere(wg); !strings.Contains(got, "sync.(*WaitGroup).Wait") || !strings.Contains(got, "standard library") {
		t.Errorf("wait group: %q", got)
	}
}
