package difftest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// handle names one statement of a program: goroutine G (-1: Pre), index S.
type handle struct{ G, S int }

// without returns a copy of p without the statements in drop, and with the
// goroutines left empty (but the test goroutine) removed when dropEmpty.
func without(p *Program, drop map[handle]bool, dropEmpty bool) *Program {
	q := p.Clone()
	q.Pre = nil
	for i, s := range p.Pre {
		if !drop[handle{-1, i}] {
			q.Pre = append(q.Pre, s)
		}
	}
	q.Gs = nil
	for gi, g := range p.Gs {
		c := &Goroutine{Join: g.Join}
		for si, s := range g.Stmts {
			if !drop[handle{gi, si}] {
				c.Stmts = append(c.Stmts, s)
			}
		}
		if dropEmpty && gi > 0 && len(c.Stmts) == 0 {
			continue
		}
		q.Gs = append(q.Gs, c)
	}
	q.Planted = false
	for _, g := range q.Gs {
		for _, s := range g.Stmts {
			if s.Racy != "" {
				q.Planted = true
			}
		}
	}
	return q
}

func handles(p *Program) []handle {
	var hs []handle
	for i := range p.Pre {
		hs = append(hs, handle{-1, i})
	}
	for gi, g := range p.Gs {
		for si := range g.Stmts {
			hs = append(hs, handle{gi, si})
		}
	}
	return hs
}

// Shrink reduces p by delta debugging (ddmin over its statements) to a
// program on which still(q) holds, calling still at most maxTests
// times; still(p) is assumed. It returns the smallest program found.
func Shrink(p *Program, still func(*Program) bool, maxTests int) *Program {
	tests := 0
	try := func(q *Program) bool {
		if tests >= maxTests {
			return false
		}
		tests++
		return still(q)
	}
	items := handles(p)
	keep := func(items []handle) *Program {
		in := map[handle]bool{}
		for _, h := range items {
			in[h] = true
		}
		drop := map[handle]bool{}
		for _, h := range handles(p) {
			if !in[h] {
				drop[h] = true
			}
		}
		return without(p, drop, false)
	}
	n := 2
	for len(items) >= 2 && tests < maxTests {
		size := (len(items) + n - 1) / n
		reduced := false
		for start := 0; start < len(items); start += size {
			end := min(start+size, len(items))
			rest := append(append([]handle(nil), items[:start]...), items[end:]...)
			if try(keep(rest)) {
				items, reduced = rest, true
				n = max(n-1, 2)
				break
			}
		}
		if !reduced {
			if n >= len(items) {
				break
			}
			n = min(2*n, len(items))
		}
	}
	if len(items) == 1 && try(keep(nil)) {
		items = nil
	}
	best := keep(items)
	// Goroutines left without statements go too.
	if q := without(best, nil, true); len(q.Gs) < len(best.Gs) && try(q) {
		best = q
	}
	return best
}

// Still returns the predicate of Shrink for discrepancy d: the program,
// observed under the strategies d needs, shows a discrepancy with d's key.
func Still(ctx context.Context, cfg Config, d Discrepancy, work string) func(*Program) bool {
	cfg = narrow(cfg, d)
	i := 0
	return func(q *Program) bool {
		i++
		dir := filepath.Join(work, fmt.Sprintf("shrink-%d", i))
		defer os.RemoveAll(dir)
		o, err := Observe(ctx, cfg, q, dir)
		if err != nil || ctx.Err() != nil {
			return false
		}
		for _, e := range Judge(o).Discrepancies {
			if e.Key() == d.Key() {
				return true
			}
		}
		return false
	}
}

// narrow restricts cfg to what discrepancy d needs.
func narrow(cfg Config, d Discrepancy) Config {
	s, _, _ := strings.Cut(d.Strategy, " ")
	switch {
	case s == "" || s == "native":
		cfg.Strategies = []string{"dfs"}
	case d.Oracle == OracleOutcomes && s != "dfs":
		cfg.Strategies = []string{"dfs", s}
	default:
		cfg.Strategies = []string{s}
	}
	cfg.Robust = cfg.Robust && d.Oracle == OracleReplay || strings.Contains(d.Strategy, "-workers") || strings.Contains(d.Strategy, "-shard")
	cfg.SkipReplays = d.Oracle != OracleReplay
	cfg.SkipNative = d.Oracle == OracleReplay || d.Oracle == OracleRobustness
	cfg.NoRace = cfg.NoRace && strings.Contains(d.Class, "race detection off")
	return cfg
}

// SaveRegression writes the shrunk program q of discrepancy d under
// dir/name: program.json (the input of the regression test), the test
// file as p_test.go.txt (to read, or to copy into a module and run
// "interleave test" on) and discrepancy.txt.
func SaveRegression(dir, name string, q *Program, d Discrepancy) (string, error) {
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(path, 0o755); err != nil {
		return "", fmt.Errorf("difftest: %w", err)
	}
	// The source is kept as text: generated code is not gofmt'd, and a
	// go.mod would make a module inside the repository's.
	if err := os.WriteFile(filepath.Join(path, "p_test.go.txt"), []byte(q.Render(false).Source), 0o644); err != nil {
		return "", fmt.Errorf("difftest: %w", err)
	}
	b, err := MarshalProgram(q)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(path, "program.json"), b, 0o644); err != nil {
		return "", fmt.Errorf("difftest: %w", err)
	}
	text := fmt.Sprintf("key: %s\nexpect: open\n%s\n", d.Key(), d)
	if err := os.WriteFile(filepath.Join(path, "discrepancy.txt"), []byte(text), 0o644); err != nil {
		return "", fmt.Errorf("difftest: %w", err)
	}
	return path, nil
}

// Slug turns a discrepancy into a directory name.
func Slug(d Discrepancy, seed int64) string {
	s := strings.ToLower(d.Class + "-" + string(d.Form) + "-" + d.Strategy)
	var b strings.Builder
	dash := false
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-") + fmt.Sprintf("-%d", seed)
}
