package exits

import (
	"log"
	"os"
)

type service struct {
	*log.Logger
	name string
}

func pair() (string, int) { return "a", 1 }

func exits(code int, l *log.Logger, args []any) {
	if code > 0 {
		os.Exit(code)
	}
	log.Fatal("bad", code)
	log.Fatalf("bad %d", code)
	log.Fatalln(args...)
	l.Fatal("bad")
	l.Fatalf("bad %s", "x")
	l.Fatalln(args...)
	s := service{Logger: l}
	s.Fatalf("%s failed", s.name)
	defer log.Fatal("deferred")
	go l.Fatal(code)
	log.Fatal(pair())
	log.Panic("panics need nothing")
}
