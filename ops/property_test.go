package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// Environment variables that reproduce or lengthen a run of
// TestRandomSessionLeavesPersonsRepositoryAlone.
const (
	propSeedEnv  = "GIT_EDIT_PROPERTY_SEED"
	propStepsEnv = "GIT_EDIT_PROPERTY_STEPS"
)

// TestRandomSessionLeavesPersonsRepositoryAlone drives a long random session
// on a real repository that looks like a person's (several commits, a tag, a
// second branch, a stash entry, a staged change, uncommitted and untracked
// files, config): every dialect, valid calls mostly and some invalid ones,
// undo, redo and rollback (to an earlier edit sometimes, forced sometimes),
// and the person editing, deleting and creating files in between.
//
// After every step, HEAD, the index, every branch and tag, the config and the
// stash are byte-identical to the start, `git fsck --strict` is clean, and
// every worktree file is what a model of the session expects: a refused step
// changes nothing; a successful one changes only the paths it names, and
// records exactly a sync commit of the person's changes to those paths (when
// there are any) and one commit of the change; undo, redo and rollback pick
// the edit the model picks (README: "the last edit still in effect", undo
// depth, never over a person's change) and restore its bytes; Edit refuses a
// file the session has not seen as it is. Every few steps the session's tip
// tree is compared with the model's record of each path.
//
// The seed is fixed; GIT_EDIT_PROPERTY_SEED overrides it (a failure prints
// it), GIT_EDIT_PROPERTY_STEPS the number of steps (400; 60 with -short).
func TestRandomSessionLeavesPersonsRepositoryAlone(t *testing.T) {
	seed := uint64(20261121)
	if v := os.Getenv(propSeedEnv); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", propSeedEnv, v, err)
		}
		seed = n
	}
	steps := 400
	if testing.Short() {
		steps = 60
	}
	if v := os.Getenv(propStepsEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a number of steps", propStepsEnv, v)
		}
		steps = n
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("random seed %d; reproduce with %s=%d go test ./ops -run '^TestRandomSessionLeavesPersonsRepositoryAlone$'", seed, propSeedEnv, seed)
		}
	})
	s := newPropSession(t, seed)
	for i := range steps {
		s.stepNo = i
		s.step()
		s.checkAfterStep(i%10 == 9 || i == steps-1)
	}
	t.Logf("%d steps: %d session commits; %s", steps, len(s.commits), s.tally())
}

// propSession is the repository, the random source and the model.
type propSession struct {
	t      *testing.T
	dir    string
	rng    *rand.Rand
	opts   ops.Options
	start  gittest.State
	stepNo int
	trail  []string       // what each step did, for failure messages
	counts map[string]int // outcomes, for the final log line
	newN   int            // numbering of new files
	// again, after a successful undo or redo, is that kind and path: runs
	// of undos reach the undo depth and the session's start.
	again *propAgain
	// focus is the file last changed by a call: edits often go on in the
	// same file, as an agent's do, so that undo runs reach the depth.
	focus string

	// The model. File states are bytes, or gittest.Missing.
	disk  map[string]string // the worktree (regular files)
	head  map[string]string // HEAD's files
	rec   map[string]string // the session's record of each path it touched (its tip tree)
	seen  map[string]string // what the session last saw of a path (Read, view, its own writes)
	depth int               // edit.undoDepth

	commits []*propCommit
	// undoable and redoable are, per path, what undo and redo may revert
	// (see track).
	undoable, redoable map[string][]*propCommit
	firstTouch         map[string]int    // path → index of the first commit touching it
	firstState         map[string]string // path → its state before the session touched it
	recAt              []map[string]string
}

type propAgain struct{ kind, path string }

// propCommit is a session commit as the model knows it.
type propCommit struct {
	hash   string
	op     string // edit, sync, undo, redo, rollback
	paths  []string
	before map[string]string // each path's recorded state in the parent
	undoes string
	// rollbackTo is, for a rollback, the index of the commit it returned
	// to (-1: the start of the session).
	rollbackTo int
	seq        int // its index in propSession.commits
}

const propDepth = 2

var propWords = []string{"alpha", "beta", "gamma", "delta", "omega", "zeta", "kappa", "sigma"}

func newPropSession(t *testing.T, seed uint64) *propSession {
	t.Helper()
	a := "alpha one\nbeta two\ngamma three\ndelta four\nalpha five\n"
	dir := gittest.NewWithCommit(t, map[string]string{
		"a.txt":        a,
		"b.txt":        "first line\r\nsecond line\r\nthird line\r\n",
		"src/main.go":  "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"doc/notes.md": "# Notes\n\n- one\n- two",
		"bom.txt":      "\uFEFFbom first\nbom second\n",
	})
	gittest.Git(t, dir, "tag", "v0")
	gittest.Commit(t, dir, map[string]string{"src/main.go": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n\tif true {\n\t\treturn\n\t}\n}\n"})
	gittest.Git(t, dir, "checkout", "-q", "-b", "feature")
	gittest.Commit(t, dir, map[string]string{"feature.txt": "feature work\n", "a.txt": a + "feature line\n"})
	gittest.Git(t, dir, "checkout", "-q", "main")
	gittest.WriteFile(t, dir, "b.txt", "stashed change\r\n")
	gittest.Git(t, dir, "stash", "push", "-q", "-m", "person's stash")
	gittest.WriteFile(t, dir, "src/main.go", "package main\n\n// staged\nfunc main() {\n\tprintln(\"hi\")\n}\n")
	gittest.Git(t, dir, "add", "src/main.go")
	gittest.WriteFile(t, dir, "src/main.go", "package main\n\n// staged, then edited\nfunc main() {\n\tprintln(\"hi\")\n}\n")
	gittest.WriteFile(t, dir, "a.txt", a+"uncommitted line\n")
	gittest.WriteFile(t, dir, "notes.txt", "untracked notes\n")
	gittest.Git(t, dir, "config", "edit.undoDepth", strconv.Itoa(propDepth))
	gittest.Git(t, dir, "config", "user.name", "Person")
	gittest.Git(t, dir, "config", "alias.lg", "log --oneline")
	gittest.Git(t, dir, "config", "core.autocrlf", "false")

	s := &propSession{
		t: t, dir: dir, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		opts:  ops.Options{Root: dir, Session: "s"},
		start: gittest.Snapshot(t, dir), counts: map[string]int{},
		head: map[string]string{}, rec: map[string]string{}, seen: map[string]string{},
		depth: propDepth, undoable: map[string][]*propCommit{}, redoable: map[string][]*propCommit{}, firstTouch: map[string]int{}, firstState: map[string]string{},
	}
	for _, p := range strings.Fields(gittest.Git(t, dir, "ls-tree", "-r", "--name-only", "HEAD")) {
		s.head[p] = gittest.Git(t, dir, "cat-file", "blob", "HEAD:"+p)
	}
	s.disk = s.actualFiles()
	return s
}

// ---------------------------------------------------------------------------
// Reading the repository.

func (s *propSession) actualFiles() map[string]string {
	m := map[string]string{}
	for p, f := range readWorktree(s.t, s.dir) {
		m[p] = f.data
	}
	return m
}

func (s *propSession) tip() string { return gittest.Rev(s.t, s.dir, "refs/edits/s") }

func state(m map[string]string, p string) string {
	if v, ok := m[p]; ok {
		return v
	}
	return gittest.Missing
}

// recOf is the session's record of p: its tip tree, which is HEAD's for a
// path it never touched.
func (s *propSession) recOf(p string) string {
	if v, ok := s.rec[p]; ok {
		return v
	}
	return state(s.head, p)
}

// loggedCommit is a session commit as git shows it.
type loggedCommit struct {
	hash, op, undoes string
	paths            []string
}

// newCommits lists the session commits after from up to to, oldest first,
// with their trailers, as plain git reads them.
func (s *propSession) newCommits(from, to string) []loggedCommit {
	not := "^HEAD"
	if from != "" {
		not = "^" + from
	}
	out := gittest.Git(s.t, s.dir, "log", "--reverse", "--format=%H%n%B%x00", to, not)
	var list []loggedCommit
	for _, entry := range strings.Split(out, "\x00") {
		entry = strings.TrimLeft(entry, "\n")
		if entry == "" {
			continue
		}
		lines := strings.Split(entry, "\n")
		c := loggedCommit{hash: lines[0]}
		for _, l := range lines[1:] {
			switch {
			case strings.HasPrefix(l, "Edit-Op: "):
				c.op = strings.TrimPrefix(l, "Edit-Op: ")
			case strings.HasPrefix(l, "Edit-Path: "):
				c.paths = append(c.paths, strings.TrimPrefix(l, "Edit-Path: "))
			case strings.HasPrefix(l, "Edit-Undoes: "):
				c.undoes = strings.TrimPrefix(l, "Edit-Undoes: ")
			}
		}
		list = append(list, c)
	}
	return list
}

// ---------------------------------------------------------------------------
// Failure reporting.

func (s *propSession) note(format string, args ...any) {
	s.trail = append(s.trail, fmt.Sprintf("step %d: ", s.stepNo)+fmt.Sprintf(format, args...))
}

func (s *propSession) fatalf(format string, args ...any) {
	s.t.Helper()
	from := max(0, len(s.trail)-12)
	s.t.Fatalf("step %d: %s\nthe last steps:\n  %s", s.stepNo, fmt.Sprintf(format, args...), strings.Join(s.trail[from:], "\n  "))
}

func (s *propSession) tally() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(s.counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, s.counts[k]))
	}
	return strings.Join(parts, ", ")
}

// ---------------------------------------------------------------------------
// After every step.

func (s *propSession) checkAfterStep(tree bool) {
	s.t.Helper()
	if got := s.actualFiles(); !maps.Equal(got, s.disk) {
		s.fatalf("the worktree is not what the model expects:\n%s", mapDiff(s.disk, got))
	}
	if got := gittest.Snapshot(s.t, s.dir); got != s.start {
		s.fatalf("the person's repository changed:\nbefore %+v\nafter  %+v", s.start, got)
	}
	gittest.Fsck(s.t, s.dir)
	if !tree || len(s.commits) == 0 {
		return
	}
	tip := s.commits[len(s.commits)-1].hash
	if got := s.tip(); got != tip {
		s.fatalf("the session ref is %s, the model's last commit %s", got, tip)
	}
	paths := slices.Sorted(maps.Keys(s.rec))
	specs := make([]string, len(paths))
	for i, p := range paths {
		specs[i] = tip + ":" + p
	}
	for i, got := range gittest.Blobs(s.t, s.dir, specs...) {
		if p := paths[i]; got != s.rec[p] {
			s.fatalf("the session's tip records %s as %s, the model as %s", p, shorten(got), shorten(s.rec[p]))
		}
	}
}

func mapDiff(want, got map[string]string) string {
	var out []string
	keys := slices.Sorted(maps.Keys(want))
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if state(want, k) != state(got, k) {
			out = append(out, fmt.Sprintf("  %s: want %s, got %s", k, shorten(state(want, k)), shorten(state(got, k))))
		}
	}
	return strings.Join(out, "\n")
}

// ---------------------------------------------------------------------------
// Steps.

func (s *propSession) step() {
	s.t.Helper()
	if again := s.again; again != nil && s.rng.IntN(4) > 0 {
		s.historyStepOn(again.kind, again.path)
		return
	}
	s.again = nil
	switch r := s.rng.IntN(100); {
	case r < 10:
		s.personStep()
	case r < 19:
		s.historyStep("undo")
	case r < 25:
		s.historyStep("redo")
	case r < 32:
		s.rollbackStep()
	case r < 39:
		s.invalidStep()
	default:
		s.toolStep()
	}
}

// personStep: the person edits, deletes or creates a file, outside git-edit.
func (s *propSession) personStep() {
	s.t.Helper()
	files := slices.Sorted(maps.Keys(s.disk))
	p := files[s.rng.IntN(len(files))]
	switch k := s.rng.IntN(5); {
	case k == 0 && len(files) > 4:
		must(s.t, os.Remove(filepath.Join(s.dir, filepath.FromSlash(p))))
		delete(s.disk, p)
		s.note("person deletes %s", p)
	case k == 1:
		s.newN++
		p = fmt.Sprintf("person/new%d.txt", s.newN)
		s.personWrite(p, s.randLines(1+s.rng.IntN(3)))
	default:
		content := s.disk[p]
		ls := splitLines(content)
		if len(ls) > 0 && s.rng.IntN(2) == 0 {
			i := s.rng.IntN(len(ls))
			ls[i] = s.randLine() + eolOf(ls[i])
			content = joinLines(ls)
		} else {
			content += "person: " + s.randLine() + "\n"
		}
		s.personWrite(p, content)
	}
}

func (s *propSession) personWrite(p, content string) {
	gittest.WriteFile(s.t, s.dir, p, content)
	s.disk[p] = content
	s.note("person writes %s = %s", p, shorten(content))
}

func eolOf(line string) string {
	switch {
	case strings.HasSuffix(line, "\r\n"):
		return "\r\n"
	case strings.HasSuffix(line, "\n"):
		return "\n"
	}
	return ""
}

func (s *propSession) randLine() string {
	n := 1 + s.rng.IntN(3)
	w := make([]string, n)
	for i := range w {
		w[i] = propWords[s.rng.IntN(len(propWords))]
	}
	return strings.Join(w, " ")
}

func (s *propSession) randLines(n int) string {
	var sb strings.Builder
	for range n {
		sb.WriteString(s.randLine() + "\n")
	}
	return sb.String()
}

// pickFile returns an existing file (often the focus), or "" when there is
// none.
func (s *propSession) pickFile() string {
	if _, ok := s.disk[s.focus]; ok && s.rng.IntN(5) < 2 {
		return s.focus
	}
	files := slices.Sorted(maps.Keys(s.disk))
	if len(files) == 0 {
		return ""
	}
	return files[s.rng.IntN(len(files))]
}

func (s *propSession) newPath() string {
	s.newN++
	return fmt.Sprintf("gen/agent%d.txt", s.newN)
}

// lineText returns the text of a random line of p without its line ending
// and without a BOM, one that occurs once in the file most of the time, or
// "" for an empty file.
func (s *propSession) lineText(p string, not ...string) string {
	ls := splitLines(strings.TrimPrefix(s.disk[p], "\uFEFF"))
	var texts, unique []string
	for _, l := range ls {
		text := strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
		if slices.Contains(not, text) {
			continue
		}
		texts = append(texts, text)
		if text != "" && len(occurrences(s.disk[p], text)) == 1 {
			unique = append(unique, text)
		}
	}
	if len(unique) > 0 && s.rng.IntN(5) > 0 {
		return unique[s.rng.IntN(len(unique))]
	}
	if len(texts) == 0 {
		return ""
	}
	return texts[s.rng.IntN(len(texts))]
}

// propWant is what the model knows about a call before it runs.
type propWant struct {
	refuse, succeed bool
	result          map[string]string // exact bytes on success
	readOnly        bool              // never records anything
	seen            string            // a path a success counts as seen (Read, view)
	// readCheck (Edit, MultiEdit): a refusal's "error" must be readError,
	// the read-before-edit refusal the model expects ("" for none).
	readCheck bool
	readError string
}

func (w propWant) becomes(p, content string) propWant {
	w.succeed = true
	w.result = map[string]string{p: content}
	return w
}

func (w propWant) from(x expectation, p string) propWant {
	switch {
	case !x.known:
	case x.refuse:
		w.refuse = true
	default:
		w = w.becomes(p, x.result)
	}
	return w
}

// toolStep makes one (mostly valid) call of a random dialect.
func (s *propSession) toolStep() {
	s.t.Helper()
	p := s.pickFile()
	if p == "" { // every file was removed: make one
		p = s.newPath()
		s.call("text_editor", map[string]any{"command": "create", "path": p, "file_text": "new\n"}, []string{p}, propWant{}.becomes(p, "new\n"))
		return
	}
	content := s.disk[p]
	plain := plainLF([]byte(content))
	switch k := s.rng.IntN(17); k {
	case 0: // text_editor view
		args := map[string]any{"command": "view", "path": p}
		if s.rng.IntN(3) == 0 {
			args["view_range"] = []int{1, -1}
		}
		if content == "" {
			delete(args, "view_range")
		}
		s.call("text_editor", args, []string{p}, propWant{succeed: true, readOnly: true, seen: p})
	case 1: // text_editor write, an existing or a new file
		text := s.randLines(1 + s.rng.IntN(4))
		w := propWant{succeed: true}
		if s.rng.IntN(3) == 0 {
			p = s.newPath()
			w = w.becomes(p, text)
		} else if plain {
			w = w.becomes(p, text)
		}
		s.call("text_editor", map[string]any{"command": "write", "path": p, "file_text": text}, []string{p}, w)
	case 2: // text_editor create
		text := s.randLines(1 + s.rng.IntN(3))
		if s.rng.IntN(4) == 0 {
			s.call("text_editor", map[string]any{"command": "create", "path": p, "file_text": text}, []string{p}, propWant{refuse: true})
			return
		}
		np := s.newPath()
		s.call("text_editor", map[string]any{"command": "create", "path": np, "file_text": text}, []string{np}, propWant{}.becomes(np, text))
	case 3: // text_editor str_replace of a line's text
		old, repl := s.lineText(p), s.randLine()
		if old == "" {
			old = "alpha"
		}
		var w propWant
		if offs := occurrences(content, old); len(offs) == 1 {
			w = w.becomes(p, content[:offs[0]]+repl+content[offs[0]+len(old):])
		} else {
			w.refuse = true
		}
		s.call("text_editor", map[string]any{"command": "str_replace", "path": p, "old_str": old, "new_str": repl}, []string{p}, w)
	case 4: // text_editor insert
		n := lineCount(strings.TrimPrefix(content, "\uFEFF"))
		line := s.rng.IntN(n + 2)
		text := s.randLine()
		w := propWant{}
		switch {
		case line > n:
			w.refuse = true
		case plain:
			w = w.from(insertExpectation(content, int64(line), text), p)
		default:
			w.succeed = true
		}
		s.call("text_editor", map[string]any{"command": "insert", "path": p, "insert_line": line, "new_str": text}, []string{p}, w)
	case 5: // text_editor undo_edit
		p = s.pickTouched()
		s.undoEditTool(p)
	case 6, 7: // edit: insert, delete or replace by lines, or offsets
		n := lineCount(strings.TrimPrefix(content, "\uFEFF"))
		l1 := 1 + s.rng.IntN(n+1)
		l2 := l1 + s.rng.IntN(min(3, n+2-l1))
		pos := func(l int) map[string]any { return map[string]any{"line": l, "column": 1} }
		cmd := []string{"insert", "delete", "replace"}[s.rng.IntN(3)]
		a := map[string]any{"file_path": p}
		switch cmd {
		case "insert":
			a["position"], a["content"] = pos(l1), s.randLine()+"\n"
		case "delete":
			a["range"] = map[string]any{"start": pos(l1), "end": pos(l2)}
		case "replace":
			a["range"], a["content"] = map[string]any{"start": pos(l1), "end": pos(l2)}, s.randLines(1)
		}
		s.call("edit", map[string]any{"command": cmd, "arguments": a}, []string{p}, propWant{})
	case 8: // edit replaceAll or search of a word
		word := propWords[s.rng.IntN(len(propWords))]
		pattern := `\b` + regexp.QuoteMeta(word) + `\b`
		if s.rng.IntN(3) == 0 {
			s.call("edit", map[string]any{"command": "search", "arguments": map[string]any{"file_path": p, "pattern": pattern}},
				[]string{p}, propWant{succeed: true, readOnly: true})
			return
		}
		repl := strings.ToUpper(word) + "${0}"
		w := propWant{succeed: true}
		if plain && isASCII(content) {
			w = w.becomes(p, regexp.MustCompile(pattern).ReplaceAllString(content, repl))
		}
		s.call("edit", map[string]any{"command": "replaceAll", "arguments": map[string]any{"file_path": p, "pattern": pattern, "replacement": repl}}, []string{p}, w)
	case 9: // edit_lines: one to three operations, overlapping sometimes
		n := lineCount(strings.TrimPrefix(content, "\uFEFF"))
		var ops []elOp
		var list []any
		for range 1 + s.rng.IntN(3) {
			op := elOp{kind: editLinesKinds[s.rng.IntN(3)], a: 1 + s.rng.IntN(max(n, 1)), content: []string{s.randLine()}}
			op.b = op.a + s.rng.IntN(2)
			m := map[string]any{"op": op.kind}
			switch op.kind {
			case "replace":
				m["startLine"], m["endLine"], m["content"] = op.a, op.b, op.content
			case "insert":
				op.a--
				m["afterLine"], m["content"] = op.a, op.content
			case "delete":
				op.content = nil
				m["startLine"], m["endLine"] = op.a, op.b
			}
			ops, list = append(ops, op), append(list, m)
		}
		w := propWant{}
		if plain && (content == "" || strings.HasSuffix(content, "\n")) {
			w = w.from(editLinesExpectation(content, ops), p)
		}
		s.call("edit_lines", map[string]any{"path": p, "operations": list}, []string{p}, w)
	case 10, 11: // Edit, after a Read most of the time
		if s.rng.IntN(5) > 0 {
			s.call("Read", map[string]any{"file_path": p}, []string{p}, propWant{succeed: true, readOnly: true, seen: p})
		}
		old, repl := s.lineText(p), s.randLine()
		all := s.rng.IntN(4) == 0
		args := map[string]any{"file_path": p, "old_string": old, "new_string": repl}
		if all {
			args["replace_all"] = true
		}
		s.call("Edit", args, []string{p}, s.exactWant(p, [][2]string{{old, repl}}, []bool{all}))
	case 12: // MultiEdit of two lines
		if s.rng.IntN(5) > 0 {
			s.call("Read", map[string]any{"file_path": p, "offset": 1, "limit": 1000}, []string{p}, propWant{succeed: true, readOnly: true, seen: p})
		}
		e1 := [2]string{s.lineText(p), s.randLine()}
		e2 := [2]string{s.lineText(p, e1[0]), s.randLine()}
		args := map[string]any{"file_path": p, "edits": []any{
			map[string]any{"old_string": e1[0], "new_string": e1[1]},
			map[string]any{"old_string": e2[0], "new_string": e2[1]},
		}}
		s.call("MultiEdit", args, []string{p}, s.exactWant(p, [][2]string{e1, e2}, []bool{false, false}))
	case 13, 14: // code_edit: whole lines of a file, a new file, or two files
		ls := splitLines(strings.TrimPrefix(content, "\uFEFF"))
		switch {
		case len(ls) == 0 || s.rng.IntN(4) == 0:
			np, text := s.newPath(), s.randLines(2)
			s.call("code_edit", map[string]any{"file_path": np, "search": "", "replace": text}, []string{np}, propWant{}.becomes(np, text))
		default:
			i := s.rng.IntN(len(ls))
			search := joinLines(ls[i:min(len(ls), i+1+s.rng.IntN(2))])
			e1 := map[string]any{"file_path": p, "search": strings.TrimLeft(search, " \t"), "replace": s.randLines(1 + s.rng.IntN(2))}
			paths := []string{p}
			var args any = e1
			if q := s.pickFile(); s.rng.IntN(3) == 0 && q != p {
				e2 := map[string]any{"file_path": q, "search": "", "replace": s.randLines(1)}
				args, paths = map[string]any{"edits": []any{e1, e2}}, append(paths, q)
			}
			s.call("code_edit", args, paths, propWant{})
		}
	case 15: // edit_history: the log, or the net diff
		args := map[string]any{"n": 1 + s.rng.IntN(30)}
		if s.rng.IntN(2) == 0 {
			args = map[string]any{"diff": true}
		}
		s.call("edit_history", args, nil, propWant{succeed: true, readOnly: true})
	case 16: // Read part of a file
		s.call("Read", map[string]any{"file_path": p, "offset": 1 + s.rng.IntN(3), "limit": 1 + s.rng.IntN(3)}, []string{p}, propWant{readOnly: true, seen: p})
	}
}

// exactWant is what Edit or MultiEdit must do: refuse a file the session
// has not seen as it is now; else, in a plain LF file, README's exact
// replacement rules.
func (s *propSession) exactWant(p string, edits [][2]string, all []bool) propWant {
	content := s.disk[p]
	switch seen := state(s.seen, p); {
	case seen == gittest.Missing:
		return propWant{refuse: true, readCheck: true, readError: "File must be read before editing"}
	case seen != content:
		return propWant{refuse: true, readCheck: true, readError: "File has been modified since it was read"}
	case !plainLF([]byte(content)):
		return propWant{readCheck: true}
	}
	cur := content
	for i, e := range edits {
		switch {
		case e[0] == "" || e[0] == e[1]:
			return propWant{refuse: true, readCheck: true}
		case !strings.Contains(cur, e[0]):
			return propWant{readCheck: true}
		case all[i]:
			cur = strings.ReplaceAll(cur, e[0], e[1])
		case len(occurrences(cur, e[0])) != 1:
			return propWant{refuse: true, readCheck: true}
		default:
			cur = strings.Replace(cur, e[0], e[1], 1)
		}
	}
	w := propWant{}.becomes(p, cur)
	w.readCheck = true
	return w
}

// invalidStep makes a call that must be refused.
func (s *propSession) invalidStep() {
	s.t.Helper()
	p := s.pickFile()
	escape := filepath.Join(filepath.Dir(s.dir), "escape.txt")
	switch s.rng.IntN(9) {
	case 0:
		s.call("text_editor", map[string]any{"command": "write", "path": "../escape.txt", "file_text": "x\n"}, nil, propWant{refuse: true})
	case 1:
		s.call("text_editor", map[string]any{"command": "write", "path": ".git/config", "file_text": "[core]\n"}, nil, propWant{refuse: true})
	case 2:
		s.call("text_editor", map[string]any{"command": "str_replace", "path": "no/such/file.txt", "old_str": "a", "new_str": "b"}, nil, propWant{refuse: true})
	case 3:
		s.call("Edit", map[string]any{"file_path": p, "old_string": "text that is in no file", "new_string": "x"}, []string{p}, propWant{refuse: true})
	case 4:
		s.call("edit", []byte(`{"command":"insert","arguments":{`), []string{p}, propWant{refuse: true})
	case 5:
		s.call("text_editor", map[string]any{"command": "view", "path": p, "colour": "red"}, []string{p}, propWant{refuse: true})
	case 6:
		s.call("edit_lines", map[string]any{"path": p, "operations": []any{map[string]any{"op": "delete", "startLine": 1000, "endLine": 1000}}}, []string{p}, propWant{refuse: true})
	case 7:
		s.call("code_edit", map[string]any{"edits": []any{
			map[string]any{"file_path": p, "search": "", "replace": "would be appended\n"},
			map[string]any{"file_path": p, "search": "text that is in no file\n", "replace": "x\n"},
		}}, []string{p}, propWant{refuse: true})
	case 8:
		s.call("MultiEdit", map[string]any{"file_path": p, "edits": []any{map[string]any{"old_string": 1, "new_string": "x"}}}, []string{p}, propWant{refuse: true})
	}
	if _, err := os.Lstat(escape); err == nil {
		s.fatalf("a file was written outside the root: %s", escape)
	}
}

// call runs one tool call and checks it against the model: paths are the
// paths it names (relative to the worktree top).
func (s *propSession) call(tool string, args any, paths []string, w propWant) {
	s.t.Helper()
	raw, ok := args.([]byte)
	if !ok {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			s.t.Fatal(err)
		}
	}
	before, tip := maps.Clone(s.disk), s.tip()
	res, err := ops.Call(context.Background(), s.opts, tool, raw)
	if err != nil {
		s.fatalf("%s %s: %v", tool, raw, err)
	}
	outcome := "ok"
	if !res.OK {
		outcome = "refused"
	}
	s.counts[tool+" "+outcome]++
	s.note("%s %s: %s: %s", tool, shorten(string(raw)), outcome, firstLine(res.Text))
	checkResultShape(s.t, tool, raw, res)
	after, tipAfter := s.actualFiles(), s.tip()
	switch {
	case !res.OK:
		if tipAfter != tip || !maps.Equal(after, before) {
			s.fatalf("%s refused, yet it changed something (ref %s -> %s):\n%s", tool, tip, tipAfter, mapDiff(before, after))
		}
		if w.succeed {
			s.fatalf("%s %s must succeed, was refused: %s", tool, raw, res.Text)
		}
		if got := refusalError(res); w.readCheck && got != w.readError &&
			(w.readError != "" || got == "File must be read before editing" || got == "File has been modified since it was read") {
			s.fatalf("%s %s: refused with %q; the model expects the read-before-edit refusal %q (the session saw %s, the file is %s)",
				tool, raw, got, w.readError, shorten(state(s.seen, paths[0])), shorten(state(s.disk, paths[0])))
		}
		return
	case w.refuse:
		s.fatalf("%s %s must be refused, succeeded: %s", tool, raw, res.Text)
	case w.readOnly && (tipAfter != tip || !maps.Equal(after, before)):
		s.fatalf("read-only %s changed something:\n%s", tool, mapDiff(before, after))
	}
	for p, want := range w.result {
		if got := state(after, p); got != want {
			s.fatalf("%s %s: %s is\n  %s\nwant\n  %s", tool, raw, p, shorten(got), shorten(want))
		}
	}
	if w.seen != "" {
		s.seen[w.seen] = state(s.disk, w.seen)
	}
	if s.recordSuccess(tool, paths, before, after, tip, tipAfter, "edit", nil) && len(paths) > 0 {
		s.focus = paths[0]
	}
}

// refusalError is the "error" member of a refusal, if it has one.
func refusalError(res ops.Result) string {
	raw, _ := json.Marshal(res.Value)
	var v struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(raw, &v)
	return v.Error
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return shorten(s)
}

// recordSuccess checks what a successful operation recorded and updates
// the model: only the given paths changed; if any did, the session gained
// a sync commit of the person's changes to the given paths (if there were
// any) and one op commit of exactly the changed paths. target, for undo and
// redo, is the commit reverted.
func (s *propSession) recordSuccess(what string, given []string, before, after map[string]string, tip, tipAfter, op string, target *propCommit) (recorded bool) {
	s.t.Helper()
	var changed []string
	for _, p := range slices.Sorted(maps.Keys(union(before, after))) {
		if state(before, p) != state(after, p) {
			if !slices.Contains(given, p) {
				s.fatalf("%s changed %s, which it was not about (%v)", what, p, given)
			}
			changed = append(changed, p)
		}
	}
	if len(changed) == 0 {
		if tipAfter != tip {
			s.fatalf("%s changed no file, yet recorded commits %v", what, s.newCommits(tip, tipAfter))
		}
		return false
	}
	var outside []string
	for _, p := range given {
		if state(before, p) != s.recOf(p) && !slices.Contains(outside, p) {
			outside = append(outside, p)
		}
	}
	slices.Sort(outside)
	want := []loggedCommit{{op: op, paths: changed}}
	if len(outside) > 0 {
		want = append([]loggedCommit{{op: "sync", paths: outside}}, want...)
	}
	got := s.newCommits(tip, tipAfter)
	if len(got) != len(want) {
		s.fatalf("%s recorded %+v, the model expects %+v", what, got, want)
	}
	for i := range got {
		slices.Sort(got[i].paths)
		if got[i].op != want[i].op || !slices.Equal(got[i].paths, want[i].paths) {
			s.fatalf("%s recorded %+v, the model expects %+v", what, got, want)
		}
	}
	if target != nil && got[len(got)-1].undoes != target.hash {
		s.fatalf("%s recorded Edit-Undoes %s, the model expects %s", what, got[len(got)-1].undoes, target.hash)
	}
	for _, c := range got {
		mc := &propCommit{hash: c.hash, op: c.op, paths: c.paths, before: map[string]string{}, undoes: c.undoes, seq: len(s.commits)}
		for _, p := range c.paths {
			mc.before[p] = s.recOf(p)
			if _, ok := s.firstTouch[p]; !ok {
				s.firstTouch[p], s.firstState[p] = len(s.commits), state(before, p)
			}
			if c.op == "sync" {
				// Nothing a person wrote is lost: the sync commit holds it.
				s.rec[p] = state(before, p)
				if rec, err := gittest.GitErr(s.dir, "cat-file", "blob", c.hash+":"+p); (err != nil && s.rec[p] != gittest.Missing) || (err == nil && rec != s.rec[p]) {
					s.fatalf("the sync commit %s holds %s as %s, the person wrote %s", c.hash, p, shorten(rec), shorten(s.rec[p]))
				}
			} else {
				s.rec[p] = state(after, p)
			}
			s.track(mc, p, target)
		}
		s.commits = append(s.commits, mc)
		s.recAt = append(s.recAt, maps.Clone(s.rec))
	}
	for _, p := range changed {
		if v := state(after, p); v != gittest.Missing {
			s.seen[p] = v
		}
	}
	s.disk = after
	return true
}

func union(a, b map[string]string) map[string]string {
	m := maps.Clone(a)
	maps.Copy(m, b)
	return m
}

// ---------------------------------------------------------------------------
// Undo, redo and rollback, and the model of what they pick.

// Errors of the model, mirroring README's refusals.
var (
	errPropNothing = errors.New("nothing to undo or redo")
	errPropDepth   = errors.New("undo depth reached")
	errPropOutside = errors.New("undo stops at a change made outside git-edit")
	// errPropPersonsWork: a rollback without force would discard a change
	// the person made outside git-edit during the session.
	errPropPersonsWork = errors.New("rollback would discard your work")
)

// The model of what undo and redo pick is two stacks per path, built from
// the operations the test made (not by walking the session's history, so
// that it shares no code or shape with the history package): undoable[p]
// holds the changes of p an undo may revert, oldest first; redoable[p]
// holds the undos of p a redo by path may re-apply. An edit or rollback of
// p is pushed on undoable and empties redoable (a redo by path re-applies
// only the newest undo); an undo moves its target off undoable and pushes
// itself on redoable; a redo moves its target off redoable and pushes
// itself on undoable, so it can be undone like an edit; a sync (a person's
// change) is never undone, so it is not pushed, but it empties redoable.
// What an undo writes is predicted by revertResult, with git merge-file.
func (s *propSession) track(c *propCommit, p string, target *propCommit) {
	switch c.op {
	case "undo":
		if !slices.Contains(s.undoable[p], target) {
			s.fatalf("undo %s reverted %s, which the model has not on %s's undo stack", c.hash, target.hash, p)
		}
		s.undoable[p] = slices.DeleteFunc(s.undoable[p], func(x *propCommit) bool { return x == target })
		s.redoable[p] = append(s.redoable[p], c)
	case "redo":
		// A sync recorded by the same operation already emptied it.
		s.redoable[p] = slices.DeleteFunc(s.redoable[p], func(x *propCommit) bool { return x == target })
		s.undoable[p] = append(s.undoable[p], c)
	case "sync":
		s.redoable[p] = nil
	default: // edit, rollback
		s.undoable[p] = append(s.undoable[p], c)
		s.redoable[p] = nil
	}
}

// undoTarget is what an undo of p reverts: the top of p's undo stack;
// nothing when it is empty. README: "The last edit.undoDepth edits of a
// file can be undone ... Every edit counts, undone or not": when more than
// depth edits of p were made since that answer (the target itself
// included; all since the session's start when there is no target), undo
// refuses with the depth error instead.
func (s *propSession) undoTarget(p string) (*propCommit, error) {
	var top *propCommit
	if n := len(s.undoable[p]); n > 0 {
		top = s.undoable[p][n-1]
	}
	since := 0 // the first commit whose edits count
	if top != nil {
		since = top.seq
	}
	edits := 0
	for _, c := range s.commits[since:] {
		if c.op == "edit" && slices.Contains(c.paths, p) {
			edits++
		}
	}
	switch {
	case s.depth > 0 && edits > s.depth:
		return nil, errPropDepth
	case top == nil:
		return nil, errPropNothing
	}
	return top, nil
}

// redoTarget is what a redo of p re-applies: the top of p's redo stack.
func (s *propSession) redoTarget(p string) (*propCommit, error) {
	if n := len(s.redoable[p]); n > 0 {
		return s.redoable[p][n-1], nil
	}
	return nil, errPropNothing
}

// latest is what undo or redo without a path reverts: of every path's
// answer, the newest commit, for each path whose answer it is. A path
// whose undo must refuse (depth, a person's change) refuses it instead
// when a change of that path newer than that commit could still be in
// effect (the newest edit, redo or rollback of it).
func (s *propSession) latest(redo bool) (*propCommit, []string, error) {
	find := s.undoTarget
	if redo {
		find = s.redoTarget
	}
	var best *propCommit
	var blocked error
	blockedAt := -1
	for _, p := range slices.Sorted(maps.Keys(s.firstTouch)) {
		t, err := find(p)
		switch {
		case err == nil:
			if best == nil || t.seq > best.seq {
				best = t
			}
		case !errors.Is(err, errPropNothing):
			if at := s.newestChange(p); at > blockedAt {
				blocked, blockedAt = err, at
			}
		}
	}
	bestAt := -1
	if best != nil {
		bestAt = best.seq
	}
	switch {
	case blocked != nil && blockedAt > bestAt:
		return nil, nil, blocked
	case best == nil:
		return nil, nil, errPropNothing
	}
	var paths []string
	for _, p := range best.paths {
		if t, err := find(p); err == nil && t == best {
			paths = append(paths, p)
		}
	}
	return best, paths, nil
}

// newestChange is the position of the newest edit, redo or rollback of p
// (-1: none).
func (s *propSession) newestChange(p string) int {
	for i := len(s.commits) - 1; i >= 0; i-- {
		if c := s.commits[i]; c.op != "undo" && c.op != "sync" && slices.Contains(c.paths, p) {
			return i
		}
	}
	return -1
}

// predictRevert is what Undo or Redo of path ("" for the newest) must do:
// the commit it reverts and the paths, or why it must refuse.
func (s *propSession) predictRevert(path string, force, redo bool) (*propCommit, []string, error) {
	var t *propCommit
	var paths []string
	var err error
	if path != "" {
		paths = []string{path}
		if redo {
			t, err = s.redoTarget(path)
		} else {
			t, err = s.undoTarget(path)
		}
	} else {
		t, paths, err = s.latest(redo)
	}
	if err == nil {
		err = s.predictConflict(t, paths, force)
	}
	return t, paths, err
}

// pickTouched returns a path the session touched, or sometimes one it did
// not.
func (s *propSession) pickTouched() string {
	touched := slices.Sorted(maps.Keys(s.firstTouch))
	if len(touched) == 0 || s.rng.IntN(10) == 0 {
		return s.pickFile()
	}
	return touched[s.rng.IntN(len(touched))]
}

// historyStep is engine Undo or Redo, of a path or of the newest edit.
func (s *propSession) historyStep(kind string) {
	s.t.Helper()
	path := ""
	if s.rng.IntN(10) < 6 {
		path = s.pickTouched()
	}
	s.historyStepOn(kind, path)
}

func (s *propSession) historyStepOn(kind, path string) {
	s.t.Helper()
	redo := kind == "redo"
	force := s.rng.IntN(5) == 0
	target, paths, perr := s.predictRevert(path, force, redo)
	e, err := ops.Open(s.opts)
	if err != nil {
		s.fatalf("open: %v", err)
	}
	defer e.Close()
	before, tip := maps.Clone(s.disk), s.tip()
	op := e.Undo
	if redo {
		op = e.Redo
	}
	rev, err := op(context.Background(), path, force)
	s.afterRevert(fmt.Sprintf("%s(%q, force %v)", kind, path, force), kind, force, before, tip, rev, err, target, paths, perr)
	s.again = nil
	if err == nil {
		s.again = &propAgain{kind, path}
	}
}

// undoEditTool is text_editor undo_edit, which is Undo(path) without force.
func (s *propSession) undoEditTool(path string) {
	s.t.Helper()
	target, paths, perr := s.predictRevert(path, false, false)
	before, tip := maps.Clone(s.disk), s.tip()
	raw, _ := json.Marshal(map[string]any{"command": "undo_edit", "path": path})
	res, err := ops.Call(context.Background(), s.opts, "text_editor", raw)
	if err != nil {
		s.fatalf("undo_edit: %v", err)
	}
	checkResultShape(s.t, "text_editor", raw, res)
	var rev ops.Reverted
	if !res.OK {
		err = errors.New(res.Text)
	} else if target != nil {
		rev.Paths = []string{path}
	}
	s.afterRevert(fmt.Sprintf("text_editor undo_edit %s", path), "undo", false, before, tip, rev, err, target, paths, perr)
}

// afterRevert checks an undo or redo against the model's prediction.
func (s *propSession) afterRevert(what, op string, force bool, before map[string]string, tip string, rev ops.Reverted, err error, target *propCommit, paths []string, perr error) {
	s.t.Helper()
	outcome := "ok"
	if err != nil {
		outcome = "refused"
	}
	s.counts[op+" "+outcome]++
	if perr != nil {
		s.counts[op+" refused ("+perr.Error()+")"]++
	}
	s.note("%s: %s %v", what, outcome, err)
	after, tipAfter := s.actualFiles(), s.tip()
	if err != nil {
		if tipAfter != tip || !maps.Equal(after, before) {
			s.fatalf("%s refused (%v), yet changed something:\n%s", what, err, mapDiff(before, after))
		}
		if perr == nil {
			s.fatalf("%s refused (%v); the model expects it to revert %s (%s) for %v", what, err, target.hash, target.op, paths)
		}
		return
	}
	if perr != nil {
		s.fatalf("%s succeeded (%v for %v); the model expects a refusal: %v", what, rev.Target.Commit, rev.Paths, perr)
	}
	if h := rev.Target.Commit.String(); !rev.Target.Commit.IsZero() && h != target.hash {
		s.fatalf("%s reverted %s (%s); the model expects %s (%s)", what, h, rev.Target.Meta.Op, target.hash, target.op)
	}
	if got := slices.Sorted(slices.Values(rev.Paths)); rev.Paths != nil && !slices.Equal(got, slices.Sorted(slices.Values(paths))) {
		s.fatalf("%s reverted paths %v; the model expects %v", what, got, paths)
	}
	for _, p := range paths {
		if got, want := state(after, p), first(s.revertResult(target, p, before, force)); got != want {
			s.fatalf("%s: %s is %s; the model expects %s (before %s (%s) it was %s)", what, p, shorten(got), shorten(want), target.hash, target.op, shorten(target.before[p]))
		}
	}
	s.recordSuccess(what, paths, before, after, tip, tipAfter, op, target)
}

// errPropConflict: the undo's or redo's merge conflicts, and it is not
// forced.
var errPropConflict = errors.New("conflicts with later changes")

// revertResult is what a selective undo or redo of target writes to p,
// which is on disk as now[p] (README, Undo): target's change taken back
// by `git merge-file` (run here, on temporary files), the file as target
// left it the base, the disk the ours, the file before target the theirs;
// a creation undone removes the file only if it is unchanged, a file
// missing on either side since is a conflict; a conflict puts p back whole
// as before target when forced. ok is false for a conflict not forced.
func (s *propSession) revertResult(target *propCommit, p string, now map[string]string, force bool) (result string, ok bool) {
	before, after, ours := target.before[p], state(s.recAt[target.seq], p), state(now, p)
	switch {
	case ours == after:
		return before, true
	case ours == before:
		return ours, true
	case ours == gittest.Missing || before == gittest.Missing || after == gittest.Missing:
		return before, force
	}
	dir := s.t.TempDir()
	for name, content := range map[string]string{"base": after, "ours": ours, "theirs": before} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			s.fatalf("%v", err)
		}
	}
	cmd := exec.Command("git", "merge-file", "-p", "ours", "base", "theirs")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err == nil {
		return string(out), true
	}
	return before, force
}

func first(s string, _ bool) string { return s }

// predictConflict turns a predicted revert that conflicts into the
// refusal the model expects.
func (s *propSession) predictConflict(target *propCommit, paths []string, force bool) error {
	if target == nil {
		return nil
	}
	for _, p := range paths {
		if _, ok := s.revertResult(target, p, s.disk, force); !ok {
			s.note("the model expects %s of %s to conflict: before %q, after %q, now %q", target.hash[:7], p, target.before[p], state(s.recAt[target.seq], p), state(s.disk, p))
			return errPropConflict
		}
	}
	return nil
}

// rollbackStep is engine Rollback, to the start or to a random commit.
func (s *propSession) rollbackStep() {
	s.t.Helper()
	to, toIdx := "", -1
	if len(s.commits) > 0 && s.rng.IntN(3) > 0 {
		toIdx = s.rng.IntN(len(s.commits))
		to = s.commits[toIdx].hash
	}
	force := s.rng.IntN(2) == 0
	what := fmt.Sprintf("rollback(to %q, force %v)", to, force)

	// The model: every path the session touched goes back to its state
	// right after `to` if `to` reached it, else to its state before the
	// session; refused if none was touched, or a touched path changed on
	// disk (without force).
	touched := slices.Sorted(maps.Keys(s.firstTouch))
	want := map[string]string{}
	var perr error
	if len(s.commits) == 0 {
		perr = errPropNothing
	}
	for _, p := range touched {
		if !force && state(s.disk, p) != s.recOf(p) {
			perr = errPropOutside
		}
		if toIdx >= 0 && s.firstTouch[p] <= toIdx {
			want[p] = state(s.recAt[toIdx], p)
		} else {
			want[p] = s.firstState[p]
		}
		if !force && perr == nil && want[p] != state(s.disk, p) && s.rollbackReversesSync(p, toIdx) {
			perr = errPropPersonsWork
		}
	}

	e, err := ops.Open(s.opts)
	if err != nil {
		s.fatalf("open: %v", err)
	}
	defer e.Close()
	before, tip := maps.Clone(s.disk), s.tip()
	_, err = e.Rollback(context.Background(), to, force)
	outcome := "ok"
	if err != nil {
		outcome = "refused"
	}
	s.counts["rollback "+outcome]++
	s.note("%s: %s %v", what, outcome, err)
	after, tipAfter := s.actualFiles(), s.tip()
	switch {
	case err != nil && (tipAfter != tip || !maps.Equal(after, before)):
		s.fatalf("%s refused (%v), yet changed something:\n%s", what, err, mapDiff(before, after))
	case err != nil && perr == nil:
		s.fatalf("%s refused (%v); the model expects it to succeed", what, err)
	case err != nil:
		return
	case perr != nil:
		s.fatalf("%s succeeded; the model expects a refusal: %v", what, perr)
	}
	for _, p := range touched {
		if got := state(after, p); got != want[p] {
			s.fatalf("%s: %s is %s, the model expects %s", what, p, shorten(got), shorten(want[p]))
		}
	}
	if s.recordSuccess(what, touched, before, after, tip, tipAfter, "rollback", nil) {
		s.commits[len(s.commits)-1].rollbackTo = toIdx
	}
}

// rollbackReversesSync is the model of what a rollback of p to toIdx (-1:
// the start) discards of the person's work: a sync commit of p after
// toIdx, other than the one that first touched p (the state before the
// session, which the rollback restores), and not already reverted by a
// later rollback (the walk goes on from the commit that one returned to).
func (s *propSession) rollbackReversesSync(p string, toIdx int) bool {
	for i := len(s.commits) - 1; i > toIdx; {
		c := s.commits[i]
		switch {
		case !slices.Contains(c.paths, p):
			i--
		case c.op == "sync":
			return s.firstTouch[p] != i
		case c.op == "rollback":
			if c.rollbackTo < 0 || s.firstTouch[p] > c.rollbackTo {
				return false
			}
			i = c.rollbackTo
		default:
			i--
		}
	}
	return false
}
