package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// convKind is one kind of repository for BenchmarkConvertedEdit: how the
// edited file a.txt is converted between the worktree and the object store.
type convKind struct {
	name  string
	setup func(b *testing.B, dir string) // before the commit of a.txt
	crlf  bool                           // a.txt has CRLF endings on disk
	need  string                         // a command the kind needs, else it is left out
}

var convKinds = []convKind{
	{name: "plain", setup: func(*testing.B, string) {}},
	{name: "autocrlf", crlf: true, setup: func(b *testing.B, dir string) {
		gittest.Git(b, dir, "config", "core.autocrlf", "true")
	}},
	{name: "filter", setup: func(b *testing.B, dir string) {
		// A clean/smudge pair that round-trips (rot13 both ways), so the
		// stored blob differs from the disk and no edit is recorded raw.
		rot13 := "tr A-Za-z N-ZA-Mn-za-m"
		gittest.Git(b, dir, "config", "filter.rot13.clean", rot13)
		gittest.Git(b, dir, "config", "filter.rot13.smudge", rot13)
		gittest.WriteFile(b, dir, ".gitattributes", "a.txt filter=rot13\n")
	}},
	{name: "lfs", need: "git-lfs", setup: func(b *testing.B, dir string) {
		// git-lfs's long-running filter.lfs.process, as `git lfs track`
		// sets it up.
		gittest.Git(b, dir, "lfs", "install", "--local")
		gittest.WriteFile(b, dir, ".gitattributes", "a.txt filter=lfs diff=lfs merge=lfs -text\n")
	}},
}

// convText is a.txt: 50 KB of code-like lines with MARKER-0 in the middle.
var convText = codeText(50 << 10)

// convRepo makes a repository of that kind whose HEAD holds a.txt.
func convRepo(b *testing.B, k convKind) string {
	dir := gittest.New(b)
	k.setup(b, dir)
	text := strings.Replace(convText, "MARKER-A", "MARKER-0", 1)
	if k.crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	gittest.Commit(b, dir, map[string]string{"a.txt": text})
	if st := gittest.Status(b, dir); st != "" {
		b.Fatalf("%s: git status after the commit:\n%s", k.name, st)
	}
	return dir
}

// convCheck fails the benchmark unless the session holds only edits (no
// sync commit: nothing was recorded because of a conversion), its a.txt is
// what `git add` of the file on disk would store, and git fsck is clean.
func convCheck(b *testing.B, k convKind, dir, session string) {
	ref := "refs/edits/" + session
	ops := gittest.Git(b, dir, "log", "--format=%(trailers:key=Edit-Op,valueonly,separator=)", ref)
	for op := range strings.FieldsSeq(ops) {
		if op != "edit" {
			b.Fatalf("%s: the session holds an %q commit:\n%s", k.name, op, gittest.Git(b, dir, "log", "--format=%B", ref))
		}
	}
	if raw := gittest.Git(b, dir, "log", "--format=%(trailers:key=Edit-Raw,valueonly,separator=)", ref); strings.TrimSpace(raw) != "" {
		b.Fatalf("%s: edits recorded raw: %s", k.name, raw)
	}
	stored := strings.TrimSpace(gittest.Git(b, dir, "rev-parse", ref+":a.txt"))
	added := strings.TrimSpace(gittest.Git(b, dir, "hash-object", "--path=a.txt", "a.txt"))
	if stored != added {
		b.Fatalf("%s: the session stores %s for a.txt, git add would store %s", k.name, stored, added)
	}
	gittest.Fsck(b, dir)
}

// convSamples collects each kind's per-edit wall times.
type convSamples map[string][]time.Duration

// report gives each kind's median per edit and its ratio to plain's.
// Medians: an edit is mostly process starts and fsync waits, whose outliers
// would swamp a mean.
func (s convSamples) report(b *testing.B, kinds []convKind) {
	plain := convMedian(s["plain"])
	for _, k := range kinds {
		m := convMedian(s[k.name])
		b.ReportMetric(float64(m.Microseconds()), "µs-"+k.name)
		if k.name != "plain" && plain > 0 {
			b.ReportMetric(float64(m)/float64(plain), k.name+"/plain")
		}
	}
}

func convMedian(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// strReplaceArgs is text_editor str_replace of one marker by the next.
func strReplaceArgs(old, new string) map[string]any {
	return map[string]any{"command": "str_replace", "path": "a.txt", "old_str": old, "new_str": new}
}

// BenchmarkConvertedEdit is the cost of one text_editor str_replace on a
// 50 KB file that git converts, next to the same edit on a plain path in
// the same run: each iteration makes one edit in each kind's repository, in
// an order that rotates, and the benchmark reports each kind's median and
// its ratio to plain. Every edit writes new content (a new marker number).
//
//   - cold: a fresh `git-edit call` process per edit (as an agent's shell
//     tool runs it), so every converted edit starts its git processes;
//   - warm: one in-process MCP server per repository, many calls, so the
//     `git cat-file` process stays up between edits.
//
// Kinds: plain (no conversion), autocrlf (core.autocrlf=true, CRLF on
// disk), filter (a clean/smudge driver run through the shell) and lfs
// (git-lfs's filter process; left out when git-lfs is not installed).
// After the loop, each session is checked: edits only, no sync or raw
// record, a.txt stored as `git add` stores it, `git fsck --strict` clean.
func BenchmarkConvertedEdit(b *testing.B) {
	b.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	b.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	var kinds []convKind
	for _, k := range convKinds {
		if k.need != "" {
			if _, err := exec.LookPath(k.need); err != nil {
				b.Logf("%s left out: %v", k.name, err)
				continue
			}
		}
		kinds = append(kinds, k)
	}
	b.Run("cold", func(b *testing.B) { benchConverted(b, kinds, coldEditor) })
	b.Run("warm", func(b *testing.B) { benchConverted(b, kinds, warmEditor) })
}

// An editor makes edits in one repository's session "bench": each call
// replaces old by new in a.txt.
type editor func(b *testing.B, dir string) (edit func(old, new string), done func())

func benchConverted(b *testing.B, kinds []convKind, open editor) {
	type target struct {
		k      convKind
		dir    string
		edit   func(old, new string)
		done   func()
		marker string
	}
	var ts []*target
	for _, k := range kinds {
		dir := convRepo(b, k)
		edit, done := open(b, dir)
		t := &target{k: k, dir: dir, edit: edit, done: done, marker: "MARKER-0"}
		ts = append(ts, t)
	}
	n := 0
	step := func(t *target) time.Duration {
		n++
		next := fmt.Sprintf("MARKER-%d", n)
		start := time.Now()
		t.edit(t.marker, next)
		d := time.Since(start)
		t.marker = next
		return d
	}
	for _, t := range ts {
		step(t) // warm: session ref created, packs and attributes read
	}
	samples := convSamples{}
	for i := 0; b.Loop(); i++ {
		for j := range ts {
			t := ts[(i+j)%len(ts)]
			samples[t.k.name] = append(samples[t.k.name], step(t))
		}
	}
	b.StopTimer()
	for _, t := range ts {
		t.done()
		convCheck(b, t.k, t.dir, "bench")
	}
	samples.report(b, kinds)
}

// coldEditor runs the built binary once per edit.
func coldEditor(b *testing.B, dir string) (func(old, new string), func()) {
	binBuilt = true
	bin, err := buildBinary()
	if err != nil {
		b.Fatal(err)
	}
	edit := func(old, new string) {
		args, _ := json.Marshal(strReplaceArgs(old, new))
		cmd := exec.Command(filepath.Join(bin, "git-edit"), "call", "--session", "bench", "--log-file", os.DevNull, "text_editor")
		cmd.Dir, cmd.Env = dir, gittest.Env()
		cmd.Stdin = strings.NewReader(string(args))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git-edit call: %v\n%s", err, out)
		}
	}
	return edit, func() {}
}

// warmEditor connects a client to an in-process MCP server on the
// repository, as benchMCPStrReplace does.
func warmEditor(b *testing.B, dir string) (func(old, new string), func()) {
	e, err := ops.Open(ops.Options{Root: dir, Session: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	server, err := newMCPServer(e, []string{"text_editor"}, &ops.Observer{})
	if err != nil {
		b.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	edit := func(old, new string) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "text_editor", Arguments: strReplaceArgs(old, new)})
		if err != nil || res.IsError {
			b.Fatalf("%v %+v", err, res)
		}
	}
	return edit, func() {
		cs.Close()
		ss.Wait()
		e.Repo.Close()
	}
}
