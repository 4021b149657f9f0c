package main

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
)

// -repo's preparation of a small real clone: the clone is at the
// repository's HEAD with one ordinary commit on top that adds exactly the
// benchmark's files, git status is clean there, and the repository itself
// is left as it was. A work copy of it (copyRepo) shares the pack files,
// keeps symbolic links, and is clean too.
func TestPrepareRepo(t *testing.T) {
	src := gittest.NewWithCommit(t, map[string]string{"README": "hello\n", "src/a.c": "int a;\n"})
	gittest.Commit(t, src, map[string]string{"src/b.c": "int b;\n"})
	if err := os.Symlink("src/a.c", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	gittest.Commit(t, src, nil)
	gittest.Git(t, src, "gc", "-q")
	before := gittest.Snapshot(t, src)

	cache := t.TempDir()
	s, err := repoSubject(src, "small.git", cache)
	if err != nil {
		t.Fatal(err)
	}
	if s.label != "small.git" || !strings.HasPrefix(s.key, "repo-"+before.Head) || strings.Contains(s.note, "generated") || !strings.Contains(s.note, before.Head) {
		t.Fatalf("subject %+v", s)
	}
	if got := gittest.Rev(t, s.base, "HEAD^"); got != before.Head {
		t.Fatalf("the clone's HEAD^ is %s, want the repository's HEAD %s", got, before.Head)
	}
	added := strings.Fields(gittest.Git(t, s.base, "diff-tree", "--no-commit-id", "--name-status", "-r", "HEAD"))
	var want []string
	for _, p := range slices.Sorted(maps.Keys(benchFiles())) {
		want = append(want, "A", p)
	}
	if !slices.Equal(added, want) {
		t.Fatalf("the bench commit changes %v, want %v", added, want)
	}
	if st := gittest.Status(t, s.base); st != "" {
		t.Fatalf("the clone is not clean:\n%s", st)
	}
	gittest.Fsck(t, s.base)
	if after := gittest.Snapshot(t, src); after != before {
		t.Fatal("preparing the clone changed the repository")
	}
	// Cached: asking again makes nothing new.
	if s2, err := repoSubject(src, "", cache); err != nil || s2.base != s.base || s2.label != filepath.Base(src) {
		t.Fatalf("second time: %+v, %v", s2, err)
	}

	work := filepath.Join(t.TempDir(), "work")
	if err := copyRepo(s.base, work); err != nil {
		t.Fatal(err)
	}
	if st := gittest.Status(t, work); st != "" {
		t.Fatalf("the copy is not clean:\n%s", st)
	}
	packs, _ := filepath.Glob(filepath.Join(s.base, ".git", "objects", "pack", "*.pack"))
	if len(packs) == 0 {
		t.Fatal("no pack in the clone")
	}
	for _, p := range packs {
		a, errA := os.Stat(p)
		b, errB := os.Stat(filepath.Join(work, ".git", "objects", "pack", filepath.Base(p)))
		if errA != nil || errB != nil || !os.SameFile(a, b) {
			t.Fatalf("%s is not shared by the copy: %v %v", p, errA, errB)
		}
	}
	if l, err := os.Readlink(filepath.Join(work, "link")); err != nil || l != "src/a.c" {
		t.Fatalf("link: %q, %v", l, err)
	}
}

// Without -repo the report says, in the rows and in a note, that the
// repository was generated; with it, the rows name the real one.
func TestReportSaysGenerated(t *testing.T) {
	render := func(s subject) string {
		p := &pair{a: &series{name: "cold git-edit str_replace, 50 KB, " + s.label, samples: []sample{{d: time.Millisecond}}},
			b: &series{name: "git add && git commit -q, " + s.label, samples: []sample{{d: 2 * time.Millisecond}}}, ratios: []float64{0.5}}
		var b bytes.Buffer
		writeReport(&b, []row{pairRow(p, 0.3)}, []string{s.note}, 1, 1, "0.00 0.00 0.00", "0.00 0.00 0.00")
		return b.String()
	}
	out := render(shapedSubject(t.TempDir(), "generated in 1s"))
	for _, want := range []string{
		"| cold git-edit str_replace, 50 KB, git-shaped (generated) |",
		"| git add && git commit -q, git-shaped (generated) |",
		"\n- git-shaped (generated): the rows so labelled ran in a repository this benchmark generated",
		"not in a real one",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report has no %q:\n%s", want, out)
		}
	}
	out = render(subject{label: "git.git", note: "git.git: the repository at /src/git"})
	if !strings.Contains(out, "| cold git-edit str_replace, 50 KB, git.git |") || strings.Contains(out, "git-shaped") {
		t.Errorf("the -repo report:\n%s", out)
	}
}
