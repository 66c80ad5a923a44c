//go:build go1.24 && unix

package rt_test

import (
	"fmt"
	"syscall"
	"testing"

	"interleave.dev/rt"
)

// Memory the program maps itself is not Go's: a collection leaves what
// the model knows of it alone (a weak pointer to it would be a fatal
// error).
func TestGCForeignMemory(t *testing.T) {
	mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	expect(t, outcomes(t, rt.Options{}, func() string {
		rt.Write(&mem[8], 0)
		mem[8] = 1
		rt.GC(0)
		rt.Read(&mem[8], 0)
		return fmt.Sprint(mem[8])
	}), "1")
}
