package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Variant names.
const (
	Buggy   = "buggy"   // the program with the bug: a finding of the kernel's kind is a detection
	Partial = "partial" // a partial fix: the bug is still reachable
	Fixed   = "fixed"   // the correct twin: any finding is a false report
)

// Variants lists the variant names in the order they are reported.
var Variants = []string{Buggy, Partial, Fixed}

// Kernel is one bug kernel of the suite, as described by its kernel.json.
type Kernel struct {
	Name        string `json:"name"`
	Class       string `json:"class"`  // deadlock, leak, race, atomicity, order, panic, livelock, assertion
	Detect      string `json:"detect"` // the finding kind that counts as detection
	Description string `json:"description"`
	Source      string `json:"source"`
	Hard        bool   `json:"hard"`
	Partial     bool   `json:"partial"`
	NeedsInput  bool   `json:"needs_input,omitempty"`

	// Dir is the kernel's directory (absolute).
	Dir string `json:"-"`
	// Variants are the variant packages present, in the order of Variants.
	Variants []string `json:"variants"`
}

// Classes are the valid kernel classes.
var Classes = []string{"deadlock", "leak", "race", "atomicity", "order", "panic", "livelock", "assertion"}

// Kinds are the finding kinds a kernel may name in Detect, as the runtime
// reports them.
var Kinds = []string{"deadlock", "goroutine leak", "data race", "panic", "test failure", "livelock"}

// LoadKernel reads the kernel in dir.
func LoadKernel(dir string) (*Kernel, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", dir, err)
	}
	b, err := os.ReadFile(filepath.Join(abs, "kernel.json"))
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", dir, err)
	}
	var k Kernel
	if err := json.Unmarshal(b, &k); err != nil {
		return nil, fmt.Errorf("kernel %s: kernel.json: %w", dir, err)
	}
	k.Dir = abs
	k.Variants = nil
	for _, v := range Variants {
		if fi, err := os.Stat(filepath.Join(abs, v)); err == nil && fi.IsDir() {
			k.Variants = append(k.Variants, v)
		}
	}
	if err := k.validate(); err != nil {
		return nil, fmt.Errorf("kernel %s: %w", dir, err)
	}
	return &k, nil
}

// validate checks the metadata against the directory layout.
func (k *Kernel) validate() error {
	var errs []error
	if k.Name == "" || k.Name != filepath.Base(k.Dir) {
		errs = append(errs, fmt.Errorf("name %q does not match the directory %s", k.Name, filepath.Base(k.Dir)))
	}
	if !contains(Classes, k.Class) {
		errs = append(errs, fmt.Errorf("class %q is not one of %s", k.Class, strings.Join(Classes, ", ")))
	}
	if !contains(Kinds, k.Detect) {
		errs = append(errs, fmt.Errorf("detect %q is not one of %s", k.Detect, strings.Join(Kinds, ", ")))
	}
	if k.Description == "" || k.Source == "" {
		errs = append(errs, errors.New("description and source are required"))
	}
	if !k.Has(Buggy) || !k.Has(Fixed) {
		errs = append(errs, errors.New("a kernel needs buggy/ and fixed/"))
	}
	if k.Partial != k.Has(Partial) {
		errs = append(errs, fmt.Errorf("partial is %v but partial/ present is %v", k.Partial, k.Has(Partial)))
	}
	return errors.Join(errs...)
}

// Has reports whether the kernel has the variant v.
func (k *Kernel) Has(v string) bool { return contains(k.Variants, v) }

// LoadSuite loads every kernel found in the subdirectories of root (those
// that hold a kernel.json), sorted by name.
func LoadSuite(root string) ([]*Kernel, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("loading the kernel suite: %w", err)
	}
	var ks []*Kernel
	var errs []error
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, "kernel.json")); err != nil {
			continue
		}
		k, err := LoadKernel(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ks = append(ks, k)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("no kernels (directories with kernel.json) in %s", root)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i].Name < ks[j].Name })
	return ks, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
