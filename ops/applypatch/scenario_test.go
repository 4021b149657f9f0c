package applypatch

import (
	"errors"
	"flag"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite each scenario's result.txt (patch, input and expected files stay hand-written)")

// TestScenarios runs every testdata/scenarios/NNN_name directory: patch.txt
// is parsed and planned against the files under input/; the files after
// the changes must be exactly those under expected/ (the input, unchanged,
// when there is no expected/ directory: a refusal changes nothing), and
// the success text or refusal message must be result.txt.
//
// Scenarios 001-022 follow Codex's own fixtures of the same numbers
// (codex-rs/apply-patch/tests/fixtures/scenarios in openai/codex), 010,
// 011, 014 and 015 turned into git-edit's behaviour (refuse instead of
// overwriting, keep a missing final newline, all or nothing); 023 is the
// example of Codex's apply_patch_tool_instructions.md; the rest are
// git-edit's edge cases.
func TestScenarios(t *testing.T) {
	dirs, err := filepath.Glob("testdata/scenarios/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			patch, err := os.ReadFile(filepath.Join(dir, "patch.txt"))
			if err != nil {
				t.Fatal(err)
			}
			input := readTree(t, filepath.Join(dir, "input"))
			want := input
			if _, err := os.Stat(filepath.Join(dir, "expected")); err == nil {
				want = readTree(t, filepath.Join(dir, "expected"))
			}

			got, result := runPatch(t, string(patch), input)
			if !maps.EqualFunc(got, want, func(a, b []byte) bool { return string(a) == string(b) }) {
				t.Errorf("files after the patch:\n%q\nwant:\n%q", got, want)
			}
			golden := filepath.Join(dir, "result.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(result), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			wantResult, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if result != string(wantResult) {
				t.Errorf("result:\n%s\nwant:\n%s", result, wantResult)
			}
		})
	}
}

// runPatch parses patch and plans it against files (path -> content),
// returning the files after the changes and the success text, or the files
// unchanged and the refusal's message. Any error but a *Failure fails t.
func runPatch(t *testing.T, patch string, files map[string][]byte) (map[string][]byte, string) {
	t.Helper()
	p, err := Parse(patch)
	if err == nil {
		var changes []Change
		var sum Summary
		changes, sum, err = Plan(p, state(p, files))
		if err == nil {
			return applyChanges(t, files, changes), sum.Text()
		}
		if changes != nil {
			t.Errorf("a refused Plan returned changes: %v", changes)
		}
	}
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("refusal is not a *Failure: %T %v", err, err)
	}
	return files, f.Message
}

// state is the File map Plan needs: every path of the patch, from files.
func state(p Patch, files map[string][]byte) map[string]File {
	out := map[string]File{}
	for _, path := range p.Paths() {
		c, ok := files[path]
		out[path] = File{Content: c, Exists: ok}
	}
	return out
}

// applyChanges returns a copy of files with changes applied, checking that
// each path changes once and a Delete names an existing file.
func applyChanges(t *testing.T, files map[string][]byte, changes []Change) map[string][]byte {
	t.Helper()
	out := maps.Clone(files)
	seen := map[string]bool{}
	for _, c := range changes {
		if seen[c.Path] {
			t.Errorf("%s changed twice", c.Path)
		}
		seen[c.Path] = true
		if c.Delete {
			if _, ok := out[c.Path]; !ok {
				t.Errorf("delete of missing %s", c.Path)
			}
			delete(out, c.Path)
			continue
		}
		out[c.Path] = c.Content
	}
	return out
}

// readTree reads every file under root into a map keyed by slash path
// relative to root; a missing root is an empty tree.
func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}
