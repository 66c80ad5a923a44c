package fixed

import "testing"

func TestHandle(t *testing.T) {
	s := Start()
	defer s.Close()
	if !s.Handle(5) {
		t.Errorf("request of 5 rejected by a service with limit 10")
	}
}
