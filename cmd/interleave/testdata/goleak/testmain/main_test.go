package testmain

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestWorkers(t *testing.T) {
	done := make(chan int)
	for i := 0; i < 2; i++ {
		go func(i int) { done <- i }(i)
	}
	<-done
	<-done
}
