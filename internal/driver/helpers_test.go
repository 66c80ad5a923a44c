package driver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// writeTree writes files (slash-separated relative path -> content) under
// dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// hashTree returns a digest of every file name, mode and content under dir.
func hashTree(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := p + " " + info.Mode().String()
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s := sha256.Sum256(b)
			line += " " + hex.EncodeToString(s[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	s := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(s[:])
}

// run is a driver run in a test module with the stand-in instrumenter.
type run struct {
	out            *Outcome
	err            error
	stdout, stderr string
}

func runTest(t *testing.T, cache, dir string, patterns []string, goFlags ...string) run {
	t.Helper()
	var stdout, stderr bytes.Buffer
	out, err := Test(context.Background(), Options{
		Dir:        dir,
		Patterns:   patterns,
		GoFlags:    goFlags,
		Instrument: standIn,
		ToolID:     "driver-test",
		CacheDir:   cache,
		Stdout:     &stdout,
		Stderr:     &stderr,
	})
	r := run{out: out, err: err, stdout: stdout.String(), stderr: stderr.String()}
	if testing.Verbose() {
		t.Logf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	return r
}

func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go test in a temporary module")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
