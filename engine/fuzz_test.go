package engine_test

// Fuzz targets that drive whole tool calls through the engine, against a
// real git repository, one per dialect that writes (FuzzTextEditor,
// FuzzEdit, FuzzEditLines, FuzzExactEdit for Edit and MultiEdit,
// FuzzCodeEdit), one for code_edit's matcher (FuzzMatcher), and one per tool
// taking its raw JSON arguments (Fuzz*Args). The pure parse/plan/apply
// fuzz targets live in ops/*; these check what only the whole engine can
// break. For every input:
//
//   - engine.Call never panics, and returns an error only for an unknown
//     tool; the result object marshals to JSON in its dialect's shape;
//   - a refused call (Result.OK false) changes nothing: every worktree
//     file's bytes and mode, and the session ref, are as before;
//   - a successful call that leaves the session ref alone changed nothing;
//   - a successful call that moved the ref is reverted by engine Undo (Redo
//     when the call was itself an undo_edit), which must bring back exactly
//     the worktree as it was before the call;
//   - where an input is simple enough to know the answer (an LF text file
//     without a BOM, arguments as the engine receives them after JSON), the
//     exact bytes README.md promises, and whether the call must succeed or
//     be refused.
//
// After the last input, the person's HEAD, index, branches, config and
// stash are as they were and `git fsck --strict` is clean.
//
// Seeds live in the repository's top-level testdata/fuzz/<FuzzName>/ (not in
// engine/testdata, where go looks by default): each target loads them
// itself, so `go test ./...` runs every seed as an ordinary test. A seed is
// either a JSON file naming the target's parameters (see fuzzSeedValue for
// the forms a value takes) or a file in go's own "go test fuzz v1" format,
// as `go test -fuzz` writes a failing input to engine/testdata/fuzz/<Name>/
// (move such a file, once the bug is fixed, to testdata/fuzz/<Name>/).
//
// The long form, one target at a time (a go rule), for example:
//
//	go test ./engine -run '^$' -fuzz '^FuzzTextEditor$' -fuzztime 10m
//	go test ./engine -run '^$' -fuzz '^FuzzMatcher$' -fuzztime 10m
//	for t in TextEditor Edit EditLines ExactEdit CodeEdit Matcher \
//	         TextEditorArgs EditArgs EditLinesArgs ExactEditArgs CodeEditArgs EditHistoryArgs; do
//	    go test ./engine -run '^$' -fuzz "^Fuzz$t\$" -fuzztime 2m || break
//	done
//
// Each fuzzing worker process makes one repository (git-edit-fuzz-* under
// $TMPDIR, removed when the run ends or, if a run was killed, by the next)
// for all its inputs, since repositories are expensive; every input first
// writes its content to f.txt (git-edit then records a sync commit before
// an edit, as it does for a person's change).

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/git-edit/git-edit/dialect"
	"github.com/git-edit/git-edit/engine"
	"github.com/git-edit/git-edit/repo/gittest"
)

// ---------------------------------------------------------------------------
// Seed corpora.

// fuzzSeedRoot holds one folder of seeds per fuzz target.
const fuzzSeedRoot = "../testdata/fuzz"

// fuzzParam is one parameter of a fuzz target: its name in JSON seeds and a
// zero value of its type ([]byte, string, int64, uint8 or uint16).
type fuzzParam struct {
	name string
	zero any
}

// addFuzzSeeds adds every seed of testdata/fuzz/<target>/ with f.Add.
func addFuzzSeeds(f *testing.F, params ...fuzzParam) {
	f.Helper()
	dir := filepath.Join(fuzzSeedRoot, f.Name())
	entries, err := os.ReadDir(dir)
	if err != nil {
		f.Fatalf("seed corpus of %s: %v", f.Name(), err)
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		file := filepath.Join(dir, e.Name())
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var vals []any
		if strings.HasSuffix(e.Name(), ".json") {
			vals, err = parseJSONSeed(raw, params)
		} else {
			vals, err = parseGoSeed(raw, params)
		}
		if err != nil {
			f.Fatalf("seed %s: %v", file, err)
		}
		f.Add(vals...)
		n++
	}
	if n == 0 {
		f.Fatalf("no seeds in %s", dir)
	}
}

// parseJSONSeed reads a JSON seed: an object with one member per parameter
// (absent: the zero value) and an optional "comment" saying why the seed
// is there. A text parameter ([]byte or string) is given by fuzzSeedValue's
// forms under its name, or as any JSON value under "<name>_json", whose
// bytes as written in the file are the text (for raw arguments, so that a
// seed can hold JSON with repeated fields or odd spacing as it is).
func parseJSONSeed(raw []byte, params []fuzzParam) ([]any, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	known := map[string]bool{"comment": true}
	vals := make([]any, len(params))
	for i, p := range params {
		known[p.name], known[p.name+"_json"] = true, true
		v, ok := fields[p.name]
		verbatim, okVerbatim := fields[p.name+"_json"]
		var err error
		switch z := p.zero.(type) {
		case []byte, string:
			var s string
			switch {
			case ok && okVerbatim:
				return nil, fmt.Errorf("both %q and %q", p.name, p.name+"_json")
			case okVerbatim:
				s = string(bytes.TrimSpace(verbatim))
			case ok:
				if s, err = fuzzSeedValue(v); err != nil {
					return nil, fmt.Errorf("%s: %w", p.name, err)
				}
			}
			if _, isBytes := z.([]byte); isBytes {
				vals[i] = []byte(s)
			} else {
				vals[i] = s
			}
			continue
		}
		if okVerbatim {
			return nil, fmt.Errorf("%s is a number, not text", p.name+"_json")
		}
		if !ok {
			vals[i] = p.zero
			continue
		}
		switch p.zero.(type) {
		case int64:
			var n int64
			err = json.Unmarshal(v, &n)
			vals[i] = n
		case uint8:
			var n uint8
			err = json.Unmarshal(v, &n)
			vals[i] = n
		case uint16:
			var n uint16
			err = json.Unmarshal(v, &n)
			vals[i] = n
		default:
			return nil, fmt.Errorf("parameter %s has unsupported type %T", p.name, p.zero)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
	}
	for k := range fields {
		if !known[k] {
			return nil, fmt.Errorf("unknown member %q", k)
		}
	}
	return vals, nil
}

// fuzzSeedValue decodes a text value of a JSON seed: a JSON string (its
// UTF-8 bytes; \r, \u0000, \ufeff as escapes); {"base64": "…"} for bytes
// that are not UTF-8; {"repeat": "…", "times": n} for long repetitive text
// (deeply nested JSON, huge lines); or an array of these, concatenated.
func fuzzSeedValue(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", errors.New("empty value")
	}
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case '[':
		var parts []json.RawMessage
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", err
		}
		var sb strings.Builder
		for _, p := range parts {
			s, err := fuzzSeedValue(p)
			if err != nil {
				return "", err
			}
			sb.WriteString(s)
		}
		return sb.String(), nil
	case '{':
		var o struct {
			Base64 *string `json:"base64"`
			Repeat *string `json:"repeat"`
			Times  int     `json:"times"`
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return "", err
		}
		switch {
		case o.Base64 != nil && o.Repeat == nil:
			b, err := base64.StdEncoding.DecodeString(*o.Base64)
			return string(b), err
		case o.Repeat != nil && o.Base64 == nil && o.Times >= 0 && o.Times <= 10_000_000:
			return strings.Repeat(*o.Repeat, o.Times), nil
		}
		return "", fmt.Errorf("a text object is {\"base64\": …} or {\"repeat\": …, \"times\": n}, not %s", raw)
	}
	return "", fmt.Errorf("a text value is a string, an object or an array, not %s", raw)
}

// parseGoSeed reads a seed in go's "go test fuzz v1" format: one
// type(literal) line per parameter.
func parseGoSeed(raw []byte, params []fuzzParam) ([]any, error) {
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	if len(lines) == 0 || lines[0] != "go test fuzz v1" {
		return nil, errors.New(`neither a .json seed nor a "go test fuzz v1" file`)
	}
	lines = lines[1:]
	if len(lines) != len(params) {
		return nil, fmt.Errorf("%d values for %d parameters", len(lines), len(params))
	}
	vals := make([]any, len(params))
	for i, line := range lines {
		open := strings.IndexByte(line, '(')
		if open < 0 || !strings.HasSuffix(line, ")") {
			return nil, fmt.Errorf("line %q is not type(literal)", line)
		}
		typ, lit := line[:open], line[open+1:len(line)-1]
		var v any
		var err error
		switch typ {
		case "[]byte":
			var s string
			s, err = strconv.Unquote(lit)
			v = []byte(s)
		case "string":
			v, err = strconv.Unquote(lit)
		case "int64":
			v, err = strconv.ParseInt(lit, 0, 64)
		case "uint16":
			var n uint64
			n, err = strconv.ParseUint(lit, 0, 16)
			v = uint16(n)
		case "byte", "uint8":
			if strings.HasPrefix(lit, "'") {
				var r rune
				var tail string
				r, _, tail, err = strconv.UnquoteChar(strings.TrimSuffix(lit[1:], "'"), '\'')
				if err == nil && (tail != "" || r > 0xff) {
					err = fmt.Errorf("bad byte literal %s", lit)
				}
				v = uint8(r)
			} else {
				var n uint64
				n, err = strconv.ParseUint(lit, 0, 8)
				v = uint8(n)
			}
		default:
			err = fmt.Errorf("unsupported type %s", typ)
		}
		if err != nil {
			return nil, fmt.Errorf("line %q: %w", line, err)
		}
		if fmt.Sprintf("%T", v) != fmt.Sprintf("%T", params[i].zero) {
			return nil, fmt.Errorf("value %d is %T, parameter %s is %T", i+1, v, params[i].name, params[i].zero)
		}
		vals[i] = v
	}
	return vals, nil
}

// ---------------------------------------------------------------------------
// The repository a fuzz target edits.

// fuzzEnv makes the repository of one fuzz target lazily, once per process
// (per fuzzing worker), and checks and removes it when the target ends.
type fuzzEnv struct {
	once sync.Once
	dir  string
	repo *fuzzRepo
}

// fuzzRepo is a repository with two committed files, f.txt (each input's
// content goes there) and other.txt, and edit.requireRead off.
type fuzzRepo struct {
	dir   string
	opts  engine.Options
	start gittest.State
}

const fuzzOther = "other\n"

func newFuzzEnv(f *testing.F) *fuzzEnv {
	sweepFuzzRepos()
	env := &fuzzEnv{}
	f.Cleanup(func() {
		defer sweepFuzzRepos()
		if env.dir == "" {
			return
		}
		defer os.RemoveAll(env.dir)
		if env.repo == nil || f.Failed() {
			return
		}
		if got := gittest.Snapshot(f, env.repo.dir); got != env.repo.start {
			f.Errorf("the person's repository changed during fuzzing:\nbefore %+v\nafter  %+v", env.repo.start, got)
		}
		gittest.Fsck(f, env.repo.dir)
	})
	return env
}

// sweepFuzzRepos removes the repositories of fuzz processes that have ended:
// go stops its fuzzing workers without running their cleanups, so a
// worker's repository outlives it. They are named
// git-edit-fuzz-<pid>-<parent pid>-*; the coordinator, whose cleanup runs,
// removes its workers' after them, and any run removes those of processes
// gone.
func sweepFuzzRepos() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "git-edit-fuzz-*-*-*"))
	for _, dir := range dirs {
		var pid, ppid int
		if _, err := fmt.Sscanf(filepath.Base(dir), "git-edit-fuzz-%d-%d-", &pid, &ppid); err != nil {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) || (ppid == os.Getpid() && pid != os.Getpid()) {
			os.RemoveAll(dir)
		}
	}
}

// get returns the repository, making it on the first input.
func (env *fuzzEnv) get(t *testing.T) *fuzzRepo {
	t.Helper()
	env.once.Do(func() {
		tmp, err := os.MkdirTemp("", fmt.Sprintf("git-edit-fuzz-%d-%d-", os.Getpid(), os.Getppid()))
		if err != nil {
			t.Fatal(err)
		}
		env.dir = tmp
		dir, err := filepath.EvalSymlinks(tmp)
		if err != nil {
			t.Fatal(err)
		}
		gittest.Git(t, dir, "init", "-q", "-b", "main")
		gittest.WriteFile(t, dir, "f.txt", "base\n")
		gittest.WriteFile(t, dir, "other.txt", fuzzOther)
		gittest.Git(t, dir, "add", "-A")
		gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
		gittest.Git(t, dir, "config", "edit.requireRead", "false")
		env.repo = &fuzzRepo{dir: dir, opts: engine.Options{Root: dir, Session: "s"}, start: gittest.Snapshot(t, dir)}
	})
	if env.repo == nil {
		t.Fatal("the fuzz repository could not be made (see the first input's failure)")
	}
	return env.repo
}

// fuzzFile is a worktree entry: a regular file's mode and bytes, or a
// symlink or special file.
type fuzzFile struct {
	mode fs.FileMode
	data string
}

type worktree map[string]fuzzFile

// get returns the bytes of rel, or gittest.Missing.
func (w worktree) get(rel string) string {
	f, ok := w[rel]
	if !ok {
		return gittest.Missing
	}
	return f.data
}

// files reads every file of the worktree.
func (r *fuzzRepo) files(t *testing.T) worktree {
	t.Helper()
	return readWorktree(t, r.dir)
}

// readWorktree reads every file of the worktree at dir (not .git).
func readWorktree(t *testing.T, dir string) worktree {
	t.Helper()
	w := worktree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			if rel == ".git" {
				return filepath.SkipDir
			}
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			w[rel] = fuzzFile{mode: fs.ModeSymlink, data: target}
			return err
		case !d.Type().IsRegular():
			w[rel] = fuzzFile{mode: d.Type()}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		w[rel] = fuzzFile{mode: info.Mode().Perm(), data: string(b)}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// tip is the session ref's value ("" before the first edit), read from the
// ref file as git would.
func (r *fuzzRepo) tip(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, ".git", "refs", "edits", "s"))
	if err == nil {
		return strings.TrimSpace(string(b))
	}
	if !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return gittest.Rev(t, r.dir, "refs/edits/s")
}

// reset puts the input's content in f.txt, other.txt back as committed, and
// removes anything else a previous input may have left (after a failure).
func (r *fuzzRepo) reset(t *testing.T, content []byte) {
	t.Helper()
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); n != ".git" && n != "f.txt" && n != "other.txt" {
			must(t, os.RemoveAll(filepath.Join(r.dir, n)))
		}
	}
	for name, data := range map[string][]byte{"f.txt": content, "other.txt": []byte(fuzzOther)} {
		p := filepath.Join(r.dir, name)
		if cur, err := os.ReadFile(p); err != nil || !bytes.Equal(cur, data) {
			must(t, os.WriteFile(p, data, 0o644))
		}
		must(t, os.Chmod(p, 0o644))
	}
}

// fuzzCall is one checked call: its result and the worktree around it.
type fuzzCall struct {
	tool          string
	args          []byte
	res           engine.Result
	before, after worktree
	moved         bool // the session ref moved
}

// run makes one call with every general check, and reverts it when it
// moved the session ref (path: what to undo, "" for the session's newest).
func (r *fuzzRepo) run(t *testing.T, tool string, args []byte, path string) fuzzCall {
	t.Helper()
	c := fuzzCall{tool: tool, args: args, before: r.files(t)}
	tip := r.tip(t)
	res, err := engine.Call(context.Background(), r.opts, tool, args)
	if err != nil {
		t.Fatalf("%s %s: error %v; only an unknown tool may be an error", tool, quoteArgs(args), err)
	}
	c.res, c.after = res, r.files(t)
	after := r.tip(t)
	c.moved = after != tip
	checkResultShape(t, tool, args, res)
	switch {
	case !res.OK && c.moved:
		t.Fatalf("%s %s: refused (%s), yet the session ref moved %s -> %s", tool, quoteArgs(args), res.Text, tip, after)
	case !res.OK && !maps.Equal(c.before, c.after):
		t.Fatalf("%s %s: refused (%s), yet the worktree changed:\n%s", tool, quoteArgs(args), res.Text, worktreeDiff(c.before, c.after))
	case res.OK && !c.moved && !maps.Equal(c.before, c.after):
		t.Fatalf("%s %s: succeeded without recording anything (%s), yet the worktree changed:\n%s", tool, quoteArgs(args), res.Text, worktreeDiff(c.before, c.after))
	case c.moved && maps.Equal(c.before, c.after):
		t.Fatalf("%s %s: recorded a commit without changing any file (%s)", tool, quoteArgs(args), res.Text)
	}
	if c.moved {
		r.revert(t, c, path)
	}
	return c
}

// revert undoes c (or, if c was itself an undo, redoes what it undid) and
// checks the worktree is exactly as before c.
func (r *fuzzRepo) revert(t *testing.T, c fuzzCall, path string) {
	t.Helper()
	e, err := engine.Open(r.opts)
	if err != nil {
		t.Fatal(err)
	}
	log, err := e.Log(1, nil, false)
	if err != nil || len(log) != 1 {
		t.Fatalf("log of the session after %s %s: %v %v", c.tool, quoteArgs(c.args), log, err)
	}
	what, op := "Undo", e.Undo
	switch log[0].Op {
	case "undo":
		what, op = "Redo", e.Redo
	case "edit":
	default:
		t.Fatalf("%s %s: the session's newest commit is a %q commit, not the edit", c.tool, quoteArgs(c.args), log[0].Op)
	}
	tip := r.tip(t)
	rev, err := op(context.Background(), path, false)
	if err != nil {
		t.Fatalf("%s %s succeeded (%s); then %s(%q) failed: %v", c.tool, quoteArgs(c.args), c.res.Text, what, path, err)
	}
	if got := r.files(t); !maps.Equal(got, c.before) {
		t.Fatalf("%s %s, then %s(%q) (%v): the worktree is not as before the call:\n%s", c.tool, quoteArgs(c.args), what, path, rev.Paths, worktreeDiff(c.before, got))
	}
	if r.tip(t) == tip {
		t.Fatalf("%s(%q) after %s %s restored the files without recording a commit", what, path, c.tool, quoteArgs(c.args))
	}
}

// checkResultShape checks a result is a JSON object in its dialect's shape,
// refusals with a message.
func checkResultShape(t *testing.T, tool string, args []byte, res engine.Result) {
	t.Helper()
	raw, err := json.Marshal(res.Value)
	if err != nil {
		t.Fatalf("%s %s: the result does not marshal: %v", tool, quoteArgs(args), err)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("%s %s: the result is not a JSON object: %s", tool, quoteArgs(args), raw)
	}
	if !res.OK && strings.TrimSpace(res.Text) == "" {
		t.Fatalf("%s %s: refused without a message: %s", tool, quoteArgs(args), raw)
	}
	reg, ok := registered(tool)
	if !ok {
		t.Fatalf("%s is not in engine.Registry(): a tool the tests do not know", tool)
	}
	bad := reg.Succeeded(obj) != res.OK
	if bad {
		t.Fatalf("%s %s: OK=%v but the result says %s", tool, quoteArgs(args), res.OK, raw)
	}
}

// registered finds tool in engine.Registry().
func registered(tool string) (dialect.Tool, bool) {
	for _, t := range engine.Registry() {
		if t.Name == tool {
			return t, true
		}
	}
	return dialect.Tool{}, false
}

// worktreeDiff describes how two worktrees differ.
func worktreeDiff(a, b worktree) string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		x, okx := a[k]
		y, oky := b[k]
		if okx != oky || x != y {
			out = append(out, fmt.Sprintf("  %s: %s -> %s", k, describeFile(x, okx), describeFile(y, oky)))
		}
	}
	return strings.Join(out, "\n")
}

func describeFile(f fuzzFile, ok bool) string {
	if !ok {
		return "missing"
	}
	return fmt.Sprintf("%v %s", f.mode, shorten(f.data))
}

func shorten(s string) string {
	if len(s) > 400 {
		return strconv.Quote(s[:200]) + fmt.Sprintf("…(%d bytes)…", len(s)-400) + strconv.Quote(s[len(s)-200:])
	}
	return strconv.Quote(s)
}

func quoteArgs(args []byte) string { return shorten(string(args)) }

// ---------------------------------------------------------------------------
// What the engine receives, and simple expectations.

// fuzzJSON marshals generated arguments.
func fuzzJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sent is s as the engine receives it after a JSON round trip (invalid
// UTF-8 becomes U+FFFD).
func sent(s string) string {
	b, _ := json.Marshal(s)
	var out string
	_ = json.Unmarshal(b, &out)
	return out
}

// plainLF reports whether content is a text file whose exact results are
// simple to state: no "\r" anywhere, no BOM, no NUL.
func plainLF(content []byte) bool {
	return !bytes.ContainsAny(content, "\r\x00") && !bytes.HasPrefix(content, []byte("\uFEFF"))
}

// isBinary is git's test, which git-edit uses to refuse editing a file as
// text: a NUL byte in the first 8000 bytes.
func isBinary(content []byte) bool {
	return bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0
}

// lineCount counts lines as README says: text up to and including "\n".
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// splitLines splits s into lines, each with its "\n" (the last maybe not).
func splitLines(s string) []string {
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

func joinLines(ls []string) string { return strings.Join(ls, "") }

// occurrences lists where needle occurs in hay, overlapping ones included.
func occurrences(hay, needle string) []int {
	var offs []int
	for i := 0; needle != "" && i+len(needle) <= len(hay); i++ {
		if strings.HasPrefix(hay[i:], needle) {
			offs = append(offs, i)
		}
	}
	return offs
}

// expectation is what a call must do to a file (f.txt unless path says
// otherwise), when the input is simple enough to know: be refused, or
// succeed leaving exactly result.
type expectation struct {
	known  bool
	refuse bool
	result string
	path   string
}

func mustRefuse() expectation              { return expectation{known: true, refuse: true} }
func mustBecome(result string) expectation { return expectation{known: true, result: result} }

// at makes x about path.
func (x expectation) at(path string) expectation {
	x.path = path
	return x
}

// check compares a call with what was expected of it.
func (x expectation) check(t *testing.T, c fuzzCall, content []byte) {
	t.Helper()
	if !x.known {
		return
	}
	path := x.path
	if path == "" {
		path = "f.txt"
	}
	switch got := c.after.get(path); {
	case x.refuse && c.res.OK:
		t.Fatalf("%s %s on %s: succeeded (%s), must be refused", c.tool, quoteArgs(c.args), shorten(string(content)), c.res.Text)
	case !x.refuse && !c.res.OK:
		t.Fatalf("%s %s on %s: refused (%s), must succeed with %s = %s", c.tool, quoteArgs(c.args), shorten(string(content)), c.res.Text, path, shorten(x.result))
	case !x.refuse && got != x.result:
		t.Fatalf("%s %s on %s: %s is\n     %s\nwant %s", c.tool, quoteArgs(c.args), shorten(string(content)), path, shorten(got), shorten(x.result))
	}
}

// ---------------------------------------------------------------------------
// text_editor.

var textEditorCommands = []string{"view", "write", "create", "str_replace", "insert", "undo_edit"}

// FuzzTextEditor: a text_editor command on f.txt (or a new file, or f.txt
// by another spelling of its path) built from fuzzed strings and numbers.
func FuzzTextEditor(f *testing.F) {
	addFuzzSeeds(f, fuzzParam{"content", []byte(nil)}, fuzzParam{"command", uint8(0)},
		fuzzParam{"old", ""}, fuzzParam{"new", ""}, fuzzParam{"line", int64(0)}, fuzzParam{"end", int64(0)})
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, command uint8, old, new string, line, end int64) {
		r := env.get(t)
		r.reset(t, content)
		cmd := textEditorCommands[int(command)%len(textEditorCommands)]
		paths := []string{"f.txt", "f.txt", "new.txt", "sub/dir/new.txt", filepath.Join(r.dir, "f.txt"), "./sub/../f.txt", "other.txt"}
		path := paths[int(command)/len(textEditorCommands)%len(paths)]
		onF := path != "new.txt" && path != "sub/dir/new.txt" && path != "other.txt"
		args := map[string]any{"command": cmd, "path": path}
		switch cmd {
		case "view":
			if line != 0 || end != 0 {
				args["view_range"] = []int64{line, end}
			}
		case "write", "create":
			args["file_text"] = new
		case "str_replace":
			args["old_str"], args["new_str"] = old, new
		case "insert":
			args["insert_line"], args["new_str"] = line, new
		}
		c := r.run(t, "text_editor", fuzzJSON(t, args), path)

		// What README promises, where it is simple to state.
		var x expectation
		o, n, s := sent(old), sent(new), string(content)
		plain := plainLF(content) && !strings.Contains(o+n, "\r")
		switch {
		case !onF:
			switch {
			case (cmd == "write" || cmd == "create") && path != "other.txt":
				x = mustBecome(n).at(path) // a new file gets file_text byte for byte
			case cmd == "create":
				x = mustRefuse()
			}
		case isBinary(content) && cmd != "write" && cmd != "create" && cmd != "undo_edit":
			x = mustRefuse()
		case cmd == "create":
			x = mustRefuse() // f.txt exists
		case cmd == "write" && plain && utf8.RuneCountInString(n) <= 400_000:
			x = mustBecome(n)
		case cmd == "str_replace" && plain:
			offs := occurrences(s, o)
			if len(offs) == 1 {
				x = mustBecome(s[:offs[0]] + n + s[offs[0]+len(o):])
			} else {
				x = mustRefuse()
			}
		case cmd == "insert" && plain:
			x = insertExpectation(s, line, n)
		}
		x.check(t, c, content)
	})
}

// insertExpectation is text_editor insert's result on an LF file s: n's
// lines (one final "\n" optional) after line `line`; after the last line of
// a file without a final newline, the line ending goes first and the file
// still lacks one, unless the last inserted line is empty.
func insertExpectation(s string, line int64, n string) expectation {
	if n == "" || line < 0 || line > int64(lineCount(s)) {
		return mustRefuse()
	}
	body := strings.TrimSuffix(n, "\n")
	if int(line) == lineCount(s) && s != "" && !strings.HasSuffix(s, "\n") {
		if body == "" || strings.HasSuffix(body, "\n") {
			return mustBecome(s + "\n" + body + "\n")
		}
		return mustBecome(s + "\n" + body)
	}
	ls := splitLines(s)
	return mustBecome(joinLines(ls[:line]) + body + "\n" + joinLines(ls[line:]))
}

// ---------------------------------------------------------------------------
// edit (positions and regular expressions).

var editCommands = []string{"insert", "delete", "replace", "replaceAll", "search"}

// FuzzEdit: an edit command on f.txt with fuzzed positions (line+column,
// offset, or both) and fuzzed text, pattern and replacement.
func FuzzEdit(f *testing.F) {
	addFuzzSeeds(f, fuzzParam{"content", []byte(nil)}, fuzzParam{"command", uint8(0)},
		fuzzParam{"a", int64(0)}, fuzzParam{"b", int64(0)}, fuzzParam{"c", int64(0)}, fuzzParam{"d", int64(0)},
		fuzzParam{"text", ""}, fuzzParam{"text2", ""})
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, command uint8, a, b, c, d int64, text, text2 string) {
		r := env.get(t)
		r.reset(t, content)
		cmd := editCommands[int(command)%len(editCommands)]
		form := int(command) / len(editCommands) % 3
		start, end := map[string]any{}, map[string]any{}
		switch form {
		case 0: // line and column
			start["line"], start["column"], end["line"], end["column"] = a, b, c, d
		case 1: // offsets
			start["offset"], end["offset"] = a, c
		case 2: // both forms on the start, an offset for the end
			start["line"], start["column"], start["offset"], end["offset"] = a, b, c, d
		}
		args := map[string]any{"file_path": "f.txt"}
		switch cmd {
		case "insert":
			args["content"], args["position"] = text, start
		case "delete":
			args["range"] = map[string]any{"start": start, "end": end}
		case "replace":
			args["range"], args["content"] = map[string]any{"start": start, "end": end}, text
		case "replaceAll":
			args["pattern"], args["replacement"] = text, text2
		case "search":
			args["pattern"] = text
		}
		call := r.run(t, "edit", fuzzJSON(t, map[string]any{"command": cmd, "arguments": args}), "f.txt")

		s, tx := string(content), sent(text)
		ascii := plainLF(content) && isASCII(s) && !strings.Contains(tx, "\r")
		var x expectation
		switch {
		case cmd == "search":
			if call.moved {
				t.Fatal("search recorded a commit")
			}
		case isBinary(content):
			x = mustRefuse()
		case cmd == "replaceAll" && ascii:
			re, err := regexp.Compile(tx)
			if err != nil || tx == "" {
				x = mustRefuse()
			} else {
				x = mustBecome(re.ReplaceAllString(s, sent(text2)))
			}
		case ascii && s != "":
			// ASCII: a character is a byte.
			offset := func(o int64) (int64, bool) { return o, o >= 0 && o <= int64(len(s)) }
			from, okFrom := lineColumnOffset(s, a, b)
			to, okTo := lineColumnOffset(s, c, d)
			switch form {
			case 1:
				from, okFrom = offset(a)
				to, okTo = offset(c)
			case 2: // both forms given for the start: they must agree
				o, ok := offset(c)
				okFrom = okFrom && ok && o == from
				to, okTo = offset(d)
			}
			switch {
			case cmd == "insert" && okFrom:
				x = mustBecome(s[:from] + tx + s[from:])
			case cmd == "insert":
				x = mustRefuse()
			case okFrom && okTo && from <= to && cmd == "delete":
				x = mustBecome(s[:from] + s[to:])
			case okFrom && okTo && from <= to:
				x = mustBecome(s[:from] + tx + s[to:])
			default:
				x = mustRefuse()
			}
		}
		x.check(t, call, content)
	})
}

// lineColumnOffset is the byte offset of line, column in s, an ASCII LF
// file, as README defines positions: columns run from 1 to a line's length
// + 1; the end of the file is line count + 1, column 1 when the file ends
// with a newline, else the end of its last line.
func lineColumnOffset(s string, line, column int64) (int64, bool) {
	ls := splitLines(s)
	if line == int64(len(ls))+1 && column == 1 && strings.HasSuffix(s, "\n") {
		return int64(len(s)), true
	}
	if line < 1 || line > int64(len(ls)) || column < 1 {
		return 0, false
	}
	text := strings.TrimSuffix(ls[line-1], "\n")
	if column > int64(len(text))+1 {
		return 0, false
	}
	return int64(len(joinLines(ls[:line-1]))) + column - 1, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------------------
// edit_lines.

var editLinesKinds = []string{"replace", "insert", "delete"}

// FuzzEditLines: a batch of up to 8 line operations on f.txt. Each 4 bytes
// of spec are one operation: its kind, two line numbers (signed bytes) and
// how many content strings it takes from pool (split at "\x1e").
func FuzzEditLines(f *testing.F) {
	addFuzzSeeds(f, fuzzParam{"content", []byte(nil)}, fuzzParam{"spec", []byte(nil)}, fuzzParam{"pool", ""})
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content, spec []byte, pool string) {
		r := env.get(t)
		r.reset(t, content)
		strs := strings.Split(pool, "\x1e")
		next := 0
		take := func(k int) []string {
			out := []string{}
			for range k {
				out = append(out, strs[next%len(strs)])
				next++
			}
			return out
		}
		var ops []elOp
		for i := 0; i+4 <= len(spec) && len(ops) < 8; i += 4 {
			op := elOp{kind: editLinesKinds[int(spec[i])%3], a: int(int8(spec[i+1])), b: int(int8(spec[i+2]))}
			if op.kind != "delete" {
				op.content = take(int(spec[i+3]) % 4)
			}
			ops = append(ops, op)
		}
		var list []any
		for _, op := range ops {
			m := map[string]any{"op": op.kind}
			switch op.kind {
			case "replace":
				m["startLine"], m["endLine"], m["content"] = op.a, op.b, op.content
			case "insert":
				m["afterLine"], m["content"] = op.a, op.content
			case "delete":
				m["startLine"], m["endLine"] = op.a, op.b
			}
			list = append(list, m)
		}
		if list == nil {
			list = []any{}
		}
		c := r.run(t, "edit_lines", fuzzJSON(t, map[string]any{"path": "f.txt", "operations": list}), "f.txt")

		var x expectation
		s := string(content)
		switch {
		case isBinary(content):
			x = mustRefuse()
		case plainLF(content) && (s == "" || strings.HasSuffix(s, "\n")):
			x = editLinesExpectation(s, ops)
		}
		x.check(t, c, content)
	})
}

// elOp is one generated edit_lines operation; a and b are startLine and
// endLine, or afterLine (a) for an insert.
type elOp struct {
	kind    string
	a, b    int
	content []string
}

// editLinesExpectation is the result of ops on s, an LF file that is empty
// or ends with "\n", as README states it: all line numbers refer to the
// file before the batch; ranges sharing a line, or an insert after a line a
// range removes, overlap; inserts after the same line keep their order and
// come before the lines of a range starting on the next line.
func editLinesExpectation(s string, ops []elOp) expectation {
	lines := splitLines(s)
	n := len(lines)
	if len(ops) == 0 {
		return mustRefuse()
	}
	for _, op := range ops {
		switch {
		case op.kind == "insert" && (op.a < 0 || op.a > n):
			return mustRefuse()
		case op.kind != "insert" && (op.a < 1 || op.b < op.a || op.b > n):
			return mustRefuse()
		}
	}
	covered := make([]int, n+2) // how many ranges cover each line
	for _, op := range ops {
		if op.kind != "insert" {
			for l := op.a; l <= op.b; l++ {
				if covered[l]++; covered[l] > 1 {
					return mustRefuse()
				}
			}
		}
	}
	for _, op := range ops {
		if op.kind == "insert" && op.a >= 1 && covered[op.a] > 0 {
			return mustRefuse()
		}
	}
	text := func(content []string) string {
		if len(content) == 0 {
			return ""
		}
		var sb strings.Builder
		for _, l := range strings.Split(strings.Join(sentAll(content), "\n"), "\n") {
			sb.WriteString(l + "\n")
		}
		return sb.String()
	}
	var out strings.Builder
	for at := 0; at <= n; at++ { // at: lines of the original emitted so far
		for _, op := range ops {
			if op.kind == "insert" && op.a == at {
				out.WriteString(text(op.content))
			}
		}
		if at == n {
			break
		}
		line := at + 1
		if covered[line] == 0 {
			out.WriteString(lines[at])
			continue
		}
		for _, op := range ops {
			if op.kind == "replace" && op.a == line {
				out.WriteString(text(op.content))
			}
		}
	}
	return mustBecome(out.String())
}

func sentAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = sent(s)
	}
	return out
}

// ---------------------------------------------------------------------------
// Edit and MultiEdit.

// FuzzExactEdit: Edit (mode even) or MultiEdit (odd) on f.txt with fuzzed
// old and new strings; mode's other bits set replace_all per edit, whether
// replace_all is sent when false, and whether MultiEdit has one edit or two.
func FuzzExactEdit(f *testing.F) {
	addFuzzSeeds(f, fuzzParam{"content", []byte(nil)}, fuzzParam{"mode", uint8(0)},
		fuzzParam{"old1", ""}, fuzzParam{"new1", ""}, fuzzParam{"old2", ""}, fuzzParam{"new2", ""})
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, mode uint8, old1, new1, old2, new2 string) {
		r := env.get(t)
		r.reset(t, content)
		type edit struct {
			old, new string
			all      bool
		}
		edits := []edit{{old1, new1, mode&2 != 0}}
		multi := mode&1 != 0
		if multi && mode&16 == 0 {
			edits = append(edits, edit{old2, new2, mode&4 != 0})
		}
		item := func(e edit) map[string]any {
			m := map[string]any{"old_string": e.old, "new_string": e.new}
			if e.all || mode&8 != 0 {
				m["replace_all"] = e.all
			}
			return m
		}
		tool, args := "Edit", item(edits[0])
		if multi {
			var list []any
			for _, e := range edits {
				list = append(list, item(e))
			}
			tool, args = "MultiEdit", map[string]any{"edits": list}
		}
		args["file_path"] = "f.txt"
		c := r.run(t, tool, fuzzJSON(t, args), "f.txt")

		// Each edit applies to the result of the previous one. Where an
		// old_string is not in the file, the Read-prefix retry may apply:
		// nothing is stated then.
		if isBinary(content) {
			mustRefuse().check(t, c, content)
			return
		}
		if !plainLF(content) {
			return
		}
		cur := string(content)
		for _, e := range edits {
			o, n := sent(e.old), sent(e.new)
			switch {
			case strings.Contains(o+n, "\r"):
				return
			case o == "" || o == n:
				mustRefuse().check(t, c, content)
				return
			case !strings.Contains(cur, o):
				return
			case e.all:
				cur = strings.ReplaceAll(cur, o, n)
			case len(occurrences(cur, o)) != 1:
				mustRefuse().check(t, c, content)
				return
			default:
				cur = strings.Replace(cur, o, n, 1)
			}
		}
		mustBecome(cur).check(t, c, content)
	})
}

// ---------------------------------------------------------------------------
// code_edit.

// FuzzCodeEdit: one or two SEARCH/REPLACE edits, in the single-edit form or
// in "edits", on f.txt and a second file (new, other.txt or f.txt again):
// all or nothing across files.
func FuzzCodeEdit(f *testing.F) {
	addFuzzSeeds(f, fuzzParam{"content", []byte(nil)}, fuzzParam{"mode", uint8(0)},
		fuzzParam{"search1", ""}, fuzzParam{"replace1", ""}, fuzzParam{"search2", ""}, fuzzParam{"replace2", ""})
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, mode uint8, search1, replace1, search2, replace2 string) {
		r := env.get(t)
		r.reset(t, content)
		path2 := []string{"new.txt", "other.txt", "sub/new.txt", "f.txt"}[int(mode)/4%4]
		e1 := map[string]any{"file_path": "f.txt", "search": search1, "replace": replace1}
		e2 := map[string]any{"file_path": path2, "search": search2, "replace": replace2}
		var args map[string]any
		switch mode % 4 {
		case 0:
			args = e1
		case 1:
			args = map[string]any{"edits": []any{e1}}
		case 2:
			e2["file_path"] = "f.txt"
			args = map[string]any{"edits": []any{e1, e2}}
		case 3:
			args = map[string]any{"edits": []any{e1, e2}}
		}
		c := r.run(t, "code_edit", fuzzJSON(t, args), "")

		s, sr := string(content), sent(replace1)
		switch {
		case isBinary(content):
			mustRefuse().check(t, c, content)
		case mode%4 == 0 && plainLF(content) && strings.TrimSpace(search1) == "" && !strings.Contains(sr, "\r") && !hasWrapperLine(sr):
			// A blank search appends, on a line of its own.
			want := s + sr
			if s != "" && !strings.HasSuffix(s, "\n") && sr != "" {
				want = s + "\n" + sr
			}
			mustBecome(want).check(t, c, content)
		}
		// An empty search on a new file creates it with replace, byte for
		// byte, in the same commit as the other edit.
		if sr2 := sent(replace2); mode%4 == 3 && c.res.OK && strings.Contains(path2, "new.txt") &&
			strings.TrimSpace(search2) == "" && !hasWrapperLine(sr2) {
			if got := c.after.get(path2); got != sr2 {
				t.Fatalf("code_edit %s: %s is %s, want %s", quoteArgs(c.args), path2, shorten(got), shorten(sr2))
			}
		}
	})
}

// hasWrapperLine reports whether text has a line code_edit may strip as a
// wrapper pasted around a block (fences, conflict markers, the file name),
// or an elision line.
func hasWrapperLine(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"```", "<<<<<<<", "=======", ">>>>>>>", "...", "f.txt"} {
			if strings.Contains(l, p) {
				return true
			}
		}
	}
	return false
}

// FuzzMatcher: code_edit's matcher against fuzzed file content, with a
// search made of whole lines of the file (from, count), sent as they are
// or as agents mangle them (how): trailing whitespace dropped, CRLF written
// as LF, indentation removed or added, a blank first line, ``` fences, a
// filename line. README says every one of these matches; this checks those
// it states plainly, and the exact bytes of a verbatim match.
func FuzzMatcher(f *testing.F) {
	addFuzzSeeds(f, fuzzParam{"content", []byte(nil)}, fuzzParam{"from", uint16(0)}, fuzzParam{"count", uint16(0)},
		fuzzParam{"how", uint8(0)}, fuzzParam{"replace", ""})
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, from, count uint16, how uint8, replace string) {
		r := env.get(t)
		r.reset(t, content)
		body := string(content)
		if strings.HasPrefix(body, "\uFEFF") {
			body = body[3:]
		}
		lines := splitLines(body)
		var chunk []string
		if len(lines) > 0 {
			i := int(from) % len(lines)
			chunk = lines[i : i+1+int(count)%min(len(lines)-i, 8)]
		}
		how %= 8
		search := mangle(chunk, how)
		c := r.run(t, "code_edit", fuzzJSON(t, map[string]any{"file_path": "f.txt", "search": search, "replace": replace}), "f.txt")

		verbatim := joinLines(chunk)
		switch {
		case isBinary(content):
			mustRefuse().check(t, c, content)
			return
		case len(chunk) == 0 || strings.TrimSpace(verbatim) == "" || !utf8.ValidString(search):
			return
		case how == 2 && strings.Contains(strings.ReplaceAll(verbatim, "\r\n", ""), "\r"):
			return // a lone "\r" at the end of a line's text: CRLF to LF changes that text
		default:
			if !c.res.OK {
				t.Fatalf("search %s, lines %d-%d of the file (mangled by %d), was refused: %s\ncontent %s",
					strconv.Quote(search), int(from)%len(lines)+1, int(from)%len(lines)+len(chunk), how, c.res.Text, shorten(string(content)))
			}
		}
		// A verbatim search of whole lines in an LF file ending with "\n",
		// replaced by whole lines: the first place those lines occur gets
		// exactly replace.
		if how != 0 || !plainLF(content) || !strings.HasSuffix(body, "\n") || sent(replace) != replace ||
			strings.Contains(replace, "\r") || (replace != "" && !strings.HasSuffix(replace, "\n")) || hasWrapperLine(replace) {
			return
		}
		for i := 0; i+len(chunk) <= len(lines); i++ {
			if slices.Equal(lines[i:i+len(chunk)], chunk) {
				mustBecome(joinLines(lines[:i])+replace+joinLines(lines[i+len(chunk):])).check(t, c, content)
				return
			}
		}
	})
}

// mangle turns whole lines of a file into a search as an agent might send
// them.
func mangle(chunk []string, how uint8) string {
	var sb strings.Builder
	each := func(fn func(text, eol string) string) string {
		for _, l := range chunk {
			text, eol := l, ""
			switch {
			case strings.HasSuffix(l, "\r\n"):
				text, eol = l[:len(l)-2], "\r\n"
			case strings.HasSuffix(l, "\n"):
				text, eol = l[:len(l)-1], "\n"
			}
			sb.WriteString(fn(text, eol))
		}
		return sb.String()
	}
	switch how {
	case 1: // trailing whitespace dropped
		return each(func(text, eol string) string { return strings.TrimRight(text, " \t") + eol })
	case 2: // CRLF written as LF
		return each(func(text, eol string) string { return text + strings.TrimPrefix(eol, "\r") })
	case 3: // the common leading whitespace removed
		prefix := ""
		for i, l := range chunk {
			if strings.TrimSpace(l) == "" {
				continue
			}
			ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
			if i == 0 || prefix == "" {
				prefix = ind
			}
			for !strings.HasPrefix(ind, prefix) {
				prefix = prefix[:len(prefix)-1]
			}
		}
		return each(func(text, eol string) string { return strings.TrimPrefix(text, prefix) + eol })
	case 4: // four spaces added to every non-blank line
		return each(func(text, eol string) string {
			if strings.TrimSpace(text) == "" {
				return text + eol
			}
			return "    " + text + eol
		})
	case 5: // a blank first line
		return "\n" + joinLines(chunk)
	case 6: // in ``` fences
		s := joinLines(chunk)
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		return "```\n" + s + "```\n"
	case 7: // after a line naming the file
		return "f.txt\n" + joinLines(chunk)
	}
	return joinLines(chunk)
}

// ---------------------------------------------------------------------------
// Raw JSON arguments, one target per tool.

// fuzzArgs runs tools[which % len] with raw arguments on f.txt holding
// content: only the general checks apply.
func fuzzArgs(f *testing.F, tools ...string) {
	addFuzzSeeds(f, fuzzParam{"content", []byte(nil)}, fuzzParam{"which", uint8(0)}, fuzzParam{"args", ""})
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, which uint8, args string) {
		r := env.get(t)
		r.reset(t, content)
		tool := tools[int(which)%len(tools)]
		c := r.run(t, tool, []byte(args), "")
		if reg, _ := registered(tool); c.moved && reg.WriteCall == nil {
			t.Fatalf("read-only %s recorded a commit", tool)
		}
	})
}

// FuzzEveryToolArgs covers every tool of the registry, so a new dialect
// is fuzzed without a new target: its seeds are each tool's write call
// (Tool.WriteCall) and an empty object; mutated names that name no tool
// are skipped.
func FuzzEveryToolArgs(f *testing.F) {
	for _, tool := range engine.Registry() {
		f.Add([]byte("hello\nworld\n"), tool.Name, "{}")
		if tool.WriteCall != nil {
			f.Add([]byte("hello\nworld\n"), tool.Name, string(fuzzJSON(f, tool.WriteCall("f.txt", "world", "earth"))))
		}
	}
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, tool, args string) {
		reg, ok := registered(tool)
		if !ok {
			t.Skip("not a tool name") // mutated names
		}
		r := env.get(t)
		r.reset(t, content)
		if c := r.run(t, tool, []byte(args), ""); c.moved && reg.WriteCall == nil {
			t.Fatalf("read-only %s recorded a commit", tool)
		}
	})
}

func FuzzTextEditorArgs(f *testing.F)  { fuzzArgs(f, "text_editor") }
func FuzzEditArgs(f *testing.F)        { fuzzArgs(f, "edit") }
func FuzzEditLinesArgs(f *testing.F)   { fuzzArgs(f, "edit_lines") }
func FuzzExactEditArgs(f *testing.F)   { fuzzArgs(f, "Edit", "MultiEdit", "Read") }
func FuzzCodeEditArgs(f *testing.F)    { fuzzArgs(f, "code_edit") }
func FuzzEditHistoryArgs(f *testing.F) { fuzzArgs(f, "edit_history") }
