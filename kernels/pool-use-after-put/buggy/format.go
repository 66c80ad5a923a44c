// Package buggy is the buggy variant of the pool-use-after-put kernel.
package buggy

import (
	"strconv"
	"sync"
)

type buffer struct{ data []byte }

var buffers = sync.Pool{New: func() any { return new(buffer) }}

// Format renders a key=value pair.
func Format(key string, v int) string {
	b := buffers.Get().(*buffer)
	b.data = append(b.data[:0], key...)
	b.data = append(b.data, '=')
	b.data = strconv.AppendInt(b.data, int64(v), 10)
	buffers.Put(b)
	return string(b.data) // BUG: b may already belong to another Format
}
