package fixed

import (
	"testing"
	"time"
)

func TestFetch(t *testing.T) {
	v, err := Fetch(time.Millisecond, func() int { return 42 })
	if err == nil && v != 42 {
		t.Errorf("Fetch = %d, want 42", v)
	}
	if err != nil && err != ErrTimeout {
		t.Errorf("Fetch error %v, want nil or ErrTimeout", err)
	}
}
