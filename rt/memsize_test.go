package rt_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// Accesses have a size: a struct copy reads every byte of the struct, an
// atomic operation is an access that races with unordered plain accesses
// to the same bytes, and accesses to different bytes never race (memory is
// shadowed per 8-byte word, byte-precise within a word, as in Go's race
// detector).

type stats struct {
	hits   uint64
	misses uint64
}

func TestAtomicAddRacesWithStructCopy(t *testing.T) {
	rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", Schedules: 5000, ScheduleDir: "-"}, func() {
		s := &stats{}
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.AtomicAddUint64(&s.hits, 1, 0) }, 0)
		rt.Read(s, 0)
		snapshot := *s
		_ = snapshot
		rt.WGWait(&wg, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "data race" || !strings.Contains(rep.Message, "atomic write") {
		t.Errorf("got %q: %q, want a data race of a read with an atomic write", rep.Kind, rep.Message)
	}
}

func TestStructCopyRacesWithAtomicAdd(t *testing.T) {
	// The other order: the copy first, the atomic add after.
	if k := raceOf(t, func() {
		s := &stats{}
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.Read(s, 0); snapshot := *s; _ = snapshot }, 0)
		rt.AtomicAddUint64(&s.misses, 1, 0)
		rt.WGWait(&wg, 0)
	}); k != "data race" {
		t.Errorf("got %q, want a data race", k)
	}
}

func TestStructCopyUnderTheWritersMutex(t *testing.T) {
	if k := raceOf(t, func() {
		s := &stats{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			rt.WGGo(&wg, func() {
				rt.Lock(&mu, 0)
				rt.AtomicAddUint64(&s.hits, 1, 0)
				rt.Unlock(&mu, 0)
			}, 0)
		}
		rt.Lock(&mu, 0)
		rt.Read(s, 0)
		snapshot := *s
		rt.Unlock(&mu, 0)
		_ = snapshot
		rt.WGWait(&wg, 0)
	}); k != "" {
		t.Errorf("got %q, want nothing", k)
	}
}

func TestAtomicLoadsOfAtomicAdds(t *testing.T) {
	if k := raceOf(t, func() {
		s := &stats{}
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			rt.WGGo(&wg, func() { rt.AtomicAddUint64(&s.hits, 1, 0) }, 0)
		}
		_ = rt.AtomicLoadUint64(&s.hits, 0) + rt.AtomicLoadUint64(&s.misses, 0)
		rt.WGWait(&wg, 0)
	}); k != "" {
		t.Errorf("got %q, want nothing", k)
	}
}

func TestDifferentWordsDoNotRace(t *testing.T) {
	if k := raceOf(t, func() {
		s := &stats{}
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.Write(&s.hits, 0); s.hits = 1 }, 0)
		rt.Read(&s.misses, 0)
		_ = s.misses
		rt.WGWait(&wg, 0)
	}); k != "" {
		t.Errorf("got %q, want nothing", k)
	}
}

func TestFieldWriteRacesWithStructCopy(t *testing.T) {
	// The copy covers the second word: a field access finds it.
	if k := raceOf(t, func() {
		s := &stats{}
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.Write(&s.misses, 0); s.misses = 1 }, 0)
		rt.Read(s, 0)
		snapshot := *s
		_ = snapshot
		rt.WGWait(&wg, 0)
	}); k != "data race" {
		t.Errorf("got %q, want a data race", k)
	}
}

func TestSubWordElements(t *testing.T) {
	for _, c := range []struct {
		name string
		race bool
		body func(a *[4]uint16, b []byte, wg *sync.WaitGroup)
	}{
		{"[4]uint16 different elements", false, func(a *[4]uint16, b []byte, wg *sync.WaitGroup) {
			rt.WGGo(wg, func() { rt.Write(&a[0], 0); a[0] = 1 }, 0)
			rt.Write(&a[1], 0)
			a[1] = 2
		}},
		{"[4]uint16 same element", true, func(a *[4]uint16, b []byte, wg *sync.WaitGroup) {
			rt.WGGo(wg, func() { rt.Write(&a[2], 0); a[2] = 1 }, 0)
			rt.Read(&a[2], 0)
			_ = a[2]
		}},
		{"[4]uint16 element and whole array", true, func(a *[4]uint16, b []byte, wg *sync.WaitGroup) {
			rt.WGGo(wg, func() { rt.Write(&a[3], 0); a[3] = 1 }, 0)
			rt.Read(a, 0)
			_ = *a
		}},
		{"[]byte different bytes", false, func(a *[4]uint16, b []byte, wg *sync.WaitGroup) {
			rt.WGGo(wg, func() { rt.Write(&b[0], 0); b[0] = 1 }, 0)
			rt.WGGo(wg, func() { rt.Write(&b[1], 0); b[1] = 1 }, 0)
			rt.Read(&b[9], 0)
			_ = b[9]
		}},
		{"[]byte same byte", true, func(a *[4]uint16, b []byte, wg *sync.WaitGroup) {
			rt.WGGo(wg, func() { rt.Write(&b[5], 0); b[5] = 1 }, 0)
			rt.Write(&b[5], 0)
			b[5] = 2
		}},
	} {
		k := raceOf(t, func() {
			var a [4]uint16
			b := make([]byte, 16)
			var wg sync.WaitGroup
			c.body(&a, b, &wg)
			rt.WGWait(&wg, 0)
		})
		if got := k == "data race"; got != c.race {
			t.Errorf("%s: got %q, want race %v", c.name, k, c.race)
		}
	}
}

var onceFirst struct {
	once sync.Once
	n    int
}

func TestOnceAtTheWordOfAStructCopy(t *testing.T) {
	// A copy of a struct that starts with a Once touches the Once's word
	// before Do does: the Once still persists across iterations.
	runs := 0
	_, err := rt.Explore(t.Name(), rt.Options{Strategy: "random", Schedules: 3, ScheduleDir: "-"}, func() {
		rt.Read(&onceFirst.n, 0)
		rt.Read(&onceFirst, 0)
		rt.OnceDo(&onceFirst.once, func() { runs++ }, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if runs != 1 {
		t.Errorf("the Once ran %d times in 3 iterations, want 1", runs)
	}
}

// TestObjectNumbersIgnoreAlignment: a value of less than 8 bytes may start
// anywhere in its word (the Go allocator packs small allocations without
// pointers, so a 4-byte lock's address differs between processes). The
// objects an event names are numbered the same whether the atomic sits at
// the start of its word or in its second half, so a schedule replays in
// another process (the words its race detection needs do not count).
func TestObjectNumbersIgnoreAlignment(t *testing.T) {
	checkHashIgnoresAlignment(t, func(lock *uint32) {
		var x, y int
		rt.AtomicAddUint32(lock, 1, 0)
		rt.Write(&x, 0)
		rt.AtomicAddUint32(lock, ^uint32(0), 0)
		rt.Write(&y, 0)
	})
}

// memsizeTick is a ticker made before any exploration: inside one, its
// channel's first use starts a virtual ticker on it.
var memsizeTick = rt.Tick(time.Millisecond, 0)

// TestTimerNumbersIgnoreAlignment: a timer that is no object of its own (a
// sleep, a ticker adopted from outside the exploration) is numbered as
// events number objects, not by the count of objects created, which
// depends on where the allocator put earlier values: its firing is an
// event, hashed with its number.
func TestTimerNumbersIgnoreAlignment(t *testing.T) {
	checkHashIgnoresAlignment(t, func(lock *uint32) {
		rt.AtomicAddUint32(lock, 1, 0)
		rt.Sleep(time.Millisecond, 0)
		rt.AtomicAddUint32(lock, ^uint32(0), 0)
		rt.Recv(memsizeTick, 0)
	})
}

// checkHashIgnoresAlignment explores one schedule of body with its 4-byte
// lock at the start of an 8-byte word, and one with it in the word's
// second half, and fails t if the two event hashes differ.
func checkHashIgnoresAlignment(t *testing.T, body func(lock *uint32)) {
	t.Helper()
	var words struct {
		_ uint64 // 8-byte alignment
		w [2]uint32
	}
	hash := func(lock *uint32) string {
		rep, err := rt.Explore(t.Name(), rt.Options{Schedules: 1, ScheduleDir: "-"}, func() { body(lock) })
		if err != nil || rep.Kind != "" {
			t.Fatalf("got %v %v", rep, err)
		}
		return rep.EventHash
	}
	if at0, at4 := hash(&words.w[0]), hash(&words.w[1]); at0 != at4 {
		t.Errorf("event hash %s with the atomic at the start of its word, %s in its second half", at0, at4)
	}
}
