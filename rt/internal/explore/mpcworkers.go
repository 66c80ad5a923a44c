package explore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"interleave.dev/rt/internal/strategy/causal"
	"interleave.dev/rt/wire"
)

// Strategy mpc's runs in worker processes (-workers; section 4.4 of Yi
// and Huang). The test binary exploring a fuzz input (the parent) keeps
// the search and its solver; while it makes a run itself, it hands the
// next runs of its queue to copies of itself (workers), each running only
// that input's subtest with wire.Config.MPCWorker: a worker reads an
// MPCRequest per line on file descriptor 3, makes the run with a search
// of its own that serves it (causal.MPC.Serve), and writes an
// MPCServed per line on descriptor 4. The parent takes the runs in, in
// the order of its queue (causal.MPC.Absorb), so that the search, its
// runs, its queries and the finding it reports (numbered as one process
// numbers its runs) do not depend on the number of workers
// (TestMPCBatchesAgree, TestMPCWorkersAgree). Workers start at the first
// run handed out: a search of one run starts none.

// maxServed bounds a worker's answer line, and a request line.
const maxServed = 64 << 20

// mpcWorkers is the parent's side: it implements causal.MPCWorkers.
type mpcWorkers struct {
	name  string
	cfg   wire.Config // a worker's configuration
	size  int
	procs []*mpcProc
	sent  int // requests out, one per process in order

	found *wire.MPCServed // the answer that ended with a finding
}

// mpcProc is a worker process.
type mpcProc struct {
	cmd    *exec.Cmd
	req    *os.File // its requests
	ans    *bufio.Reader
	ansF   *os.File
	out    boundedBuffer // what the test binary printed
	exited chan struct{}
	err    error
}

// newMPCWorkers returns the workers of the search of test name: size
// processes with configuration cfg.
func newMPCWorkers(name string, cfg wire.Config, size int) *mpcWorkers {
	cfg.Workers, cfg.Worker, cfg.Shard, cfg.Results, cfg.Progress = 0, "", "", "", ""
	cfg.MPCWorker = true
	return &mpcWorkers{name: name, cfg: cfg, size: size}
}

// Size implements causal.MPCWorkers.
func (w *mpcWorkers) Size() int { return w.size }

// Send implements causal.MPCWorkers.
func (w *mpcWorkers) Send(reqs []*wire.MPCRequest) error {
	if len(reqs) > w.size {
		return fmt.Errorf("%d requests for %d workers", len(reqs), w.size)
	}
	for len(w.procs) < len(reqs) {
		p, err := w.start()
		if err != nil {
			return err
		}
		w.procs = append(w.procs, p)
	}
	for i, r := range reqs {
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("encoding a request: %w", err)
		}
		if len(b) >= maxServed {
			return fmt.Errorf("a request of %d bytes is longer than %d", len(b), maxServed)
		}
		if _, err := w.procs[i].req.Write(append(b, '\n')); err != nil {
			return w.procs[i].failure(fmt.Errorf("sending a request: %w", err))
		}
	}
	w.sent = len(reqs)
	return nil
}

// Receive implements causal.MPCWorkers. Every answer is read, so that
// the workers are ready for the next requests.
func (w *mpcWorkers) Receive() ([]*wire.MPCRun, int, error) {
	n := w.sent
	w.sent = 0
	var runs []*wire.MPCRun
	found := -1
	var first error
	for i := 0; i < n; i++ {
		var a wire.MPCServed
		err := w.procs[i].read(&a)
		switch {
		case err == nil && a.Error != "":
			err = errors.New(a.Error)
		case err == nil && a.Finding == nil && a.Made == nil:
			err = errors.New("the worker answered neither a run nor a finding")
		}
		if err != nil {
			if first == nil {
				first = w.procs[i].failure(err)
			}
			continue
		}
		if found >= 0 || first != nil {
			if a.Finding != nil {
				removeFinding(a.Finding.Schedule) // after the one reported
			}
			continue
		}
		if a.Finding != nil {
			found, w.found = i, &a
			continue
		}
		runs = append(runs, a.Made)
	}
	return runs, found, first
}

// start starts a worker process.
func (w *mpcWorkers) start() (*mpcProc, error) {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("starting a worker: %w", err)
	}
	ansR, ansW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("starting a worker: %w", err)
	}
	p := &mpcProc{req: reqW, ansF: ansR, ans: bufio.NewReaderSize(ansR, 1<<16), exited: make(chan struct{})}
	p.cmd = exec.Command(exe, childArgs(flag.CommandLine, w.name)...)
	p.cmd.Dir = initialDir
	p.cmd.Env = append(os.Environ(), wire.ConfigEnv+"="+w.cfg.Encode())
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	p.cmd.ExtraFiles = []*os.File{reqR, ansW} // descriptors 3 and 4
	p.cmd.WaitDelay = 10 * time.Second
	dieWithParent(p.cmd)
	err = p.cmd.Start()
	reqR.Close()
	ansW.Close()
	if err != nil {
		reqW.Close()
		ansR.Close()
		return nil, fmt.Errorf("starting a worker: %w", err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// read reads an answer line into a.
func (p *mpcProc) read(a *wire.MPCServed) error {
	err := readJSONLine(p.ans, maxServed, a)
	if err == io.EOF {
		return errors.New("the worker exited")
	}
	return err
}

// failure wraps an error of talking to p with the end of its output.
func (p *mpcProc) failure(err error) error {
	if out := bytes.TrimSpace(p.out.b.Bytes()); len(out) > 0 {
		return fmt.Errorf("%w:\n%s", err, tail(string(out), 20))
	}
	return err
}

// close ends the workers: they read the end of their requests and exit.
func (w *mpcWorkers) close() {
	for _, p := range w.procs {
		p.req.Close()
	}
	for _, p := range w.procs {
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			p.cmd.Process.Kill()
			<-p.exited // bounded by WaitDelay
		}
		p.ansF.Close()
	}
}

// report is the report of the finding a worker made at run n: its text,
// schedule file and page, as the worker wrote them.
func (w *mpcWorkers) report(rep *Report, n int) *Report {
	f := w.found
	r := &Report{
		Test: rep.Test, Strategy: rep.Strategy, Seed: rep.Seed, Schedules: n, Kind: f.Finding.Kind,
		Message: f.Finding.Message, Text: f.Report, Path: f.Finding.Schedule, Elapsed: rep.Elapsed,
		EventHash: f.Finding.EventHash, Coverage: rep.Coverage, MCR: rep.MCR,
	}
	if r.Path != "" {
		r.View = viewPath(r.Path)
		if s, err := wire.ReadSchedule(r.Path); err == nil {
			r.Schedule = s
		}
	}
	return r
}

// serveMPC is a worker's side: it makes the run of each request on
// descriptor 3 and answers on descriptor 4, until the parent closes its
// requests.
func serveMPC(t *testing.T, opts Options, run func()) {
	if runtime.GOOS == "windows" {
		t.Fatal("interleave: mpc's workers need inherited file descriptors, which Windows does not give")
	}
	in, out := os.NewFile(3, "mpc requests"), os.NewFile(4, "mpc answers")
	defer out.Close()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<16), maxServed)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req wire.MPCRequest
		a := wire.MPCServed{}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			a.Error = fmt.Sprintf("reading a request: %v", err)
		} else {
			a = serveOne(t, opts, run, &req)
		}
		if err := enc.Encode(&a); err != nil {
			t.Fatalf("interleave: answering the parent: %v", err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("interleave: reading the parent's requests: %v", err)
	}
}

// serveOne makes the run req asks for.
func serveOne(t *testing.T, opts Options, run func(), req *wire.MPCRequest) wire.MPCServed {
	var made *wire.MPCRun
	opts.mpcServe, opts.mpcServed = req, &made
	opts.Schedules = 2 // the search of a worker makes its one run, then ends
	rep, err := Explore(t.Name(), opts, run)
	if err != nil {
		return wire.MPCServed{Run: req.Run, Error: err.Error()}
	}
	if rep.Kind != "" {
		return wire.MPCServed{Run: req.Run, Report: rep.Text, Finding: &wire.Result{
			Kind: rep.Kind, Message: rep.Message, Schedule: rep.Path, EventHash: rep.EventHash,
		}}
	}
	if made == nil {
		return wire.MPCServed{Run: req.Run, Error: "the run was not recorded"}
	}
	return wire.MPCServed{Run: req.Run, Made: made}
}

// mpcRuns sets up where m's runs are made: a worker makes the one run it
// was asked for (opts.mpcServe); a search of a fuzz body with more than
// one worker hands runs to opts.Workers-1 processes. Every run first gives
// the fuzz body's arguments the input m chose for it.
func (p *plan) mpcRuns(name string, opts *Options, m *causal.MPC) error {
	switch {
	case opts.mpcServe != nil:
		if err := m.Serve(opts.mpcServe); err != nil {
			return fmt.Errorf("interleave: %w", err)
		}
		p.first = opts.mpcServe.Run
		served := opts.mpcServed
		p.stops = append(p.stops, func() { *served = m.Served })
	case opts.mpcWorker != nil && opts.Workers > 1:
		p.workers = newMPCWorkers(name, *opts.mpcWorker, opts.Workers-1)
		p.stops = append(p.stops, p.workers.close)
		m.Workers, m.Limit = p.workers, opts.Schedules
	}
	p.mpc = m
	fz, body := opts.fuzz, p.body
	p.body = func() {
		fz.set(m)
		body()
	}
	return nil
}
