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
