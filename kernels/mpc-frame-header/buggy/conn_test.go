package buggy

import "testing"

// TestHandle runs a small table of frames; only the close frame can be
// closed twice, and only under a specific schedule.
func TestHandle(t *testing.T) {
	for _, frame := range [][]byte{{version, opData, 'h', 'i'}, {version, opPing}, {version, opClose}} {
		Run(frame)
	}
}

// FuzzHandle explores frames; its seed corpus never closes.
func FuzzHandle(f *testing.F) {
	f.Add([]byte{version, opData, 'h', 'i'})
	f.Fuzz(func(t *testing.T, frame []byte) {
		Run(frame)
	})
}
