package app

import (
	"fmt"
	"testing"

	"example.com/oldmod"
)

func TestFill(t *testing.T) {
	if got := Fill(3); got != 3 {
		t.Fatalf("Fill(3) = %d", got)
	}
}

func TestCount(t *testing.T) {
	if got := Count(3); got != 3 {
		t.Fatalf("Count(3) = %d", got)
	}
}

func TestOldLoopVariable(t *testing.T) {
	if got := fmt.Sprint(oldmod.Captured()); got != "[3 3 3]" {
		t.Fatalf("Captured() = %s, want [3 3 3]: the go 1.12 module lost its loop semantics", got)
	}
}
