package undo_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

// The tests below cover repositories in which git converts files between
// the worktree and the object store. Each starts from a file as `git
// checkout` wrote it, lets the session edit it, and checks with git itself
// that the session recorded what `git add` of the same bytes records, and
// that undo and rollback put the exact bytes back.

// convRepo is a repository whose HEAD holds files committed under the
// given config and .gitattributes, each then checked out afresh so that the
// disk holds exactly what `git checkout` writes.
func convRepo(t *testing.T, config [][2]string, attributes string, files map[string][]byte) string {
	t.Helper()
	gittest.Isolate(t)
	dir := gittest.New(t)
	for _, kv := range config {
		gittest.Git(t, dir, "config", kv[0], kv[1])
	}
	if attributes != "" {
		gittest.WriteFile(t, dir, ".gitattributes", attributes)
	}
	var names []string
	for name, content := range files {
		gittest.WriteFile(t, dir, name, string(content))
		names = append(names, name)
	}
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
	for _, name := range names {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Git(t, dir, append([]string{"checkout", "--"}, names...)...)
	return dir
}

// openSession opens session "s" on dir; the repository's conversion
// process is stopped when the test ends.
func openSession(t *testing.T, dir string) *session.Session {
	t.Helper()
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	s, err := session.New(r, "s")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func applyTo(t *testing.T, s *session.Session, rel string, policy session.OutsidePolicy, plan func(*session.Tx) (session.Plan, error)) (session.Outcome, error) {
	t.Helper()
	p, err := s.Repo.Resolve(s.Repo.Top, rel)
	if err != nil {
		t.Fatal(err)
	}
	return s.Apply(context.Background(), []repo.Path{p}, policy, plan)
}

// write has the session set rel to content, as an edit.
func write(t *testing.T, s *session.Session, rel string, content []byte) session.Outcome {
	t.Helper()
	out, err := applyTo(t, s, rel, session.RecordOutside, func(*session.Tx) (session.Plan, error) {
		return session.Plan{Changes: []session.Change{{Path: rel, Content: content}}, Meta: session.Meta{Op: session.OpEdit, Tool: "test.edit"}}, nil
	})
	if err != nil {
		t.Fatalf("edit %s: %v", rel, err)
	}
	return out
}

func undoPath(t *testing.T, s *session.Session, rel string) {
	t.Helper()
	if _, err := applyTo(t, s, rel, session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, _, err := undo.PlanUndo(tx, s, rel, 0, "test.undo")
		return pl, err
	}); err != nil {
		t.Fatalf("undo %s: %v", rel, err)
	}
}

func rollback(t *testing.T, s *session.Session, rel string, force bool) {
	t.Helper()
	tip, err := s.Tip()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := undo.PrepareRollback(s, tip, plumbing.ZeroHash)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := applyTo(t, s, rel, session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, _, err := undo.PlanRollback(tx, s, rb, force, "test.rollback")
		return pl, err
	}); err != nil {
		t.Fatalf("rollback: %v", err)
	}
}

func readDisk(t *testing.T, dir, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// trailers is every value of trailer key in the session's commits.
func trailers(t *testing.T, dir, key string) string {
	t.Helper()
	return strings.TrimSpace(gittest.Git(t, dir, "log", "--format=%(trailers:key="+key+",valueonly,separator=%x20)", "HEAD..refs/edits/s"))
}

// convRow is one repository setting of issue 13's table.
type convRow struct {
	name       string
	config     [][2]string
	attributes string
	path       string
	content    []byte              // what the person commits (before checkout)
	edit       func([]byte) []byte // the agent's change, on the bytes on disk
	needs      string              // a program the row needs on PATH
	check      func(t *testing.T, dir string, disk []byte)
}

func utf16le(s string) []byte {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func replaceOnce(old, new string) func([]byte) []byte {
	return func(b []byte) []byte { return bytes.Replace(b, []byte(old), []byte(new), 1) }
}

var convRows = []convRow{
	{
		name:    "core.autocrlf=true",
		config:  [][2]string{{"core.autocrlf", "true"}},
		path:    "a.txt",
		content: []byte("one\r\ntwo\r\nthree\r\n"),
		edit:    replaceOnce("two\r\n", "TWO\r\n"),
		check: func(t *testing.T, dir string, disk []byte) {
			if blob := gittest.Git(t, dir, "cat-file", "blob", "refs/edits/s:a.txt"); blob != "one\nTWO\nthree\n" {
				t.Errorf("recorded blob %q, want LF endings as git add stores", blob)
			}
		},
	},
	{
		name:       "text=auto eol=crlf",
		attributes: "* text=auto eol=crlf\n",
		path:       "a.txt",
		content:    []byte("one\ntwo\nthree\n"),
		edit:       replaceOnce("two\r\n", "TWO\r\n"),
		check: func(t *testing.T, dir string, disk []byte) {
			if string(disk) != "one\r\nTWO\r\nthree\r\n" {
				t.Errorf("disk %q, want CRLF as checked out", disk)
			}
			if blob := gittest.Git(t, dir, "cat-file", "blob", "refs/edits/s:a.txt"); blob != "one\nTWO\nthree\n" {
				t.Errorf("recorded blob %q, want LF endings as git add stores", blob)
			}
		},
	},
	{
		name: "clean/smudge filter",
		config: [][2]string{
			{"filter.rot13.clean", "tr A-Za-z N-ZA-Mn-za-m"},
			{"filter.rot13.smudge", "tr A-Za-z N-ZA-Mn-za-m"},
		},
		attributes: "*.txt filter=rot13\n",
		path:       "a.txt",
		content:    []byte("hello\nworld\n"),
		edit:       replaceOnce("world", "there"),
		check: func(t *testing.T, dir string, disk []byte) {
			if blob := gittest.Git(t, dir, "cat-file", "blob", "refs/edits/s:a.txt"); blob != "uryyb\ngurer\n" {
				t.Errorf("recorded blob %q, want the cleaned text", blob)
			}
		},
	},
	{
		name:       "git-lfs",
		needs:      "git-lfs",
		attributes: "*.bin filter=lfs diff=lfs merge=lfs -text\n",
		path:       "big.bin",
		content:    []byte("large content, version 1\n"),
		edit:       replaceOnce("version 1", "version 2"),
		check: func(t *testing.T, dir string, disk []byte) {
			sum := sha256.Sum256(disk)
			oid := hex.EncodeToString(sum[:])
			blob := gittest.Git(t, dir, "cat-file", "blob", "refs/edits/s:big.bin")
			if !strings.HasPrefix(blob, "version https://git-lfs.github.com/spec/v1\n") || !strings.Contains(blob, "oid sha256:"+oid+"\n") {
				t.Errorf("recorded blob is not the LFS pointer of the new content:\n%s", blob)
			}
			stored, err := os.ReadFile(filepath.Join(dir, ".git", "lfs", "objects", oid[:2], oid[2:4], oid))
			if err != nil || !bytes.Equal(stored, disk) {
				t.Errorf(".git/lfs/objects does not hold the new content: %v", err)
			}
		},
	},
	{
		name:       "working-tree-encoding=UTF-16LE-BOM",
		attributes: "*.txt text working-tree-encoding=UTF-16LE-BOM\n",
		path:       "u.txt",
		content:    utf16le("grüße\nwelt\n"),
		edit: func(b []byte) []byte {
			return bytes.Replace(b, utf16le("welt")[2:], utf16le("WELT")[2:], 1)
		},
		check: func(t *testing.T, dir string, disk []byte) {
			if !bytes.Equal(disk, utf16le("grüße\nWELT\n")) {
				t.Errorf("disk %q, want UTF-16LE with BOM", disk)
			}
			if blob := gittest.Git(t, dir, "cat-file", "blob", "refs/edits/s:u.txt"); blob != "grüße\nWELT\n" {
				t.Errorf("recorded blob %q, want UTF-8 as git stores it", blob)
			}
		},
	},
}

// TestConvertedRepositories: for each row, the first edit of a file the
// person did not change records no sync commit; the session's diff from
// HEAD is exactly what `git add` of the new bytes shows; git status changes
// only for the edited file; undo and rollback restore the exact bytes; git
// fsck --strict is clean.
func TestConvertedRepositories(t *testing.T) {
	for _, row := range convRows {
		t.Run(row.name, func(t *testing.T) {
			if row.needs != "" {
				if _, err := exec.LookPath(row.needs); err != nil {
					t.Skipf("%s is not installed (the CI setup installs it)", row.needs)
				}
			}
			config := row.config
			if row.needs == "git-lfs" {
				// What `git lfs install --local` sets.
				config = append(config,
					[2]string{"filter.lfs.clean", "git-lfs clean -- %f"},
					[2]string{"filter.lfs.smudge", "git-lfs smudge -- %f"},
					[2]string{"filter.lfs.process", "git-lfs filter-process"},
					[2]string{"filter.lfs.required", "true"})
			}
			dir := convRepo(t, config, row.attributes, map[string][]byte{row.path: row.content})
			s := openSession(t, dir)
			checkedOut := readDisk(t, dir, row.path)
			status := gittest.StatusExcept(t, dir, row.path)

			want := row.edit(checkedOut)
			if bytes.Equal(want, checkedOut) {
				t.Fatalf("the row's edit changes nothing in %q", checkedOut)
			}
			out := write(t, s, row.path, want)
			if !out.Sync.IsZero() {
				t.Errorf("the first edit recorded a sync commit, but the person changed nothing:\n%s", gittest.Git(t, dir, "show", out.Sync.String()))
			}
			disk := readDisk(t, dir, row.path)
			if !bytes.Equal(disk, want) {
				t.Fatalf("disk %q, want %q", disk, want)
			}
			if got, hand := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), gittest.AddedByHand(t, dir, row.path); got != hand {
				t.Errorf("git diff HEAD refs/edits/s:\n%s\nwhat git add shows for the same change:\n%s", got, hand)
			}
			if raw := trailers(t, dir, "Edit-Raw"); raw != "" {
				t.Errorf("Edit-Raw %q on a file that converts back", raw)
			}
			if got := gittest.StatusExcept(t, dir, row.path); got != status {
				t.Errorf("git status of other files changed:\n%s\nwas:\n%s", got, status)
			}
			row.check(t, dir, disk)

			undoPath(t, s, row.path)
			if got := readDisk(t, dir, row.path); !bytes.Equal(got, checkedOut) {
				t.Errorf("after undo %q, want the bytes before the edit %q", got, checkedOut)
			}
			if st := gittest.Status(t, dir); st != status {
				t.Errorf("after undo git status:\n%s\nwant:\n%s", st, status)
			}
			write(t, s, row.path, want)
			rollback(t, s, row.path, false)
			if got := readDisk(t, dir, row.path); !bytes.Equal(got, checkedOut) {
				t.Errorf("after rollback %q, want the bytes before the session %q", got, checkedOut)
			}
			if got := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"); got != "" {
				t.Errorf("after rollback the session still differs from HEAD:\n%s", got)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestConvertedBytesThatDoNotRoundTrip: bytes that git's conversion does
// not give back (mixed line endings under core.autocrlf, a filter that
// drops something) are recorded unconverted, named in Edit-Raw, and undo
// and rollback restore them exactly.
func TestConvertedBytesThatDoNotRoundTrip(t *testing.T) {
	cases := []struct {
		name       string
		config     [][2]string
		attributes string
		committed  string
		person     string // what the person leaves on disk before the session
		agent      string
	}{
		{
			name:      "mixed line endings under core.autocrlf",
			config:    [][2]string{{"core.autocrlf", "true"}},
			committed: "one\r\ntwo\r\n",
			person:    "one\r\ntwo\nthree\r\n",
			agent:     "one\r\nTWO\nthree\r\n",
		},
		{
			name:       "a filter that drops trailing blanks",
			config:     [][2]string{{"filter.trim.clean", "sed -e 's/[[:blank:]]*$//'"}, {"filter.trim.smudge", "cat"}},
			attributes: "*.txt filter=trim\n",
			committed:  "one\ntwo\n",
			person:     "one  \ntwo\n",
			agent:      "one  \nTWO\t\n",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := convRepo(t, tc.config, tc.attributes, map[string][]byte{"a.txt": []byte(tc.committed)})
			gittest.WriteFile(t, dir, "a.txt", tc.person)
			s := openSession(t, dir)

			out := write(t, s, "a.txt", []byte(tc.agent))
			if out.Sync.IsZero() {
				t.Fatal("no sync commit recorded the person's bytes")
			}
			if raw := strings.Fields(trailers(t, dir, "Edit-Raw")); strings.Join(raw, " ") != "a.txt a.txt" {
				t.Errorf("Edit-Raw trailers %q, want a.txt on the sync and the edit commit", raw)
			}
			if blob := gittest.Git(t, dir, "cat-file", "blob", "refs/edits/s:a.txt"); blob != tc.agent {
				t.Errorf("recorded %q, want the bytes unconverted %q", blob, tc.agent)
			}
			undoPath(t, s, "a.txt")
			if got := string(readDisk(t, dir, "a.txt")); got != tc.person {
				t.Errorf("after undo %q, want the person's exact bytes %q", got, tc.person)
			}
			write(t, s, "a.txt", []byte(tc.agent))
			// The session first touched the file with the sync commit of
			// the person's bytes: they are its state before the session.
			rollback(t, s, "a.txt", false)
			if got := string(readDisk(t, dir, "a.txt")); got != tc.person {
				t.Errorf("after rollback %q, want the person's exact bytes %q", got, tc.person)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestConvertedFileChangedOutside: a person's change to a converted file
// is recorded as a sync commit in the clean form, so the edit commit's
// diff is only the edit.
func TestConvertedFileChangedOutside(t *testing.T) {
	dir := convRepo(t, [][2]string{{"core.autocrlf", "true"}}, "", map[string][]byte{"a.txt": []byte("one\r\ntwo\r\n")})
	s := openSession(t, dir)
	gittest.WriteFile(t, dir, "a.txt", "one\r\ntwo\r\nmine\r\n")
	out := write(t, s, "a.txt", []byte("ONE\r\ntwo\r\nmine\r\n"))
	if out.Sync.IsZero() {
		t.Fatal("the person's change was not recorded first")
	}
	if got := gittest.Git(t, dir, "cat-file", "blob", out.Sync.String()+":a.txt"); got != "one\ntwo\nmine\n" {
		t.Errorf("sync commit recorded %q, want the clean form", got)
	}
	if got := gittest.Git(t, dir, "diff", "--stat", out.Sync.String(), out.Commit.String()); !strings.Contains(got, "1 insertion(+), 1 deletion(-)") {
		t.Errorf("the edit commit is not just the edit:\n%s", got)
	}
	undoPath(t, s, "a.txt")
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "one\r\ntwo\r\nmine\r\n" {
		t.Errorf("after undo %q, want the person's bytes", got)
	}
	gittest.Fsck(t, dir)
}

// TestConvertedCRLFBlobKeptAsGitAddKeepsIt: a file committed with CRLF in
// the blob, in a repository that later turns on core.autocrlf or text=auto,
// is kept with CRLF by `git add` (git's "safer autocrlf": a CR in the
// index's blob turns the CRLF to LF step off). The session records the
// same, so its diff from HEAD is the agent's line only, not a whole-file
// line-ending rewrite.
func TestConvertedCRLFBlobKeptAsGitAddKeepsIt(t *testing.T) {
	for _, tc := range []struct {
		name       string
		config     [][2]string
		attributes string
	}{
		{name: "core.autocrlf=true", config: [][2]string{{"core.autocrlf", "true"}}},
		{name: "core.autocrlf=input", config: [][2]string{{"core.autocrlf", "input"}}},
		{name: "text=auto", attributes: "*.txt text=auto\n"},
		{name: "text=auto eol=crlf", attributes: "*.txt text=auto eol=crlf\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := convRepo(t, nil, "", map[string][]byte{"a.txt": []byte("one\r\ntwo\r\nthree\r\n")})
			for _, kv := range tc.config {
				gittest.Git(t, dir, "config", kv[0], kv[1])
			}
			if tc.attributes != "" {
				gittest.WriteFile(t, dir, ".git/info/attributes", tc.attributes)
			}
			s := openSession(t, dir)
			before := readDisk(t, dir, "a.txt")
			out := write(t, s, "a.txt", []byte("one\r\nTWO\r\nthree\r\n"))
			if !out.Sync.IsZero() {
				t.Errorf("a sync commit although the person changed nothing")
			}
			if got, hand := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), gittest.AddedByHand(t, dir, "a.txt"); got != hand {
				t.Errorf("git diff HEAD refs/edits/s:\n%s\nwhat git add shows for the same change:\n%s", got, hand)
			}
			undoPath(t, s, "a.txt")
			if got := readDisk(t, dir, "a.txt"); !bytes.Equal(got, before) {
				t.Errorf("after undo %q, want %q", got, before)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestConversionFilterFailsOrHangs: a filter that fails or never ends
// refuses the edit with git's reason or the call's deadline, within the
// deadline, and leaves the file, the session ref and the edit lock as they
// were: the same edit succeeds once the filter is fixed.
func TestConversionFilterFailsOrHangs(t *testing.T) {
	for _, tc := range []struct {
		name, key, cmd string
		want           error
	}{
		{"clean hangs", "filter.f.clean", "sleep 20; cat", context.DeadlineExceeded},
		{"smudge hangs", "filter.f.smudge", "sleep 20; cat", context.DeadlineExceeded},
		{"clean fails", "filter.f.clean", "exit 3", repo.ErrConversion},
		{"smudge fails", "filter.f.smudge", "exit 3", repo.ErrConversion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := convRepo(t, [][2]string{{"filter.f.clean", "cat"}, {"filter.f.smudge", "cat"}, {"filter.f.required", "true"}},
				"*.txt filter=f\n", map[string][]byte{"a.txt": []byte("one\ntwo\n")})
			s := openSession(t, dir)
			gittest.Git(t, dir, "config", tc.key, tc.cmd)
			p, err := s.Repo.Resolve(s.Repo.Top, "a.txt")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			start := time.Now()
			_, err = s.Apply(ctx, []repo.Path{p}, session.RecordOutside, func(*session.Tx) (session.Plan, error) {
				return session.Plan{Changes: []session.Change{{Path: "a.txt", Content: []byte("one\nTWO\n")}}, Meta: session.Meta{Op: session.OpEdit, Tool: "test.edit"}}, nil
			})
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the edit took %v, past its 1s deadline", took)
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if got := string(readDisk(t, dir, "a.txt")); got != "one\ntwo\n" {
				t.Errorf("disk %q after the refusal", got)
			}
			if out := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); out != "" {
				t.Errorf("refs after the refusal:\n%s", out)
			}
			gittest.Git(t, dir, "config", tc.key, "cat")
			write(t, s, "a.txt", []byte("one\nTWO\n"))
			if got := string(readDisk(t, dir, "a.txt")); got != "one\nTWO\n" {
				t.Errorf("disk %q after the edit with the filter fixed", got)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// hangOnMark is a smudge filter that hangs on content holding HANG and is
// a round trip otherwise: the transaction's own checks of the tip pass, and
// only history's read of the older version hangs.
const hangOnMark = `f=$(mktemp); cat >"$f"; if grep -q HANG "$f"; then sleep 20; fi; cat "$f"; rm -f "$f"`

// TestHistoryReadsEndWithTheCall: the smudge of the version an undo or a
// rollback writes back runs under the call's context. A smudge filter that
// hangs there is stopped at the deadline: the operation is refused with
// nothing changed (disk, ref), and the lock is released (the same
// operation succeeds once the filter is fixed).
func TestHistoryReadsEndWithTheCall(t *testing.T) {
	for _, op := range []string{"undo", "rollback"} {
		t.Run(op, func(t *testing.T) {
			dir := convRepo(t, [][2]string{{"filter.f.clean", "cat"}, {"filter.f.smudge", "cat"}, {"filter.f.required", "true"}},
				"*.txt filter=f\n", map[string][]byte{"a.txt": []byte("one\nHANG\n")})
			s := openSession(t, dir)
			write(t, s, "a.txt", []byte("one\nTWO\n"))
			tip := gittest.Git(t, dir, "rev-parse", "refs/edits/s")
			gittest.Git(t, dir, "config", "filter.f.smudge", hangOnMark)

			rb, err := undo.PrepareRollback(s, plumbing.NewHash(strings.TrimSpace(tip)), plumbing.ZeroHash)
			if err != nil {
				t.Fatal(err)
			}
			plan := func(tx *session.Tx) (session.Plan, error) {
				if op == "undo" {
					pl, _, err := undo.PlanUndo(tx, s, "a.txt", 0, "test.undo")
					return pl, err
				}
				pl, _, err := undo.PlanRollback(tx, s, rb, false, "test.rollback")
				return pl, err
			}
			p, err := s.Repo.Resolve(s.Repo.Top, "a.txt")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			start := time.Now()
			_, err = s.Apply(ctx, []repo.Path{p}, session.RefuseOutside, plan)
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the %s took %v, past its 1s deadline", op, took)
			}
			if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, repo.ErrConversion) {
				t.Fatalf("err = %v, want the conversion stopped at the deadline", err)
			}
			if got := string(readDisk(t, dir, "a.txt")); got != "one\nTWO\n" {
				t.Errorf("disk %q after the refusal", got)
			}
			if now := gittest.Git(t, dir, "rev-parse", "refs/edits/s"); now != tip {
				t.Errorf("the ref moved from %s to %s", tip, now)
			}
			// The lock is free: with the filter fixed, the same operation
			// goes through on a context that cannot wait for it.
			gittest.Git(t, dir, "config", "filter.f.smudge", "cat")
			ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel2()
			if _, err := s.Apply(ctx2, []repo.Path{p}, session.RefuseOutside, plan); err != nil {
				t.Fatalf("%s with the filter fixed: %v", op, err)
			}
			if got := string(readDisk(t, dir, "a.txt")); got != "one\nHANG\n" {
				t.Errorf("disk %q after the %s", got, op)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestRollbackReadsAttributesOnce: a rollback of many converted paths reads
// what decides conversions once, not once per path: the attribute files
// are read by the transaction's begin, and the plan reads through it.
func TestRollbackReadsAttributesOnce(t *testing.T) {
	files := map[string][]byte{}
	for i := range 20 {
		files[fmt.Sprintf("d/f%02d.txt", i)] = []byte(fmt.Sprintf("line %d\r\n", i))
	}
	dir := convRepo(t, [][2]string{{"core.autocrlf", "true"}}, "*.txt text\n", files)
	gittest.WriteFile(t, dir, "d/.gitattributes", "*.txt eol=crlf\n")
	s := openSession(t, dir)
	var paths []repo.Path
	for name := range files {
		p, err := s.Repo.Resolve(s.Repo.Top, name)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if _, err := s.Apply(context.Background(), paths, session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
		var ch []session.Change
		for name, b := range files {
			ch = append(ch, session.Change{Path: name, Content: append([]byte("edited\r\n"), b...)})
		}
		return session.Plan{Changes: ch, Meta: session.Meta{Op: session.OpEdit, Tool: "test.edit"}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	// One begin reads: system, global, info/attributes, and the
	// .gitattributes of the top and of d.
	const perOperation = 5
	tip, err := s.Tip()
	if err != nil {
		t.Fatal(err)
	}
	before := s.Repo.AttributeReads()
	rb, err := undo.PrepareRollback(s, tip, plumbing.ZeroHash)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.Repo.AttributeReads() - before; n != 0 {
		t.Errorf("PrepareRollback read %d attribute files; it reads commits only", n)
	}
	if _, err := s.Apply(context.Background(), paths, session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, _, err := undo.PlanRollback(tx, s, rb, false, "test.rollback")
		return pl, err
	}); err != nil {
		t.Fatalf("rollback: %v", err)
	}
	if n := s.Repo.AttributeReads() - before; n != perOperation {
		t.Errorf("the rollback of %d converted paths read %d attribute files, want %d (each once)", len(files), n, perOperation)
	}
	for name, b := range files {
		if got := readDisk(t, dir, name); !bytes.Equal(got, b) {
			t.Errorf("%s: %q after the rollback, want %q", name, got, b)
		}
	}
	if out := gittest.Git(t, dir, "status", "--porcelain"); out != "?? d/.gitattributes\n" {
		t.Errorf("git status after the rollback:\n%s", out)
	}
	gittest.Fsck(t, dir)
}

// TestConvertedFileLeftUnconvertedOnDisk: a file checked out before the
// repository started converting it (core.autocrlf or an eol attribute set
// after the clone, a filter configured later) is on disk as its blob,
// unconverted, and git status calls it unchanged. The session records no
// sync commit for it, its diff is the agent's change only, and undo and
// rollback give back the exact bytes that were on disk (Edit-Raw-Before),
// not what `git checkout` would write now.
func TestConvertedFileLeftUnconvertedOnDisk(t *testing.T) {
	for _, tc := range []struct {
		name       string
		config     [][2]string
		attributes string // written to .git/info/attributes after the checkout
	}{
		{name: "core.autocrlf=true", config: [][2]string{{"core.autocrlf", "true"}}},
		{name: "text=auto eol=crlf", attributes: "*.txt text=auto eol=crlf\n"},
		{name: "eol=crlf", attributes: "*.txt eol=crlf\n"},
		{
			name:       "a filter set after the checkout",
			config:     [][2]string{{"filter.hdr.clean", "sed -e '/^# smudged$/d'"}, {"filter.hdr.smudge", "sed -e '1i # smudged'"}},
			attributes: "*.txt filter=hdr\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const committed = "one\ntwo\nthree\n"
			dir := convRepo(t, nil, "", map[string][]byte{"a.txt": []byte(committed)})
			for _, kv := range tc.config {
				gittest.Git(t, dir, "config", kv[0], kv[1])
			}
			if tc.attributes != "" {
				gittest.WriteFile(t, dir, ".git/info/attributes", tc.attributes)
			}
			if st := gittest.Git(t, dir, "status", "--porcelain"); st != "" {
				t.Fatalf("git status should call the file unchanged:\n%s", st)
			}
			s := openSession(t, dir)
			out := write(t, s, "a.txt", []byte("one\nTWO\nthree\n"))
			if !out.Sync.IsZero() {
				t.Errorf("a sync commit although the person changed nothing:\n%s", gittest.Git(t, dir, "show", out.Sync.String()))
			}
			if got, hand := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), gittest.AddedByHand(t, dir, "a.txt"); got != hand {
				t.Errorf("git diff HEAD refs/edits/s:\n%s\nwhat git add shows for the same change:\n%s", got, hand)
			}
			if got := trailers(t, dir, "Edit-Raw-Before"); strings.TrimSpace(got) != "a.txt" {
				t.Errorf("Edit-Raw-Before trailers %q, want a.txt on the edit", got)
			}
			undoPath(t, s, "a.txt")
			if got := string(readDisk(t, dir, "a.txt")); got != committed {
				t.Errorf("after undo %q, want the bytes that were on disk %q", got, committed)
			}
			if st := gittest.Git(t, dir, "status", "--porcelain"); st != "" {
				t.Errorf("after undo git status:\n%s", st)
			}
			out = write(t, s, "a.txt", []byte("one\nTWO\nthree\n"))
			if !out.Sync.IsZero() {
				t.Errorf("the edit after the undo recorded a sync commit")
			}
			rollback(t, s, "a.txt", false)
			if got := string(readDisk(t, dir, "a.txt")); got != committed {
				t.Errorf("after rollback %q, want the bytes before the session %q", got, committed)
			}
			if got := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"); got != "" {
				t.Errorf("after rollback the session still differs from HEAD:\n%s", got)
			}
			gittest.Fsck(t, dir)
		})
	}
}
