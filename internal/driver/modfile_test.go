package driver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteModfile(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, gomod string
		want        []string // lines the temporary go.mod must hold
		modMod      bool
	}{
		{
			name:  "go1.22 keeps its go line and replaces",
			gomod: "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
			want: []string{"go 1.22", "require (", "example.com/dep v0.0.0", "interleave.dev v0.0.0",
				"replace example.com/dep => ../dep", "replace interleave.dev => RT", "replace example.com/x v1.2.3 => /mirror"},
		},
		{
			name:   "go1.16 is raised to 1.21 with its godebug defaults",
			gomod:  "module example.com/m\n\ngo 1.16\n",
			want:   []string{"go 1.21", "godebug default=go1.16", "require interleave.dev v0.0.0", "replace interleave.dev => RT"},
			modMod: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			user, tmp := t.TempDir(), t.TempDir()
			writeTree(t, user, map[string]string{"go.mod": tc.gomod, "go.sum": "example.com/dep v0.0.0 h1:x\n"})
			env := os.Environ()
			ge, err := readGoEnv(ctx, user, env)
			if err != nil {
				t.Fatal(err)
			}
			mod, err := readModule(ctx, user, env, ge)
			if err != nil {
				t.Fatal(err)
			}
			if mod.Path != "example.com/m" || mod.Dir != user {
				t.Fatalf("module = %+v", mod)
			}
			rt := filepath.Join(t.TempDir(), "rt dir")
			plan, err := writeModfile(ctx, tmp, mod, rt, []moduleReplace{{"example.com/x", "v1.2.3", "/mirror"}}, env)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(plan.Path)
			got := string(b)
			for _, w := range tc.want {
				w = strings.ReplaceAll(w, "RT", `"`+rt+`"`)
				if !strings.Contains(got, w) {
					t.Errorf("temporary go.mod lacks %q:\n%s", w, got)
				}
			}
			if plan.ModMod != tc.modMod {
				t.Errorf("ModMod = %v, want %v", plan.ModMod, tc.modMod)
			}
			sum, _ := os.ReadFile(filepath.Join(tmp, "go.sum"))
			if string(sum) != "example.com/dep v0.0.0 h1:x\n" {
				t.Errorf("temporary go.sum = %q", sum)
			}
			if b, _ := os.ReadFile(filepath.Join(user, "go.mod")); string(b) != tc.gomod {
				t.Errorf("user go.mod changed:\n%s", b)
			}
		})
	}
}

func TestOverlayIsContentAddressed(t *testing.T) {
	cache := t.TempDir()
	a, err := writeOverlay(cache, map[string]string{"/m/a.go": "/c/a.go"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := writeOverlay(cache, map[string]string{"/m/a.go": "/c/a.go"})
	c, _ := writeOverlay(cache, map[string]string{"/m/a.go": "/c/b.go"})
	if a != b || a == c {
		t.Errorf("overlay paths %s %s %s: want equal content at one path", a, b, c)
	}
	got, _ := os.ReadFile(a)
	if !strings.Contains(string(got), `"Replace": {`) || !strings.Contains(string(got), `"/m/a.go": "/c/a.go"`) {
		t.Errorf("overlay.json = %s", got)
	}
}
