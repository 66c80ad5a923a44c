package fixed

import (
	"errors"
	"testing"
)

func TestRun(t *testing.T) {
	e1, e2 := errors.New("one"), errors.New("two")
	err := Run([]func() error{
		func() error { return e1 },
		func() error { return e2 },
	})
	if err != e1 && err != e2 {
		t.Errorf("Run = %v, want one of the task errors", err)
	}
}
