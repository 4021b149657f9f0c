package ops_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// TestConvertedConcurrentCalls: one engine (as one MCP server) serving
// calls from several goroutines at once on converted files of different
// kinds (a filter, core.autocrlf, and a directory with attributes of its
// own, so the kept `git cat-file --batch --filters` is restarted on the
// way), while another goroutine keeps calling Close: every edit and undo
// lands, each file ends as its own calls made it, the session records what
// `git add` records with no sync commit, and after the last Close no
// cat-file process remains.
func TestConvertedConcurrentCalls(t *testing.T) {
	gittest.Isolate(t)
	dir := gittest.New(t)
	gittest.Git(t, dir, "config", "core.autocrlf", "true")
	gittest.Git(t, dir, "config", "filter.rot13.clean", "tr A-Za-z N-ZA-Mn-za-m")
	gittest.Git(t, dir, "config", "filter.rot13.smudge", "tr A-Za-z N-ZA-Mn-za-m")
	gittest.Git(t, dir, "config", "filter.rot13.required", "true")
	gittest.WriteFile(t, dir, ".gitattributes", "*.rot filter=rot13\n")
	gittest.WriteFile(t, dir, "sub/.gitattributes", "*.txt text eol=crlf\n*.rot -filter\n")
	files := []string{"a.rot", "b.rot", "c.txt", "d.txt", "sub/e.txt", "sub/f.rot"}
	const lines = 6
	var text strings.Builder
	for i := range lines {
		fmt.Fprintf(&text, "line %d\n", i)
	}
	for _, f := range files {
		gittest.WriteFile(t, dir, f, text.String())
	}
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
	gittest.Git(t, dir, "rm", "-q", "--cached", "-r", ".")
	gittest.Git(t, dir, "reset", "-q", "--hard")
	if st := gittest.Status(t, dir); st != "" {
		t.Fatalf("git status before the session:\n%s", st)
	}
	head := gittest.Rev(t, dir, "HEAD")
	checkedOut := map[string]string{}
	for _, f := range files {
		checkedOut[f] = gittest.ReadFile(t, dir, f)
	}

	e := openEngine(t, dir)
	call := func(tool string, args any) error {
		raw, _ := json.Marshal(args)
		res, err := e.Call(context.Background(), tool, raw)
		if err != nil || !res.OK {
			return fmt.Errorf("%s %s: %v %s", tool, raw, err, res.Text)
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(files)*(3*lines+2))
	stop := make(chan struct{})
	closer := make(chan struct{})
	go func() {
		defer close(closer)
		for {
			select {
			case <-stop:
				return
			default:
				e.Close()
			}
		}
	}()
	for _, f := range files {
		wg.Go(func() {
			if err := call("Read", map[string]any{"file_path": f}); err != nil {
				errs <- err
				return
			}
			for i := range lines {
				if err := call("Edit", map[string]any{"file_path": f, "old_string": fmt.Sprintf("line %d", i), "new_string": fmt.Sprintf("%s says %d", f, i)}); err != nil {
					errs <- err
				}
				if err := call("text_editor", map[string]any{"command": "view", "path": f}); err != nil {
					errs <- err
				}
			}
			// Undo the last edit, then redo it by hand.
			if err := call("text_editor", map[string]any{"command": "undo_edit", "path": f}); err != nil {
				errs <- err
			}
			last := lines - 1
			if err := call("text_editor", map[string]any{"command": "str_replace", "path": f, "old_str": fmt.Sprintf("line %d", last), "new_str": fmt.Sprintf("%s says %d", f, last)}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(stop)
	<-closer
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, f := range files {
		want := checkedOut[f]
		for i := range lines {
			want = strings.Replace(want, fmt.Sprintf("line %d", i), fmt.Sprintf("%s says %d", f, i), 1)
		}
		if got := gittest.ReadFile(t, dir, f); got != want {
			t.Errorf("%s holds %q, want %q", f, got, want)
		}
	}
	if got, hand := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), gittest.AddedByHand(t, dir, "."); got != hand {
		t.Errorf("git diff HEAD refs/edits/s:\n%s\nwhat git add shows:\n%s", got, hand)
	}
	log := gittest.Git(t, dir, "log", "--format=%B", head+"..refs/edits/s")
	if strings.Contains(log, "Edit-Op: sync") || strings.Contains(log, "Edit-Raw") {
		t.Errorf("the session's history:\n%s", log)
	}
	if n := strings.Count(log, "Edit-Op: "); n != len(files)*(lines+2) {
		t.Errorf("%d commits, want %d", n, len(files)*(lines+2))
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if n := catFiles(t, dir); n != 0 {
		t.Errorf("after Close: %d cat-file processes remain", n)
	}
	gittest.Fsck(t, dir)
}
