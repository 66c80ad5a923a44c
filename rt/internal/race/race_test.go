package race

import "testing"

func TestUnorderedWritesRace(t *testing.T) {
	d := New()
	d.Spawn(0, 1)
	d.Spawn(1, 2)
	if r := d.Write(1, 5, 10); r != nil {
		t.Fatalf("first write: %+v", r)
	}
	r := d.Write(2, 5, 20)
	if r == nil || r.Prev.G != 1 || r.Prev.Site != 10 || r.Cur.G != 2 || !r.Prev.Write {
		t.Fatalf("got %+v", r)
	}
}

func TestSpawnOrders(t *testing.T) {
	d := New()
	d.Spawn(0, 1)
	d.Write(1, 5, 1)
	d.Spawn(1, 2) // everything 1 did before the go statement
	if r := d.Read(2, 5, 2); r != nil {
		t.Fatalf("race through spawn: %+v", r)
	}
	if r := d.Write(1, 5, 3); r == nil {
		t.Fatal("parent's write after the spawn does not race with the child's read")
	}
}

func TestReleaseAcquireOrders(t *testing.T) {
	d := New()
	d.Spawn(0, 1)
	d.Spawn(1, 2)
	const mu, x = 7, 8
	d.Write(1, x, 1)
	d.Release(1, mu)
	d.Acquire(2, mu)
	if r := d.Write(2, x, 2); r != nil {
		t.Fatalf("race across a lock handoff: %+v", r)
	}
}

func TestSharedReadsThenWrite(t *testing.T) {
	d := New()
	d.Spawn(0, 1)
	d.Spawn(1, 2)
	d.Spawn(1, 3)
	const x = 4
	if d.Read(2, x, 1) != nil || d.Read(3, x, 2) != nil {
		t.Fatal("concurrent reads race")
	}
	// Goroutine 3 synchronizes with 1, goroutine 2 does not.
	d.Release(3, 9)
	d.Acquire(1, 9)
	r := d.Write(1, x, 3)
	if r == nil || r.Prev.G != 2 || r.Prev.Write {
		t.Fatalf("write after unsynchronized shared read: %+v", r)
	}
}

func TestResetForgets(t *testing.T) {
	d := New()
	d.Spawn(0, 1)
	d.Spawn(1, 2)
	d.Write(1, 3, 1)
	d.Reset()
	d.Spawn(0, 1)
	d.Spawn(1, 2)
	if r := d.Write(2, 3, 1); r != nil {
		t.Fatalf("state leaked across iterations: %+v", r)
	}
}

func TestBytesOfAWord(t *testing.T) {
	d := New()
	d.Spawn(0, 1)
	d.Spawn(1, 2)
	const x = 5
	// [4]uint16 in one word: elements 0 and 1 are different bytes.
	if r := d.Access(1, x, 0x03, true, false, 1); r != nil {
		t.Fatalf("first write: %+v", r)
	}
	if r := d.Access(2, x, 0x0c, true, false, 2); r != nil {
		t.Fatalf("writes of different bytes race: %+v", r)
	}
	if r := d.Access(2, x, 0x30, false, false, 3); r != nil {
		t.Fatalf("read of untouched bytes races: %+v", r)
	}
	// A whole-word read overlaps both writes.
	r := d.Access(1, x, FullWord, false, false, 4)
	if r == nil || r.Prev.G != 2 || r.Prev.Site != 2 {
		t.Fatalf("whole-word read after an unordered sub-word write: got %+v", r)
	}
}

func TestSplitKeepsHistory(t *testing.T) {
	d := New()
	d.Spawn(0, 1)
	d.Spawn(1, 2)
	const x = 5
	d.Access(1, x, FullWord, true, false, 1)
	// The word splits on the first sub-word access, which must still see
	// the whole-word write.
	if r := d.Access(2, x, 0x01, false, false, 2); r == nil || r.Prev.Site != 1 {
		t.Fatalf("got %+v, want a race with the whole-word write", r)
	}
}

func TestAtomicAndPlain(t *testing.T) {
	const x = 5
	cases := []struct {
		name           string
		w1, a1, w2, a2 bool
		race           bool
	}{
		{"atomic write, atomic write", true, true, true, true, false},
		{"atomic write, atomic read", true, true, false, true, false},
		{"atomic read, atomic write", false, true, true, true, false},
		{"atomic write, plain read", true, true, false, false, true},
		{"plain read, atomic write", false, false, true, true, true},
		{"atomic read, plain write", false, true, true, false, true},
		{"plain write, atomic read", true, false, false, true, true},
		{"atomic read, plain read", false, true, false, false, false},
	}
	for _, c := range cases {
		d := New()
		d.Spawn(0, 1)
		d.Spawn(1, 2)
		if r := d.Access(1, x, FullWord, c.w1, c.a1, 1); r != nil {
			t.Fatalf("%s: first access: %+v", c.name, r)
		}
		r := d.Access(2, x, 0x0f, c.w2, c.a2, 2)
		if (r != nil) != c.race {
			t.Errorf("%s: got %+v, want race %v", c.name, r, c.race)
		}
		if r != nil && (r.Prev.Atomic != c.a1 || r.Cur.Atomic != c.a2) {
			t.Errorf("%s: atomicity of the accesses: %+v", c.name, r)
		}
	}
}

func TestAtomicWriteKeepsUnorderedAtomicReads(t *testing.T) {
	d := New()
	d.Spawn(0, 1)
	d.Spawn(1, 2)
	const x = 5
	d.Access(1, x, FullWord, false, true, 1) // atomic load
	d.Access(2, x, FullWord, true, true, 2)  // atomic store: no race
	// A plain write by 2 is unordered with 1's load.
	if r := d.Access(2, x, FullWord, true, false, 3); r == nil || r.Prev.G != 1 {
		t.Fatalf("got %+v, want a race with the atomic load", r)
	}
}
