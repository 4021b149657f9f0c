package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
)

// blameRepo is a repository where two sessions and the person wrote one
// file, f.txt:
//
//	p1         the person's commit C0
//	b1         session beta's insert
//	p2         C0
//	a1         session alpha's str_replace (turn t1)
//	A2-person  the person, who changed alpha's a2 on disk; alpha's next
//	           edit recorded it in a sync
//	a3         alpha's str_replace
//	p3         C0
//	p4         C0
//	a4         alpha's second str_replace
type blameRepo struct {
	dir string
	ids map[string]string // name -> full commit id: C0, a1 (alpha's first edit), as (alpha's sync), a2, bs, b1
}

func newBlameRepo(t *testing.T) *blameRepo {
	t.Helper()
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "p1\np2\np3\np4\n"})
	call := func(session, turn, args string) {
		t.Helper()
		cmd := []string{"call", "--session", session}
		if turn != "" {
			cmd = append(cmd, "--turn", turn)
		}
		res := gitEdit(t, dir, args, nil, append(cmd, "text_editor")...)
		if res.code != 0 {
			t.Fatalf("call %s: %d %s %s", args, res.code, res.stdout, res.stderr)
		}
	}
	call("alpha", "t1", `{"command":"str_replace","path":"f.txt","old_str":"p2\n","new_str":"p2\na1\na2\na3\n"}`)
	gittest.WriteFile(t, dir, "f.txt", "p1\np2\na1\nA2-person\na3\np3\np4\n")
	call("alpha", "t1", `{"command":"str_replace","path":"f.txt","old_str":"p4\n","new_str":"p4\na4\n"}`)
	call("beta", "", `{"command":"insert","path":"f.txt","insert_line":1,"new_str":"b1\n"}`)
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "p1\nb1\np2\na1\nA2-person\na3\np3\np4\na4\n" {
		t.Fatalf("f.txt is %q", got)
	}
	b := &blameRepo{dir: dir, ids: map[string]string{"C0": gittest.Rev(t, dir, "HEAD")}}
	for ref, names := range map[string][]string{"refs/edits/alpha": {"a2", "as", "a1"}, "refs/edits/beta": {"b1", "bs"}} {
		out := strings.Fields(gittest.Git(t, dir, "log", "--format=%H %(trailers:key=Edit-Op,valueonly,separator=)", "HEAD.."+ref))
		if len(out) != 2*len(names) {
			t.Fatalf("%s: %q", ref, out)
		}
		for i, n := range names {
			wantOp := "edit"
			if strings.HasSuffix(n, "s") {
				wantOp = "sync"
			}
			if out[2*i+1] != wantOp {
				t.Fatalf("%s: commit %d is a %s, want %s", ref, i, out[2*i+1], wantOp)
			}
			b.ids[n] = out[2*i]
		}
	}
	return b
}

// expand replaces {X} by commit X's short id and {X@} by its date as git
// blame shows it (the author date of a person's commit, the committer date
// of a session commit, which are the same here).
func (b *blameRepo) expand(t *testing.T, s string) string {
	t.Helper()
	for n, id := range b.ids {
		if strings.Contains(s, "{"+n+"@}") {
			date := strings.TrimSpace(gittest.Git(t, b.dir, "log", "-1", "--format=%ai", id))
			s = strings.ReplaceAll(s, "{"+n+"@}", date)
		}
		s = strings.ReplaceAll(s, "{"+n+"}", id[:8])
	}
	return s
}

// The attribution of the working file, and after the person commits it
// (plain, squashed with their own changes, amended) that of HEAD: every
// line the agents wrote and the person did not touch stays theirs.
func TestBlameAttributesEveryLine(t *testing.T) {
	b := newBlameRepo(t)
	dir := b.dir
	blame := func(args ...string) string {
		t.Helper()
		res := gitEdit(t, dir, "", nil, append([]string{"blame"}, args...)...)
		if res.code != 0 || res.stderr != "" {
			t.Fatalf("blame %v: %d %q %q", args, res.code, res.stdout, res.stderr)
		}
		return res.stdout
	}
	want := b.expand(t, `{C0} (person Test Person              {C0@} 1) p1
{b1} (agent beta insert               {b1@} 2) b1
{C0} (person Test Person              {C0@} 3) p2
{a1} (agent alpha str_replace turn t1 {a1@} 4) a1
{as} (person (not committed)          {as@} 5) A2-person
{a1} (agent alpha str_replace turn t1 {a1@} 6) a3
{C0} (person Test Person              {C0@} 7) p3
{C0} (person Test Person              {C0@} 8) p4
{a2} (agent alpha str_replace turn t1 {a2@} 9) a4
`)
	if got := blame("f.txt"); got != want {
		t.Errorf("blame f.txt:\n%s\nwant:\n%s", got, want)
	}

	// On a terminal (--color=always here) the agents' lines are yellow up
	// to their text; the person's are not coloured.
	var painted []string
	for _, line := range strings.SplitAfter(want, "\n") {
		if head, text, ok := strings.Cut(line, ") "); ok && strings.Contains(head, "(agent ") {
			line = "\x1b[33m" + head + ")\x1b[m " + text
		}
		painted = append(painted, line)
	}
	if got := blame("--color=always", "f.txt"); got != strings.Join(painted, "") {
		t.Errorf("blame --color=always f.txt:\n%q\nwant:\n%q", got, strings.Join(painted, ""))
	}

	// --json: every field, exactly.
	var got []map[string]any
	if err := json.Unmarshal([]byte(blame("--json", "f.txt")), &got); err != nil {
		t.Fatal(err)
	}
	iso := func(n string) string {
		when, err := time.Parse(time.RFC3339, strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%aI", b.ids[n])))
		if err != nil {
			t.Fatal(err)
		}
		return when.Format(time.RFC3339)
	}
	person := func(line int, text string) map[string]any {
		return map[string]any{"line": float64(line), "text": text, "kind": "person", "agent": false, "session": "", "commit": b.ids["C0"],
			"op": "", "tool": "", "turn": "", "model": "", "author": "Test Person", "time": iso("C0")}
	}
	agent := func(line int, text, session, c, tool, turn string) map[string]any {
		return map[string]any{"line": float64(line), "text": text, "kind": "agent", "agent": true, "session": session, "commit": b.ids[c],
			"op": "edit", "tool": tool, "turn": turn, "model": "", "author": "", "time": iso(c)}
	}
	wantJSON := []map[string]any{
		person(1, "p1"),
		agent(2, "b1", "beta", "b1", "text_editor.insert", ""),
		person(3, "p2"),
		agent(4, "a1", "alpha", "a1", "text_editor.str_replace", "t1"),
		{"line": float64(5), "text": "A2-person", "kind": "person", "agent": false, "session": "alpha", "commit": b.ids["as"],
			"op": "sync", "tool": "", "turn": "", "model": "", "author": "", "time": iso("as")},
		agent(6, "a3", "alpha", "a1", "text_editor.str_replace", "t1"),
		person(7, "p3"),
		person(8, "p4"),
		agent(9, "a4", "alpha", "a2", "text_editor.str_replace", "t1"),
	}
	gotJ, _ := json.MarshalIndent(got, "", " ")
	wantJ, _ := json.MarshalIndent(wantJSON, "", " ")
	if string(gotJ) != string(wantJ) {
		t.Errorf("blame --json:\n%s\nwant:\n%s", gotJ, wantJ)
	}

	// --session narrows: beta alone finds alpha's lines in its sync (the
	// person's, for it).
	if got, want := blame("--session", "beta", "f.txt"), b.expand(t, `{C0} (person Test Person     {C0@} 1) p1
{b1} (agent beta insert      {b1@} 2) b1
{C0} (person Test Person     {C0@} 3) p2
{bs} (person (not committed) {bs@} 4) a1
{bs} (person (not committed) {bs@} 5) A2-person
{bs} (person (not committed) {bs@} 6) a3
{C0} (person Test Person     {C0@} 7) p3
{C0} (person Test Person     {C0@} 8) p4
{bs} (person (not committed) {bs@} 9) a4
`); got != want {
		t.Errorf("blame --session beta:\n%s\nwant:\n%s", got, want)
	}

	// (a) committed as it is: HEAD's attribution is the working file's,
	// the person's line now in their commit C1.
	gittest.Git(t, dir, "commit", "-q", "-am", "take the agents' work")
	b.ids["C1"] = gittest.Rev(t, dir, "HEAD")
	wantHead := b.expand(t, `{C0} (person Test Person              {C0@} 1) p1
{b1} (agent beta insert               {b1@} 2) b1
{C0} (person Test Person              {C0@} 3) p2
{a1} (agent alpha str_replace turn t1 {a1@} 4) a1
{C1} (person Test Person              {C1@} 5) A2-person
{a1} (agent alpha str_replace turn t1 {a1@} 6) a3
{C0} (person Test Person              {C0@} 7) p3
{C0} (person Test Person              {C0@} 8) p4
{a2} (agent alpha str_replace turn t1 {a2@} 9) a4
`)
	if got := blame("f.txt", "HEAD"); got != wantHead {
		t.Errorf("(a) blame f.txt HEAD:\n%s\nwant:\n%s", got, wantHead)
	}
	if got, want := blame("--stat"), `added agent person  file   agent lines per session
    5     4      1  f.txt  alpha 3, beta 1
    5     4      1  total  alpha 3, beta 1
`; got != want {
		t.Errorf("(a) blame --stat:\n%s\nwant:\n%s", got, want)
	}

	// (b) squashed with the person's own changes into one commit.
	gittest.Git(t, dir, "reset", "-q", "--soft", "HEAD~1")
	gittest.WriteFile(t, dir, "f.txt", "P1\nb1\np2\na1\nA2-person\na3\np3\np4\na4\nown\n")
	gittest.WriteFile(t, dir, "g.txt", "g1\ng2\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "squashed")
	b.ids["C2"] = gittest.Rev(t, dir, "HEAD")
	wantSquash := b.expand(t, `{C2} (person Test Person              {C2@}  1) P1
{b1} (agent beta insert               {b1@}  2) b1
{C0} (person Test Person              {C0@}  3) p2
{a1} (agent alpha str_replace turn t1 {a1@}  4) a1
{C2} (person Test Person              {C2@}  5) A2-person
{a1} (agent alpha str_replace turn t1 {a1@}  6) a3
{C0} (person Test Person              {C0@}  7) p3
{C0} (person Test Person              {C0@}  8) p4
{a2} (agent alpha str_replace turn t1 {a2@}  9) a4
{C2} (person Test Person              {C2@} 10) own
`)
	if got := blame("f.txt", "HEAD"); got != wantSquash {
		t.Errorf("(b) blame f.txt HEAD:\n%s\nwant:\n%s", got, wantSquash)
	}
	wantStat := `added agent person  file   agent lines per session
    7     4      3  f.txt  alpha 3, beta 1
    2     0      2  g.txt
    9     4      5  total  alpha 3, beta 1
`
	if got := blame("--stat", "HEAD"); got != wantStat {
		t.Errorf("(b) blame --stat HEAD:\n%s\nwant:\n%s", got, wantStat)
	}

	// (c) amended: the person changes p3 and amends.
	gittest.WriteFile(t, dir, "f.txt", "P1\nb1\np2\na1\nA2-person\na3\nP3\np4\na4\nown\n")
	gittest.Git(t, dir, "commit", "-q", "-a", "--amend", "-m", "amended")
	b.ids["C3"] = gittest.Rev(t, dir, "HEAD")
	wantAmend := b.expand(t, `{C3} (person Test Person              {C3@}  1) P1
{b1} (agent beta insert               {b1@}  2) b1
{C0} (person Test Person              {C0@}  3) p2
{a1} (agent alpha str_replace turn t1 {a1@}  4) a1
{C3} (person Test Person              {C3@}  5) A2-person
{a1} (agent alpha str_replace turn t1 {a1@}  6) a3
{C3} (person Test Person              {C3@}  7) P3
{C0} (person Test Person              {C0@}  8) p4
{a2} (agent alpha str_replace turn t1 {a2@}  9) a4
{C3} (person Test Person              {C3@} 10) own
`)
	if got := blame("f.txt", "HEAD"); got != wantAmend {
		t.Errorf("(c) blame f.txt HEAD:\n%s\nwant:\n%s", got, wantAmend)
	}
	// A range, as JSON: C0..HEAD is the amended commit.
	var st map[string]any
	if err := json.Unmarshal([]byte(blame("--stat", "--json", b.ids["C0"]+"..HEAD")), &st); err != nil {
		t.Fatal(err)
	}
	gotSt, _ := json.Marshal(st)
	wantSt := `{"files":[{"added":8,"agent":4,"path":"f.txt","person":4,"sessions":{"alpha":3,"beta":1}},` +
		`{"added":2,"agent":0,"path":"g.txt","person":2,"sessions":{}}],"from":"` + b.ids["C0"] + `",` +
		`"to":"` + b.ids["C3"] + `","total":{"added":10,"agent":4,"person":6,"sessions":{"alpha":3,"beta":1}}}`
	if string(gotSt) != wantSt {
		t.Errorf("blame --stat --json C0..HEAD:\n%s\nwant:\n%s", gotSt, wantSt)
	}
	// A root commit counts against the empty tree.
	if got, want := blame("--stat", b.ids["C0"]), `added agent person  file   agent lines per session
    4     0      4  f.txt
    4     0      4  total
`; got != want {
		t.Errorf("blame --stat C0:\n%s\nwant:\n%s", got, want)
	}
	gittest.Fsck(t, dir)
}

// readOnlyState is what a read command must leave as it was: every file
// under the objects directory, every ref (the sessions' too), and the
// person's state.
type readOnlyState struct {
	objects []string
	refs    string
	state   gittest.State
}

func snapshotReadOnly(t *testing.T, dir string) readOnlyState {
	t.Helper()
	var objs []string
	root := filepath.Join(dir, ".git", "objects")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		objs = append(objs, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(objs)
	return readOnlyState{objects: objs, refs: gittest.Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)"), state: gittest.Snapshot(t, dir)}
}

func (u readOnlyState) check(t *testing.T, dir, what string) {
	t.Helper()
	now := snapshotReadOnly(t, dir)
	if strings.Join(now.objects, "\n") != strings.Join(u.objects, "\n") {
		t.Errorf("%s changed the objects directory:\nbefore %v\nafter  %v", what, u.objects, now.objects)
	}
	if now.refs != u.refs || now.state != u.state {
		t.Errorf("%s changed refs or the person's state:\nbefore %q %+v\nafter  %q %+v", what, u.refs, u.state, now.refs, now.state)
	}
}

// Blame writes nothing to the repository: no object (its made-up
// commits live in a temporary directory), no ref, not the index.
func TestBlameNeverWrites(t *testing.T) {
	b := newBlameRepo(t)
	dir := b.dir
	gittest.Unpack(t, dir) // every object loose, so that a new one shows
	before := snapshotReadOnly(t, dir)
	for _, args := range [][]string{
		{"blame", "f.txt"}, {"blame", "--json", "f.txt"}, {"blame", "f.txt", "HEAD"},
		{"blame", "--session", "alpha", "f.txt"}, {"blame", "--stat"}, {"blame", "--stat", "HEAD~0..HEAD"},
	} {
		res := gitEdit(t, dir, "", nil, args...)
		if res.code != 0 {
			t.Fatalf("%v: %d %s", args, res.code, res.stderr)
		}
		before.check(t, dir, strings.Join(args, " "))
	}
	gittest.Fsck(t, dir)
}

// Hostile arguments are refused, saying what to do, and nothing is
// written: a path outside the root or through a symlink, a hostile
// session name, a revision that git would read as an option.
func TestAttackBlameArguments(t *testing.T) {
	b := newBlameRepo(t)
	dir := b.dir
	outside := t.TempDir()
	gittest.WriteFile(t, outside, "secret.txt", "secret\n")
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f.txt", filepath.Join(dir, "inside.txt")); err != nil {
		t.Fatal(err)
	}
	before := snapshotReadOnly(t, dir)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"blame", "../" + filepath.Base(outside) + "/secret.txt"}, "outside the root"},
		{[]string{"blame", filepath.Join(outside, "secret.txt")}, "outside the root"},
		{[]string{"blame", "link.txt"}, "link.txt is a symlink"},
		{[]string{"blame", "linkdir/secret.txt"}, "the directory linkdir is now a symlink"},
		{[]string{"blame", "inside.txt"}, "inside.txt is a symlink"},
		{[]string{"blame", ".git/config"}, "path refused"},
		{[]string{"blame", "missing.txt"}, "does not exist in the working tree"},
		{[]string{"blame", "missing.txt", "HEAD"}, "is not a file in"},
		{[]string{"blame", "--session", "../../HEAD", "f.txt"}, "invalid session name"},
		{[]string{"blame", "--session", "nope", "f.txt"}, "no such session \"nope\""},
		{[]string{"blame", "f.txt", "--", "--output=" + filepath.Join(dir, "pwned")}, "unknown revision"},
		{[]string{"blame", "f.txt", "--", "-h"}, "unknown revision"},
		{[]string{"blame", "f.txt", "HEAD:f.txt"}, "unknown revision"},
		{[]string{"blame", "f.txt", "no-such-branch"}, "unknown revision"},
		{[]string{"blame", "--stat", "--", "--output=" + filepath.Join(dir, "pwned")}, "unknown revision"},
		{[]string{"blame", "--stat", "HEAD...HEAD"}, "symmetric difference"},
		{[]string{"blame", "--stat", "HEAD..--output=x"}, "unknown revision"},
	} {
		res := gitEdit(t, dir, "", nil, tc.args...)
		if res.code != 1 || !strings.Contains(res.stderr, tc.want) || res.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.args, res.code, res.stdout, res.stderr, tc.want)
		}
		before.check(t, dir, strings.Join(tc.args, " "))
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("a revision was read as git's --output option")
	}
	gittest.Fsck(t, dir)
}
