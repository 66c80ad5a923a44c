package rt

import (
	"fmt"
	"log"
	"os"
	"strings"
)

// Calls that end the process. Inside an exploration they end the schedule
// with a finding of kind "exit" naming the call, its exit status and the
// goroutine that made it, instead of ending the test process with go
// test's bare FAIL and no report; outside (TestMain's os.Exit(m.Run()),
// package initialization) they behave natively. log.Panic needs nothing:
// its panic is a panic finding.

// Exit replaces os.Exit.
func Exit(code int, s Site) {
	if g := cur(); g != nil {
		call := fmt.Sprintf("os.Exit(%d)", code)
		g.Exit(call, fmt.Sprintf("%s called while the test ran: the test process would end here with exit status %d", call, code), uint32(s))
	}
	os.Exit(code)
}

// logExit ends the schedule for a log.Fatal-style call of fn whose message
// is msg.
func logExit(fn, msg string, s Site) {
	if g := cur(); g != nil {
		msg = strings.TrimSuffix(msg, "\n")
		g.Exit(fn, fmt.Sprintf("%s called while the test ran: %s\n(the test process would end here with exit status 1)", fn, msg), uint32(s))
	}
}

// LogFatal replaces log.Fatal.
func LogFatal(s Site, v ...any) {
	msg := fmt.Sprint(v...)
	logExit("log.Fatal", msg, s)
	log.Default().Output(2, msg)
	os.Exit(1)
}

// LogFatalf replaces log.Fatalf.
func LogFatalf(s Site, format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	logExit("log.Fatalf", msg, s)
	log.Default().Output(2, msg)
	os.Exit(1)
}

// LogFatalln replaces log.Fatalln.
func LogFatalln(s Site, v ...any) {
	msg := fmt.Sprintln(v...)
	logExit("log.Fatalln", msg, s)
	log.Default().Output(2, msg)
	os.Exit(1)
}

// LoggerFatal replaces (*log.Logger).Fatal.
func LoggerFatal(l *log.Logger, s Site, v ...any) {
	msg := fmt.Sprint(v...)
	logExit("log.Logger.Fatal", l.Prefix()+msg, s)
	l.Output(2, msg)
	os.Exit(1)
}

// LoggerFatalf replaces (*log.Logger).Fatalf.
func LoggerFatalf(l *log.Logger, s Site, format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	logExit("log.Logger.Fatalf", l.Prefix()+msg, s)
	l.Output(2, msg)
	os.Exit(1)
}

// LoggerFatalln replaces (*log.Logger).Fatalln.
func LoggerFatalln(l *log.Logger, s Site, v ...any) {
	msg := fmt.Sprintln(v...)
	logExit("log.Logger.Fatalln", l.Prefix()+msg, s)
	l.Output(2, msg)
	os.Exit(1)
}
