package buggy

import "testing"

func TestFlushAll(t *testing.T) {
	var b Buffers
	b.FlushAll(2)
}
