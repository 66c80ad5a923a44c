// Package fixed is the fixed variant of the pool-use-after-put kernel.
package fixed

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
	s := string(b.data)
	buffers.Put(b)
	return s
}
