package session_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// TestAttackFIFOInPlaceOfStateFilesNeverBlocks puts a FIFO where git-edit
// keeps its own state (the edit lock, the keep file, a session's history
// index and read record, the session ref and its reflog), with nobody at
// its other end. No command may block in open(2) on it: the caches
// (history index, keep file) are rebuilt and the edit goes through; the
// others refuse, naming the file and how to fix it, with the file on disk
// and the refs exactly as they were.
func TestAttackFIFOInPlaceOfStateFilesNeverBlocks(t *testing.T) {
	seen := func(path string) string {
		sum := sha1.Sum([]byte(path))
		return filepath.Join("git-edit", "sessions", "s", "seen", hex.EncodeToString(sum[:]))
	}
	edit := func(t *testing.T, dir string, s *session.Session, r *repo.Repo) error {
		_, err := s.Apply(context.Background(), resolve(t, r, dir, "a.txt"), session.RecordOutside,
			setContent("test.set", map[string]string{"a.txt": "edited\n"}))
		return err
	}
	for _, c := range []struct {
		name string
		fifo string // under .git
		run  func(t *testing.T, dir string, s *session.Session, r *repo.Repo) error
		// refused: the call must fail with ErrStateNotRegular; else succeed.
		refused bool
	}{
		{"history.idx", "git-edit/sessions/s/history.idx", edit, false},
		{"history.commits", "git-edit/sessions/s/history.commits", edit, false},
		{"keep", "git-edit/keep", edit, false},
		{"read record", seen("a.txt"), func(t *testing.T, dir string, s *session.Session, r *repo.Repo) error {
			_, _, err := s.LastSeen("a.txt")
			return err
		}, true},
		{"edit lock, dry run", "git-edit/lock", func(t *testing.T, dir string, s *session.Session, r *repo.Repo) error {
			_, err := s.Preview(context.Background(), resolve(t, r, dir, "a.txt"), session.RecordOutside,
				setContent("test.set", map[string]string{"a.txt": "edited\n"}))
			return err
		}, true},
		{"edit lock", "git-edit/lock", edit, true},
		{"reflog", "logs/refs/edits/s", edit, true},
		{"session ref", "refs/edits/s", edit, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
			edits(t, dir, "s", 0, 9) // the index, keep file and reflog exist
			r, s := open(t, dir, "s")
			must(t, s.RecordSeen("a.txt", repo.BlobHash([]byte("edit 8\n"))))
			fifo := filepath.Join(dir, ".git", filepath.FromSlash(c.fifo))
			os.Remove(fifo)
			must(t, os.MkdirAll(filepath.Dir(fifo), 0o777))
			mkfifo(t, fifo, 0o666)
			before := gittest.Snapshot(t, dir)
			tip := ""
			if c.fifo != "refs/edits/s" { // git itself would block reading it
				tip = gittest.Rev(t, dir, "refs/edits/s")
			}
			file := gittest.ReadFile(t, dir, "a.txt")

			done := make(chan error, 1)
			go func() { done <- c.run(t, dir, s, r) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				// Let the blocked open through, so the test ends.
				if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
					f.Close()
				}
				t.Fatalf("blocked for 30 s on the FIFO at .git/%s", c.fifo)
			}
			if !c.refused {
				if err != nil {
					t.Fatalf("a FIFO in place of a cache failed the command: %v", err)
				}
				if got := gittest.ReadFile(t, dir, "a.txt"); got != "edited\n" {
					t.Fatalf("a.txt = %q, want the edit", got)
				}
				gittest.Fsck(t, dir)
				return
			}
			if !errors.Is(err, repo.ErrStateNotRegular) || !strings.Contains(err.Error(), fifo+" is a FIFO") || !strings.Contains(err.Error(), "rm "+fifo) {
				t.Fatalf("err = %v, want the refusal naming %s as a FIFO and how to remove it", err, fifo)
			}
			if got := gittest.ReadFile(t, dir, "a.txt"); got != file {
				t.Fatalf("a.txt = %q after a refusal, want %q", got, file)
			}
			if after := gittest.Snapshot(t, dir); after != before {
				t.Fatalf("the refusal changed the repository:\n%+v\n%+v", before, after)
			}
			if tip != "" && gittest.Rev(t, dir, "refs/edits/s") != tip {
				t.Fatalf("the refusal moved the session ref")
			}
			if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Fatalf("the FIFO was removed or replaced by a refusal: %v", err)
			}
		})
	}
}
