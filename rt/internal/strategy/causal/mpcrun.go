package causal

import (
	"fmt"
	"sort"

	"interleave.dev/rt/wire"
)

// Runs of strategy mpc made in other processes (section 4.4 of Yi and
// Huang: the run of a prefix depends on the prefix and its input alone,
// and what the search learns of it on its trace alone, so runs can be
// made in parallel). The search hands the first items of its queue out
// (Take, Request), a worker makes each run with a search of its own that
// knows the numbering so far (Serve, then Record at its end), and the
// search takes the runs in, in the order of the queue (Absorb): it then
// splits, solves and queues exactly as if it had made them one after the
// other itself, whatever the number of workers.

// Take removes the next n items of the queue (fewer if it holds fewer)
// and returns them as requests, numbered from run: the runs a search
// would make next, in order. Begin makes the first of the queue; the
// caller makes these elsewhere and gives their runs to Absorb in order,
// after the run Begin started.
func (p *MPC) Take(n, run int) []*wire.MPCRequest {
	if p.failed != nil {
		return nil
	}
	if len(p.queue) == 0 {
		p.exhausted = true
		return nil
	}
	var reqs []*wire.MPCRequest
	for len(reqs) < n && len(p.queue) > 0 {
		it := p.queue[0]
		p.queue[0] = mpcItem{}
		p.queue = p.queue[1:]
		p.inQueue -= len(it.plan.Steps) + len(it.plan.Tail)
		reqs = append(reqs, &wire.MPCRequest{
			Run: run + len(reqs), Keys: append([]string(nil), p.keys...), Inputs: append([]wire.MPCInput(nil), p.inputs...),
			Bytes: p.byteInputs(),
			Item:  wire.MPCItem{Steps: wireSteps(it.plan.Steps), Tail: wireSteps(it.plan.Tail), Input: it.input, Pre: it.pre.wire()},
		})
	}
	return reqs
}

// Serve makes the next run of a search made for a worker the run req
// asks for, with req's numbering of threads and inputs. The search must
// be new, with the fuzz body's inputs and string inputs declared.
func (p *MPC) Serve(req *wire.MPCRequest) error {
	if p.started {
		return fmt.Errorf("strategy mpc: a worker's search serves one request")
	}
	if len(req.Inputs) < len(p.inputs) {
		return fmt.Errorf("strategy mpc: the request has %d inputs, the fuzz body %d", len(req.Inputs), len(p.inputs))
	}
	for _, k := range req.Keys {
		p.threads[k] = int32(len(p.keys))
		p.keys = append(p.keys, k)
	}
	p.inputs = append(p.inputs[:0], req.Inputs...)
	for _, b := range req.Bytes {
		s := p.strs[b.K]
		if s == nil || b.N >= len(p.inputs) {
			return fmt.Errorf("strategy mpc: the request names byte %d of input %d, which is no string input", b.J, b.K)
		}
		s.bytes[b.J] = b.N
	}
	p.started, p.serving = true, true
	p.served = &mpcItem{plan: mcrPlan{Steps: planSteps(req.Item.Steps), Tail: planSteps(req.Item.Tail)}, input: req.Item.Input, pre: pathOf(req.Item.Pre)}
	return nil
}

// byteInputs lists the bytes of string inputs that stand for inputs, in
// the order of their inputs.
func (p *MPC) byteInputs() []wire.MPCByte {
	var bs []wire.MPCByte
	for k, s := range p.strs {
		for j, n := range s.bytes {
			bs = append(bs, wire.MPCByte{K: k, J: j, N: n})
		}
	}
	sort.Slice(bs, func(a, b int) bool { return bs[a].N < bs[b].N })
	return bs
}

// renumber gives run r, numbered by the worker that made it, the
// search's numbers: a thread the search knows by its key keeps the
// search's number, a new one gets the next (in the order of r's
// numbers), and so does an input that stands for a byte of a string
// input.
func (p *MPC) renumber(r *wire.MPCRun) {
	tmap := make([]int32, len(r.Keys))
	same := true
	for t, k := range r.Keys {
		n, ok := p.threads[k]
		if !ok {
			n = int32(len(p.keys))
			p.threads[k] = n
			p.keys = append(p.keys, k)
		}
		tmap[t] = n
		same = same && n == int32(t)
	}
	imap := map[int64]int64{}
	for _, b := range r.Bytes {
		n, ok := p.byteInput(b.K, b.J)
		if !ok {
			p.failed = fmt.Errorf("strategy mpc: a worker's run names byte %d of input %d, which is no string input", b.J, b.K)
			return
		}
		if n != b.N {
			imap[int64(b.N)] = int64(n)
		}
	}
	input := make([]int64, len(p.inputs))
	for i, in := range p.inputs {
		input[i] = in.Value
	}
	for i, v := range r.Input {
		j := int64(i)
		if m, ok := imap[j]; ok {
			j = m
		}
		if int(j) < len(input) {
			input[j] = v
		}
	}
	r.Input = input
	if !same {
		r.Trace.Threads = len(p.keys)
		for i := range r.Trace.Events {
			r.Trace.Events[i].T = tmap[r.Trace.Events[i].T]
		}
		for i := range r.Steps {
			r.Steps[i].T = tmap[r.Steps[i].T]
		}
		path := make([][]wire.MPCOutcome, len(p.keys))
		from := make([]int, len(p.keys))
		for t := range r.Path {
			path[tmap[t]] = r.Path[t]
			if t < len(r.From) {
				from[tmap[t]] = r.From[t]
			}
		}
		r.Path, r.From = path, from
	}
	for i := range r.Branches {
		if !same {
			r.Branches[i].T = tmap[r.Branches[i].T]
		}
		renumberInputs(&r.Branches[i].Cond, imap)
	}
	for i := range r.Writes {
		renumberInputs(&r.Writes[i].Value, imap)
	}
}

// renumberInputs renumbers the inputs of term t as imap says.
func renumberInputs(t *wire.MPCTerm, imap map[int64]int64) {
	if len(imap) == 0 {
		return
	}
	if t.Op == wire.TermInput {
		if n, ok := imap[t.V]; ok {
			t.V = n
		}
	}
	for i := range t.Args {
		renumberInputs(&t.Args[i], imap)
	}
}

// byteInput returns the input standing for byte j of string input k,
// declaring it (with the seed's byte, or 0 past the seed's end) the
// first time.
func (p *MPC) byteInput(k, j int) (int, bool) {
	s := p.strs[k]
	if s == nil || j < 0 || j >= s.max {
		return 0, false
	}
	if n, ok := s.bytes[j]; ok {
		return n, true
	}
	v := int64(0)
	if j < len(s.seed) {
		v = int64(s.seed[j])
	}
	n := len(p.inputs)
	p.inputs = append(p.inputs, wire.MPCInput{Min: 0, Max: 255, Value: v})
	s.bytes[j] = n
	return n, true
}

func (q mpcPath) wire() [][]wire.MPCOutcome {
	w := make([][]wire.MPCOutcome, len(q))
	for t, s := range q {
		for _, o := range s {
			w[t] = append(w[t], wire.MPCOutcome{Site: o.site, Taken: o.taken})
		}
	}
	return w
}

func pathOf(w [][]wire.MPCOutcome) mpcPath {
	q := make(mpcPath, len(w))
	for t, s := range w {
		for _, o := range s {
			q[t] = append(q[t], mpcOutcome{site: o.Site, taken: o.Taken})
		}
	}
	return q
}

func wireSteps(steps []mcrStep) []wire.MCRStep {
	w := make([]wire.MCRStep, len(steps))
	for i, s := range steps {
		w[i] = wire.MCRStep{T: s.T, N: s.N, Case: s.Case}
	}
	return w
}

func planSteps(w []wire.MCRStep) []mcrStep {
	steps := make([]mcrStep, len(w))
	for i, s := range w {
		steps[i] = mcrStep{T: s.T, N: s.N, Case: s.Case}
	}
	return steps
}

// MPCWorkers makes runs of a search in other processes, while the
// search makes one itself.
type MPCWorkers interface {
	// Size is how many runs the workers make at once.
	Size() int
	// Send hands out reqs, at most Size of them.
	Send(reqs []*wire.MPCRequest) error
	// Receive returns the runs of the requests sent, in their order, up
	// to the first that ended with a finding: found is its index in the
	// requests (its worker keeps its report), or -1.
	Receive() (runs []*wire.MPCRun, found int, err error)
}

// parallel hands the next items of the queue out to the workers, while
// Begin's run is made here: they are the runs that follow it.
func (p *MPC) parallel() {
	if p.Workers == nil || p.serving {
		return
	}
	n := p.Workers.Size()
	if p.Limit > 0 {
		n = min(n, p.Limit-p.runs)
	}
	if n <= 0 || len(p.queue) == 0 {
		return
	}
	p.sent = p.Take(n, p.runs+1)
	if err := p.Workers.Send(p.sent); err != nil {
		p.failed = fmt.Errorf("strategy mpc: handing runs out to workers: %w", err)
		p.sent = nil
	}
	p.runs += len(p.sent)
}

// collect takes in the runs of the workers, in the order of the queue;
// finding says this process's run ended with one, which comes first.
func (p *MPC) collect(finding bool) {
	if len(p.sent) == 0 {
		return
	}
	sent := p.sent
	p.sent = nil
	runs, found, err := p.Workers.Receive()
	if finding || p.failed != nil {
		return // what the workers made comes after
	}
	if err != nil {
		p.failed = fmt.Errorf("strategy mpc: a worker failed: %w", err)
		return
	}
	for _, r := range runs {
		p.Absorb(r)
	}
	p.ByWorkers += len(runs)
	if found >= 0 {
		p.Found = sent[found].Run
		p.runs = p.Found
		p.Executions++
		p.ByWorkers++
	}
}
