package buggy

import "testing"

func TestReload(t *testing.T) {
	c := NewCache()
	c.Reload([]string{"a", "b"})
	<-c.Loaded()
	if c.Entry("a") != 1 || c.Entry("b") != 1 {
		t.Errorf("entries a=%d b=%d, want both of generation 1", c.Entry("a"), c.Entry("b"))
	}
}
