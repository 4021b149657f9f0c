package ops_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

var update = flag.Bool("update", false, "rewrite the expected results in testdata golden files (files and commits stay hand-written)")

// goldenCase is one testdata/<tool>/*.json file: a repository to start
// from and a sequence of steps.
type goldenCase struct {
	// Head files are committed on main; Disk files are then written (or,
	// when null, deleted) without committing: the person's uncommitted work.
	Head   map[string]string  `json:"head"`
	Disk   map[string]*string `json:"disk,omitempty"`
	Config map[string]string  `json:"config,omitempty"`
	Steps  []goldenStep       `json:"steps"`
}

type goldenStep struct {
	// Either Args (a tool call) or Write (a person editing files between
	// calls; null deletes).
	Args json.RawMessage `json:"args,omitempty"`
	// Tool overrides the folder's tool for this step, so one session can
	// mix dialects (a text_editor view before an Edit).
	Tool  string             `json:"tool,omitempty"`
	Write map[string]*string `json:"write,omitempty"`
	// Result is the expected result object, with commit ids shown as
	// "<commit>".
	Result json.RawMessage `json:"result,omitempty"`
	// Files are the exact bytes expected afterwards (null: no such file).
	Files map[string]*string `json:"files,omitempty"`
	// Commits are the commits the call adds to the session ref, oldest
	// first, as "op tool" (e.g. "sync", "edit text_editor.str_replace").
	Commits []string `json:"commits,omitempty"`
}

// Commit ids, full or abbreviated to 12, change with every run (commits carry
// the time); so do temporary directories.
var (
	commitID = regexp.MustCompile(`\b[0-9a-f]{40}\b`)
	shortID  = regexp.MustCompile(`\b[0-9a-f]{12}\b`)
)

// runGolden runs every case in testdata/<tool>.
func runGolden(t *testing.T, tool string) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", tool, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files for %s: %v", tool, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var gc goldenCase
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&gc); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if runCase(t, tool, &gc) && *update {
				writeGolden(t, file, &gc)
			}
		})
	}
}

// runCase plays a case and reports whether results were rewritten.
func runCase(t *testing.T, tool string, gc *goldenCase) (rewritten bool) {
	dir := gittest.New(t)
	// Bystanders: a tracked file with uncommitted changes and an untracked
	// file that no case touches. Their bytes and status must never change.
	head := map[string]string{bystanderModified: "committed\n"}
	for p, c := range gc.Head {
		head[p] = c
	}
	gittest.Commit(t, dir, head)
	gittest.WriteFile(t, dir, bystanderModified, "person's uncommitted work\n")
	gittest.WriteFile(t, dir, bystanderUntracked, "person's new file\n")
	for k, v := range gc.Config {
		gittest.Git(t, dir, "config", k, v)
	}
	writeFiles(t, dir, gc.Disk)
	person := gittest.Snapshot(t, dir)
	opts := ops.Options{Root: dir, Session: "golden"}
	known := knownPaths(gc)
	bystanders := readAll(t, dir, []string{bystanderModified, bystanderUntracked})
	untouchedStatus := gittest.StatusExcept(t, dir, known...)

	for i, step := range gc.Steps {
		if step.Write != nil {
			writeFiles(t, dir, step.Write)
			continue
		}
		beforeFiles := readAll(t, dir, known)
		beforeTip := gittest.Rev(t, dir, "refs/edits/golden")
		beforeLog, _ := gittest.GitErr(dir, "reflog", "refs/edits/golden")

		stepTool := tool
		if step.Tool != "" {
			stepTool = step.Tool
		}
		res, err := ops.Call(context.Background(), opts, stepTool, step.Args)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		got := normalize(t, res.Value, dir)
		if *update {
			gc.Steps[i].Result, rewritten = got, true
		} else if want := canonical(t, step.Result); !bytes.Equal(canonical(t, got), want) {
			t.Errorf("step %d %s:\n got  %s\n want %s", i, step.Args, got, want)
		}

		for p, want := range step.Files {
			if g := gittest.ReadFile(t, dir, p); g != deref(want) {
				t.Errorf("step %d: %s = %q, want %q", i, p, g, deref(want))
			}
		}
		if !res.OK {
			// A refusal changes nothing: files, ref and reflog as they were.
			if after := readAll(t, dir, known); !equalMaps(after, beforeFiles) {
				t.Errorf("step %d: refused call changed files:\n%v\n%v", i, beforeFiles, after)
			}
			afterLog, _ := gittest.GitErr(dir, "reflog", "refs/edits/golden")
			if gittest.Rev(t, dir, "refs/edits/golden") != beforeTip || afterLog != beforeLog {
				t.Errorf("step %d: refused call moved the session ref", i)
			}
		}
		if got := newCommits(t, dir, beforeTip); strings.Join(got, "|") != strings.Join(step.Commits, "|") {
			t.Errorf("step %d: commits %q, want %q", i, got, step.Commits)
		}
		if after := gittest.Snapshot(t, dir); after != person {
			t.Fatalf("step %d changed the person's repository state:\n%+v\n%+v", i, person, after)
		}
		if st := gittest.StatusExcept(t, dir, known...); st != untouchedStatus {
			t.Fatalf("step %d changed git status of untouched files:\n%s\nwas\n%s", i, st, untouchedStatus)
		}
		if b := readAll(t, dir, []string{bystanderModified, bystanderUntracked}); !equalMaps(b, bystanders) {
			t.Fatalf("step %d changed an untouched file: %v", i, b)
		}
	}
	gittest.Fsck(t, dir)
	return rewritten
}

const (
	bystanderModified  = "bystander/modified.txt"
	bystanderUntracked = "bystander/untracked.txt"
)

// newCommits lists the commits added to the session since tip, oldest
// first, as "op tool", and checks each names the session.
func newCommits(t *testing.T, dir, tip string) []string {
	t.Helper()
	if gittest.Rev(t, dir, "refs/edits/golden") == "" {
		return nil
	}
	// The session's commits are exactly what `git log HEAD..refs/edits/S` lists.
	rng := "HEAD..refs/edits/golden"
	if tip != "" {
		rng = tip + "..refs/edits/golden"
	}
	out := gittest.Git(t, dir, "log", "--reverse", "--format=%(trailers:key=Edit-Op,valueonly,separator=) %(trailers:key=Edit-Tool,valueonly,separator=)|%(trailers:key=Edit-Session,valueonly,separator=)", rng)
	var commits []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		what, session, _ := strings.Cut(line, "|")
		if session != "golden" {
			t.Errorf("commit without Edit-Session: golden: %q", line)
		}
		commits = append(commits, strings.TrimSpace(what))
	}
	return commits
}

// normalize renders a result as compact JSON with what varies between runs
// replaced: commit ids by <commit> and <short>, the repository by <repo>,
// its parent by <tmp>.
func normalize(t *testing.T, v any, dir string) json.RawMessage {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	b := commitID.ReplaceAll(bytes.TrimSpace(buf.Bytes()), []byte("<commit>"))
	b = shortID.ReplaceAll(b, []byte("<short>"))
	if dir != "" {
		b = bytes.ReplaceAll(b, []byte(dir), []byte("<repo>"))
		b = bytes.ReplaceAll(b, []byte(filepath.Dir(dir)), []byte("<tmp>"))
	}
	return b
}

// canonical re-encodes JSON with sorted keys, so field order never matters.
func canonical(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return normalize(t, v, "")
}

// writeGolden rewrites the file with the new results, indented.
func writeGolden(t *testing.T, file string, gc *goldenCase) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(gc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeFiles(t *testing.T, dir string, files map[string]*string) {
	for p, c := range files {
		if c == nil {
			os.Remove(filepath.Join(dir, p))
			continue
		}
		gittest.WriteFile(t, dir, p, *c)
	}
}

func knownPaths(gc *goldenCase) []string {
	set := map[string]bool{}
	for p := range gc.Head {
		set[p] = true
	}
	for p := range gc.Disk {
		set[p] = true
	}
	for _, s := range gc.Steps {
		for p := range s.Files {
			set[p] = true
		}
		for p := range s.Write {
			set[p] = true
		}
	}
	var out []string
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func readAll(t *testing.T, dir string, paths []string) map[string]string {
	m := map[string]string{}
	for _, p := range paths {
		m[p] = gittest.ReadFile(t, dir, p)
	}
	return m
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func deref(s *string) string {
	if s == nil {
		return gittest.Missing
	}
	return *s
}

// TestGolden runs the golden cases of every tool: testdata/<tool>/ for
// each tool of the registry. A tool without cases, or a folder naming no
// tool, fails: every tool is covered, by a folder of its own or by steps
// of another folder's cases that name it.
func TestGolden(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	used := goldenToolsUsed(t)
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		if !slices.Contains(ops.Tools(), d.Name()) {
			t.Errorf("testdata/%s names no tool of ops.Registry()", d.Name())
		}
	}
	for _, tool := range ops.Tools() {
		if _, err := os.Stat(filepath.Join("..", "testdata", tool)); err == nil {
			t.Run(tool, func(t *testing.T) { runGolden(t, tool) })
		} else if !used[tool] {
			t.Errorf("%s has no golden cases: add testdata/%s/*.json", tool, tool)
		}
	}
}

// goldenToolsUsed is every tool some golden step calls.
func goldenToolsUsed(t *testing.T) map[string]bool {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, f := range files {
		var gc goldenCase
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if json.Unmarshal(raw, &gc) != nil {
			continue // not a golden case (runGolden reports bad ones)
		}
		tool := filepath.Base(filepath.Dir(f))
		for _, st := range gc.Steps {
			if st.Args == nil {
				continue
			}
			if st.Tool != "" {
				used[st.Tool] = true
			} else {
				used[tool] = true
			}
		}
	}
	return used
}
