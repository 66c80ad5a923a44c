package driver

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

// go/packages gives each package its own *packages.Module: two packages of
// one dependency module must still land in one mirror, or the replace
// directive of one mirror leaves the other package native (testify's
// assert ran uninstrumented next to an instrumented require).
func TestMirrorOneModuleManyPackages(t *testing.T) {
	modCache := t.TempDir()
	modDir := filepath.Join(modCache, "example.com", "dep@v1.0.0")
	writeTree(t, modDir, map[string]string{
		"go.mod": "module example.com/dep\n\ngo 1.21\n",
		"a/a.go": "package a\n",
		"b/b.go": "package b\n",
	})
	inst := t.TempDir()
	writeTree(t, inst, map[string]string{"a.go": "package a // instrumented\n", "b.go": "package b // instrumented\n"})
	aFile, bFile := filepath.Join(modDir, "a", "a.go"), filepath.Join(modDir, "b", "b.go")
	replace := map[string]string{aFile: filepath.Join(inst, "a.go"), bFile: filepath.Join(inst, "b.go")}
	modules := map[string]*packages.Module{
		aFile: {Path: "example.com/dep", Version: "v1.0.0", Dir: modDir},
		bFile: {Path: "example.com/dep", Version: "v1.0.0", Dir: modDir},
	}
	mirrors, err := mirrorModules(t.TempDir(), modCache, replace, modules)
	if err != nil {
		t.Fatal(err)
	}
	if len(mirrors) != 1 {
		t.Fatalf("got %d mirrors of one module, want 1: %+v", len(mirrors), mirrors)
	}
	for _, f := range []string{"a/a.go", "b/b.go"} {
		got := readFile(t, filepath.Join(mirrors[0].Dir, filepath.FromSlash(f)))
		if want := "package " + f[:1] + " // instrumented\n"; got != want {
			t.Errorf("mirror's %s = %q, want the instrumented %q", f, got, want)
		}
	}
	if len(replace) != 0 {
		t.Errorf("files in the module cache left in the overlay: %v", replace)
	}
}
