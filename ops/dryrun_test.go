package ops_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// repoState is everything a dry run must leave as it was: the file's
// bytes, every ref (refs/edits/ included), the object store's counts and
// git-edit's own state under .git/git-edit (read records, history index).
type repoState struct {
	file, refs, objects string
	state               map[string]string
}

func snapshotRepo(t *testing.T, dir, file string) repoState {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	st := repoState{
		file:    string(b),
		refs:    gittest.Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)"),
		objects: gittest.Git(t, dir, "count-objects", "-v"),
		state:   map[string]string{},
	}
	root := filepath.Join(dir, ".git", "git-edit")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		st.state[rel] = string(b)
		return nil
	})
	return st
}

func (a repoState) diff(b repoState) string {
	var out []string
	if a.file != b.file {
		out = append(out, "file: "+a.file+" -> "+b.file)
	}
	if a.refs != b.refs {
		out = append(out, "refs:\n"+a.refs+"->\n"+b.refs)
	}
	if a.objects != b.objects {
		out = append(out, "objects:\n"+a.objects+"->\n"+b.objects)
	}
	for k, v := range a.state {
		if b.state[k] != v {
			out = append(out, ".git/git-edit/"+k+" changed or removed")
		}
	}
	for k := range b.state {
		if _, ok := a.state[k]; !ok {
			out = append(out, ".git/git-edit/"+k+" written")
		}
	}
	return strings.Join(out, "\n")
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withDryRun is args with "dry_run": true added.
func withDryRun(args map[string]any) map[string]any {
	out := map[string]any{"dry_run": true}
	for k, v := range args {
		out[k] = v
	}
	return out
}

// For every writing tool of the registry: a dry run of its write call
// changes nothing (the file's bytes, every ref, the object store, git-edit's
// state) and answers with the diff that the same call without dry_run then
// applies: the diff of the commit it records, as git edit show prints it
// and as git diff prints it.
func TestDryRunChangesNothingAndShowsTheDiffTheCallApplies(t *testing.T) {
	for _, tool := range ops.Registry() {
		if tool.WriteCall == nil {
			continue
		}
		t.Run(tool.Name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "alpha\nworld\nomega\n", "b.txt": "b\n"})
			off := false
			e, err := ops.Open(ops.Options{Root: dir, Session: "s", RequireRead: &off})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			// A first edit, so that the session has a ref, an index and a
			// lock file whose state the dry run must keep.
			engineCall(t, e, "text_editor", map[string]any{"command": "str_replace", "path": "b.txt", "old_str": "b", "new_str": "B"})
			args := tool.WriteCall("a.txt", "world", "earth")
			before := snapshotRepo(t, dir, "a.txt")
			res, err := e.Call(context.Background(), tool.Name, marshal(t, withDryRun(args)))
			if err != nil || !res.OK {
				t.Fatalf("dry run refused: %v %s", err, res.Text)
			}
			if d := before.diff(snapshotRepo(t, dir, "a.txt")); d != "" {
				t.Fatalf("the dry run changed:\n%s", d)
			}
			var v struct {
				DryRun bool    `json:"dry_run"`
				Diff   string  `json:"diff"`
				Commit *string `json:"commit"`
			}
			if err := json.Unmarshal(marshal(t, res.Value), &v); err != nil {
				t.Fatal(err)
			}
			if !v.DryRun || v.Diff == "" || v.Commit != nil {
				t.Fatalf("dry run result: %s", marshal(t, res.Value))
			}
			if !strings.Contains(res.Text, v.Diff) && !strings.Contains(res.Text, `"diff"`) {
				t.Fatalf("the text an agent reads has no diff:\n%s", res.Text)
			}

			// The call itself.
			tip := gittest.Rev(t, dir, "refs/edits/s")
			real, err := e.Call(context.Background(), tool.Name, marshal(t, args))
			if err != nil || !real.OK {
				t.Fatalf("real call refused: %v %s", err, real.Text)
			}
			commit := gittest.Rev(t, dir, "refs/edits/s")
			if commit == tip {
				t.Fatal("the real call recorded nothing")
			}
			entry, err := e.Show(commit, true)
			if err != nil {
				t.Fatal(err)
			}
			if entry.Diff != v.Diff {
				t.Fatalf("dry run diff:\n%s\ncommit's diff:\n%s", v.Diff, entry.Diff)
			}
			// git's own diff of the commit, without its two header lines.
			gitDiff := gittest.Git(t, dir, "diff", commit+"^", commit, "--", "a.txt")
			lines := strings.SplitAfterN(gitDiff, "\n", 3)
			if len(lines) != 3 || lines[2] != v.Diff {
				t.Fatalf("dry run diff:\n%s\ngit diff:\n%s", v.Diff, gitDiff)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// A dry run refuses what the call refuses, with the same answer, and
// changes nothing: a path outside the repository, an Edit of a file not
// read first (read-before-edit), and dry_run that is not a boolean.
func TestDryRunRefusesAsTheCall(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "world\n"})
	e := openEngine(t, dir)
	for _, tool := range ops.Registry() {
		if tool.WriteCall == nil {
			continue
		}
		calls := []map[string]any{tool.WriteCall("../outside.txt", "world", "earth")}
		if tool.Name == "Edit" || tool.Name == "MultiEdit" {
			calls = append(calls, tool.WriteCall("a.txt", "world", "earth"))
		}
		for _, args := range calls {
			before := snapshotRepo(t, dir, "a.txt")
			dry, err := e.Call(context.Background(), tool.Name, marshal(t, withDryRun(args)))
			if err != nil {
				t.Fatal(err)
			}
			if d := before.diff(snapshotRepo(t, dir, "a.txt")); d != "" {
				t.Fatalf("%s: the refused dry run changed:\n%s", tool.Name, d)
			}
			real, err := e.Call(context.Background(), tool.Name, marshal(t, args))
			if err != nil {
				t.Fatal(err)
			}
			if dry.OK || real.OK || dry.Text != real.Text || string(marshal(t, dry.Value)) != string(marshal(t, real.Value)) {
				t.Errorf("%s %v:\ndry run: %v %s\ncall:    %v %s", tool.Name, args, dry.OK, dry.Text, real.OK, real.Text)
			}
		}
		args := tool.WriteCall("a.txt", "world", "earth")
		args["dry_run"] = "yes"
		res, err := e.Call(context.Background(), tool.Name, marshal(t, args))
		if err != nil || res.OK || !strings.Contains(res.Text, `"dry_run" must be true or false, got "yes"`) {
			t.Errorf("%s: dry_run \"yes\": %v %s", tool.Name, err, res.Text)
		}
	}
	if got := gittest.Rev(t, dir, "HEAD"); strings.Contains(gittest.Git(t, dir, "for-each-ref"), "refs/edits/") {
		t.Fatalf("a refused call recorded something (HEAD %s)", got)
	}
}

// dry_run is in the schema of every writing tool, and of no read-only
// one, as the last property.
func TestDryRunInEveryWritingToolsSchema(t *testing.T) {
	defs, err := ops.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]ops.ToolDef{}
	for _, d := range defs {
		byName[d.Name] = d
	}
	for _, tool := range ops.Registry() {
		var schema struct {
			Properties map[string]struct {
				Type string `json:"type"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(byName[tool.Name].InputSchema, &schema); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		p, ok := schema.Properties["dry_run"]
		if ok != !tool.ReadOnly() || ok && p.Type != "boolean" {
			t.Errorf("%s (read-only %v): dry_run in schema %v (%+v)", tool.Name, tool.ReadOnly(), ok, p)
		}
	}
}

// text_editor's dry run of a view records no read, and of undo_edit
// reverts nothing: the next Edit still asks for a Read, the file and the
// session stay as they were.
func TestDryRunRecordsNoReadAndUndoesNothing(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "hello world\n"})
	e := openEngine(t, dir)
	res, err := e.Call(context.Background(), "text_editor", marshal(t, map[string]any{"command": "view", "path": "a.txt", "dry_run": true}))
	if err != nil || !res.OK {
		t.Fatalf("view: %v %s", err, res.Text)
	}
	edit := marshal(t, map[string]any{"file_path": "a.txt", "old_string": "world", "new_string": "earth"})
	if res, _ := e.Call(context.Background(), "Edit", edit); res.OK {
		t.Fatalf("Edit after a dry-run view went through: %s", res.Text)
	}
	engineCall(t, e, "text_editor", map[string]any{"command": "str_replace", "path": "a.txt", "old_str": "world", "new_str": "earth"})
	before := snapshotRepo(t, dir, "a.txt")
	res, err = e.Call(context.Background(), "text_editor", marshal(t, map[string]any{"command": "undo_edit", "path": "a.txt", "dry_run": true}))
	if err != nil || !res.OK {
		t.Fatalf("undo_edit: %v %s", err, res.Text)
	}
	if d := before.diff(snapshotRepo(t, dir, "a.txt")); d != "" {
		t.Fatalf("a dry-run undo_edit changed:\n%s", d)
	}
	want := "Dry run: nothing was written or recorded. The call would apply this diff:\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-hello earth\n+hello world\nand answer:\nLast edit to a.txt undone: reverted text_editor.str_replace ("
	if !strings.HasPrefix(res.Text, want) {
		t.Fatalf("text:\n%s\nwant it to start with:\n%s", res.Text, want)
	}
}

// A dry run on a file git converts, whose disk bytes are the blob itself
// (checked out before the filter was configured), asks git whether `git
// add` would store them unchanged; it must ask without writing: no
// object from the clean filter lands in the object store.
func TestDryRunOnAFileCheckedOutBeforeItsFilterStoresNoObject(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "hello world\n", ".gitattributes": "a.txt filter=up\n"})
	gittest.Git(t, dir, "config", "filter.up.clean", "tr a-z A-Z")
	gittest.Git(t, dir, "config", "filter.up.smudge", "sed s/^/S/")
	before := snapshotRepo(t, dir, "a.txt")
	e := openEngine(t, dir)
	res, err := e.Call(context.Background(), "text_editor", marshal(t, map[string]any{"command": "str_replace", "path": "a.txt", "old_str": "world", "new_str": "earth", "dry_run": true}))
	if err != nil || !res.OK {
		t.Fatalf("dry run: %v %s", err, res.Text)
	}
	if d := before.diff(snapshotRepo(t, dir, "a.txt")); d != "" {
		t.Fatalf("a dry run changed:\n%s", d)
	}
}
