//line testdata/exits.go:1
package exits; import __rt "interleave.dev/rt"

import (
	"log"
	_ "os"
)

type service struct {
	*log.Logger
	name string
}

func pair() (string, int) { return "a", 1 }

func exits(code int, l *log.Logger, args []any) {
	if code > 0 {
		__rt.Exit(code, __rtSites_d26df482+0)
	}
	__rt.LogFatal(__rtSites_d26df482+1, "bad", code)
	__rt.LogFatalf(__rtSites_d26df482+2, "bad %d", code)
	__rt.LogFatalln(__rtSites_d26df482+3, args...)
	__rt.LoggerFatal(l, __rtSites_d26df482+4, "bad")
	__rt.LoggerFatalf(l, __rtSites_d26df482+5, "bad %s", "x")
	__rt.LoggerFatalln(l, __rtSites_d26df482+6, args...)
	s := service{Logger: l}
	__rt.LoggerFatalf(s.Logger, __rtSites_d26df482+7, "%s failed", s.name)
	defer __rt.LogFatal(__rtSites_d26df482+8, "deferred")
	{ __rtArg1, __rtArg2 := l, code; __rt.Go(func() { __rt.LoggerFatal(__rtArg1, __rtSites_d26df482+10, __rtArg2) }, __rtSites_d26df482+9) }
	log.Fatal(pair())
	log.Panic("panics need nothing")
}

var __rtSites_d26df482 = __rt.RegisterFile("testdata/exits.go", "", 17, 3, 19, 2, 20, 2, 21, 2, 22, 2, 23, 2, 24, 2, 26, 2, 27, 8, 28, 2, 28, 5, 29, 2)

// Warnings:
//	testdata/exits.go:29:2: call with a multi-value argument left native
