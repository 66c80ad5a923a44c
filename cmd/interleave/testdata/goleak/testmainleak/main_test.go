package testmainleak

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestForgetsAWorker(t *testing.T) {
	results := make(chan int)
	for i := 0; i < 2; i++ {
		go func(i int) { results <- i }(i)
	}
	<-results
}
