package ops_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// TestNetDiffShowsStoredForm: the history views compare the blobs as
// stored, the form `git diff HEAD refs/edits/S` shows, on both sides: in a
// core.autocrlf repository the diff holds only the agent's line, no CR.
func TestNetDiffShowsStoredForm(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	gittest.Git(t, dir, "config", "core.autocrlf", "true")
	gittest.WriteFile(t, dir, "a.txt", "one\ntwo\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
	if err := os.Remove(filepath.Join(dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "checkout", "--", "a.txt") // CRLF on disk
	e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	res, err := e.Call(context.Background(), "text_editor", []byte(`{"command":"str_replace","path":"a.txt","old_str":"two","new_str":"TWO"}`))
	if err != nil || !res.OK {
		t.Fatalf("edit: %v %s", err, res.Text)
	}
	diff, err := e.NetDiff(nil)
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			changed = append(changed, l)
		}
	}
	if strings.Join(changed, "|") != "-two|+TWO" {
		t.Errorf("net diff:\n%s\nwant only -two +TWO, without CR", diff)
	}
	if git := gittest.Git(t, dir, "diff", "--numstat", "HEAD", "refs/edits/s"); git != "1\t1\ta.txt\n" {
		t.Errorf("git diff --numstat HEAD refs/edits/s: %q", git)
	}
}
