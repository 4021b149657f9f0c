package ops_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/undo"
)

// While a person keeps swapping a recorded file between a regular file and
// a symlink to another tracked file (each swap one atomic rename), undo,
// redo and rollback of the recorded file, forced or not, run against it.
// Whatever the interleaving: the other file is never written, no commit
// records the link or the other file's bytes as the recorded file, no
// refusal is an internal error, and git fsck stays clean.
func TestAttackHistoryRacesSymlinkSwap(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"app.txt": "app\n", "target.txt": "target\n"})
	e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	call := func(args string) {
		t.Helper()
		res, err := e.Call(ctx, "text_editor", []byte(args))
		if err != nil || !res.OK {
			t.Fatalf("%s: %v %s", args, err, res.Text)
		}
	}
	call(`{"command":"str_replace","path":"target.txt","old_str":"target","new_str":"TARGET"}`)
	firstEdit := gittest.Rev(t, dir, "refs/edits/s")
	for i := range 3 {
		call(fmt.Sprintf(`{"command":"write","path":"app.txt","file_text":"agent %d\n"}`, i))
	}

	// The person: atomic swaps of app.txt, a link to target.txt or a file.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		app := filepath.Join(dir, "app.txt")
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			tmp := filepath.Join(dir, fmt.Sprintf(".swap-%d", i))
			if i%2 == 0 {
				os.Symlink("target.txt", tmp)
			} else {
				os.WriteFile(tmp, []byte("person's app\n"), 0o644)
			}
			os.Rename(tmp, app)
			time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
		}
	}()

	steps := []struct {
		name string
		run  func() error
	}{
		{"undo app.txt", func() error { _, err := e.Undo(ctx, "app.txt", false); return err }},
		{"undo --force app.txt", func() error { _, err := e.Undo(ctx, "app.txt", true); return err }},
		{"redo app.txt", func() error { _, err := e.Redo(ctx, "app.txt", false); return err }},
		{"redo --force app.txt", func() error { _, err := e.Redo(ctx, "app.txt", true); return err }},
		// Back to right after target.txt's edit: target.txt stays TARGET.
		{"rollback --to first", func() error { _, err := e.Rollback(ctx, firstEdit, false); return err }},
		{"rollback --to first --force", func() error { _, err := e.Rollback(ctx, firstEdit, true); return err }},
		{"text_editor undo_edit", func() error {
			res, err := e.Call(ctx, "text_editor", []byte(`{"command":"undo_edit","path":"app.txt"}`))
			if err == nil && !res.OK {
				err = errors.New(res.Text)
			}
			return err
		}},
	}
	runs, deadline := 300, time.Now().Add(3*time.Second)
	if testing.Short() {
		runs = 40
	}
	counts := map[string]int{}
	for i := 0; i < runs && time.Now().Before(deadline); i++ {
		op := steps[i%len(steps)]
		err := op.run()
		outcome := "ok"
		switch {
		case err == nil:
		case errors.Is(err, ops.ErrReplaced), errors.Is(err, repo.ErrNotRegular):
			outcome = "refused: not a regular file"
		default:
			outcome = "refused: other"
		}
		counts[outcome]++
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: %v", op.name, err)
		}
		if got := gittest.ReadFile(t, dir, "target.txt"); got != "TARGET\n" {
			t.Fatalf("%s (%v) changed target.txt to %q", op.name, err, got)
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("outcomes: %v", counts)

	if n := gittest.Git(t, dir, "rev-list", "--count", "HEAD..refs/edits/s", "--", "target.txt"); n != "1\n" {
		t.Errorf("%s commits changed target.txt; only its one edit may", strings.TrimSpace(n))
	}
	log := gittest.Git(t, dir, "log", "-p", "--raw", "HEAD..refs/edits/s", "--", "app.txt")
	for _, bad := range []string{"+TARGET", "+target", " 120000 "} {
		if strings.Contains(log, bad) {
			t.Errorf("a commit recorded app.txt with %q: the link was followed or recorded", bad)
		}
	}
	gittest.Fsck(t, dir)
	// Refusals of a non-regular file carry the engine's wording.
	os.Remove(filepath.Join(dir, "app.txt"))
	os.Symlink("target.txt", filepath.Join(dir, "app.txt"))
	if _, err := e.Undo(ctx, "app.txt", true); !errors.Is(err, ops.ErrReplaced) || !errors.Is(err, repo.ErrNotRegular) || errors.Is(err, undo.ErrNothingToUndo) {
		t.Fatalf("undo of a symlinked app.txt: %v", err)
	}
}
