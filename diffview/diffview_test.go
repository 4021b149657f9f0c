package diffview

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenDir holds one <case name>.diff per table case.
const goldenDir = "testdata"

// numbered returns lines "<prefix> <i>\n" for i in [from, to].
func numbered(prefix string, from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%s %d\n", prefix, i)
	}
	return b.String()
}

// withLine returns text with its line n (1-based) replaced by line.
func withLine(text string, n int, line string) string {
	lines := strings.SplitAfter(text, "\n")
	lines[n-1] = line
	return strings.Join(lines, "")
}

type diffCase struct {
	name             string
	file             string // name in the headers, "f.txt" if empty
	created, deleted bool   // old, respectively new, is absent
	old, new         string
	context          int
	hunksOnly        bool   // render with Hunks instead of Unified
	gitDiffers       string // why git diff output is not compared, if it is not
}

func (c diffCase) names() (oldName, newName string) {
	oldName, newName = cmp.Or(c.file, "f.txt"), cmp.Or(c.file, "f.txt")
	if c.created {
		oldName = ""
	}
	if c.deleted {
		newName = ""
	}
	return oldName, newName
}

func (c diffCase) render() string {
	if c.hunksOnly {
		return Hunks([]byte(c.old), []byte(c.new), c.context)
	}
	oldName, newName := c.names()
	return Unified(oldName, newName, []byte(c.old), []byte(c.new), c.context)
}

var thousand = numbered("line", 1, 1000)
var thirty = numbered("line", 1, 30)

var cases = []diffCase{
	{name: "change_middle_of_1000", old: thousand, new: withLine(thousand, 500, "changed 500\n"), context: 3},
	{name: "snippet_middle_of_1000", old: thousand, new: withLine(thousand, 500, "changed 500\n"), context: 2, hunksOnly: true},
	{name: "change_first_line", old: thirty, new: withLine(thirty, 1, "first\n"), context: 3},
	{name: "insert_at_start", old: numbered("line", 1, 10), new: "new a\nnew b\n" + numbered("line", 1, 10), context: 3},
	{name: "insert_at_end", old: numbered("line", 1, 10), new: numbered("line", 1, 10) + "new a\nnew b\n", context: 3},
	{name: "delete_all_lines", old: numbered("line", 1, 5), new: "", context: 3},
	{name: "empty_to_nonempty", old: "", new: "one\ntwo\n", context: 3},
	{name: "created_file", created: true, old: "", new: "one\ntwo\nthree\n", context: 3},
	{name: "created_file_without_newline", created: true, old: "", new: "only", context: 3},
	{name: "deleted_file", deleted: true, old: "one\ntwo\nthree\n", new: "", context: 3},
	{name: "deleted_file_without_newline", deleted: true, old: "one\ntwo", new: "", context: 3},
	{name: "crlf", old: "l1\r\nl2\r\nl3\r\nl4\r\nl5\r\nl6\r\n", new: "l1\r\nl2\r\nL3\r\nl4\r\nl5\r\nl6\r\n", context: 1},
	{name: "crlf_to_lf_one_line", old: "l1\r\nl2\r\nl3\r\n", new: "l1\r\nl2\nl3\r\n", context: 3},
	{name: "cr_at_end_without_newline", old: "a\r\nb\r", new: "a\r\nb\r\n", context: 3},
	{name: "no_final_newline_change_last_line", old: "a\nb\nc\nd", new: "a\nb\nc\nD", context: 3},
	{name: "no_final_newline_change_other_line", old: "a\nb\nc\nd", new: "A\nb\nc\nd", context: 3},
	{name: "no_final_newline_context_0", old: "a\nb\nc", new: "a\nB\nc", context: 0},
	{name: "add_final_newline", old: "a\nb\nc", new: "a\nb\nc\n", context: 3},
	{name: "remove_final_newline", old: "a\nb\nc\n", new: "a\nb\nc", context: 3},
	{name: "append_after_missing_newline", old: "a\nb", new: "a\nb\nc\n", context: 3},
	{name: "two_distant_changes", old: thirty, new: withLine(withLine(thirty, 5, "five\n"), 25, "twenty-five\n"), context: 3},
	{name: "two_near_changes_merged", old: thirty, new: withLine(withLine(thirty, 5, "five\n"), 9, "nine\n"), context: 3},
	// 6 equal lines between the changes: the contexts touch, git merges.
	{name: "gap_of_2c_merged", old: thirty, new: withLine(withLine(thirty, 5, "five\n"), 12, "twelve\n"), context: 3},
	// 7 equal lines: one line stays hidden between two hunks.
	{name: "gap_of_2c_plus_1_split", old: thirty, new: withLine(withLine(thirty, 5, "five\n"), 13, "thirteen\n"), context: 3},
	{name: "context_0", old: thirty, new: strings.Replace(strings.Replace(withLine(thirty, 5, "five\n"), "line 10\n", "line 10\nadded\n", 1), "line 20\nline 21\n", "", 1), context: 0},
	{name: "context_0_insert_at_start", old: "a\nb\n", new: "x\ny\na\nb\n", context: 0},
	{name: "context_0_hunks_only", old: thirty, new: withLine(thirty, 15, "fifteen\n"), context: 0, hunksOnly: true},
	{name: "negative_context_is_0", old: thirty, new: withLine(thirty, 15, "fifteen\n"), context: -5},
	{name: "context_larger_than_file", old: "a\nb\nc\nd\ne\n", new: "a\nb\nC\nd\ne\n", context: 100},
	{name: "unicode", old: "héllo\n日本語\nemoji 🙂\nend\n", new: "héllo\n日本語のテキスト\nemoji 🙃\nend\n", context: 1},
	{name: "blank_lines", old: "\n\n\n\n", new: "\n\n\n", context: 3},
	{
		name: "repeated_lines", old: "a\na\na\nb\na\na\n", new: "a\na\nb\na\na\na\n", context: 1,
		gitDiffers: "both move one a past b; git picks the last a, the trimmed window the one next to b",
	},
	{name: "whole_file_replaced", old: "a\nb\nc\n", new: "x\ny\n", context: 3},
	{name: "partial_line_prefix_is_not_context", old: "abc\ndef\n", new: "abx\ndef\n", context: 3},
	{name: "quoted_names", file: "dir/tab\there \"q\".txt", old: "a\n", new: "b\n", context: 3},
	{
		name: "nul_bytes", old: "a\x00b\nkeep\n", new: "a\x00c\nkeep\n", context: 3,
		gitDiffers: "git diff shows NUL content as a binary change",
	},
}

func TestGolden(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.render()
			path := filepath.Join(goldenDir, c.name+".diff")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
			}
			checkPatch(t, []byte(c.old), []byte(c.new), got, c.context, !c.hunksOnly)
		})
	}
}

// TestGitApplyGolden applies every table case with the real git apply.
func TestGitApplyGolden(t *testing.T) {
	var batch []applyCase
	for _, c := range cases {
		if c.hunksOnly {
			continue
		}
		// One file per case: the batch is a single multi-file patch.
		c.file = cmp.Or(c.file, c.name+".txt")
		oldName, newName := c.names()
		batch = append(batch, applyCase{c.name, oldName, newName, []byte(c.old), []byte(c.new), c.render(), c.context <= 0})
	}
	gitApply(t, batch)
}

// TestMatchesGitDiff compares the hunks with those of git diff itself, for
// the cases where the two diff algorithms have no alignment to disagree on.
func TestMatchesGitDiff(t *testing.T) {
	git := needGit(t)
	funcContext := regexp.MustCompile(`(?m)^(@@ [^@]* @@).*$`)
	for _, c := range cases {
		if c.gitDiffers != "" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			paths := []string{"/dev/null", "/dev/null"}
			for i, text := range []string{c.old, c.new} {
				if oldName, newName := c.names(); (i == 0 && oldName == "") || (i == 1 && newName == "") {
					continue
				}
				paths[i] = filepath.Join(dir, strconv.Itoa(i))
				if err := os.WriteFile(paths[i], []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(git, "diff", "--no-index", "--no-color", "--no-ext-diff",
				"--diff-algorithm=myers", "--no-indent-heuristic", "-U"+strconv.Itoa(max(c.context, 0)), paths[0], paths[1])
			cmd.Env = gitEnv(dir)
			out, err := cmd.Output()
			var exit *exec.ExitError
			if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
				t.Fatalf("git diff: %v", err)
			}
			want := string(out)
			if i := strings.Index(want, "\n@@ "); i >= 0 {
				want = want[i+1:]
			}
			want = funcContext.ReplaceAllString(want, "$1")
			if got := Hunks([]byte(c.old), []byte(c.new), c.context); got != want {
				t.Errorf("differs from git diff:\ngot:\n%s\ngit:\n%s", got, want)
			}
		})
	}
}

// TestFileChange renders every table case with FileChange, giving absent
// sides stale content that must be ignored, and checks the golden file of
// Unified byte for byte; then the cases only FileChange has.
func TestFileChange(t *testing.T) {
	for _, c := range cases {
		if c.hunksOnly {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			oldName, newName := c.names()
			old := Side{Path: oldName, Content: []byte(c.old), Exists: !c.created}
			new := Side{Path: newName, Content: []byte(c.new), Exists: !c.deleted}
			if c.created {
				old = Side{Path: "stale.txt", Content: []byte("stale\n")}
			}
			if c.deleted {
				new = Side{Path: "stale.txt", Content: []byte("stale\n")}
			}
			path := filepath.Join(goldenDir, c.name+".diff")
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := FileChange(old, new, c.context); got != string(want) {
				t.Errorf("output differs from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}

	for _, c := range []struct {
		name     string
		old, new Side
		want     string
	}{
		{
			name: "renamed and changed",
			old:  Side{Path: "old name.txt", Content: []byte("a\nb\n"), Exists: true},
			new:  Side{Path: "new\tname.txt", Content: []byte("a\nc\n"), Exists: true},
			want: "--- a/old name.txt\n+++ \"b/new\\tname.txt\"\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
		},
		{
			name: "both absent",
			old:  Side{Path: "f", Content: []byte("stale\n")},
			new:  Side{Path: "f", Content: []byte("other\n")},
			want: "",
		},
		{
			name: "empty file created",
			old:  Side{Path: "f"},
			new:  Side{Path: "f", Content: []byte{}, Exists: true},
			want: "",
		},
		{
			name: "created over stale content",
			old:  Side{Path: "f", Content: []byte("x\n")},
			new:  Side{Path: "f", Content: []byte("x\n"), Exists: true},
			want: "--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+x\n",
		},
		{
			name: "deleted without newline",
			old:  Side{Path: "f", Content: []byte("x"), Exists: true},
			new:  Side{Path: "f", Content: []byte("x")},
			want: "--- a/f\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n\\ No newline at end of file\n",
		},
	} {
		if got := FileChange(c.old, c.new, 3); got != c.want {
			t.Errorf("%s: got\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}

func TestEqualIsEmpty(t *testing.T) {
	for _, text := range []string{"", "a", "a\n", thousand} {
		if got := Unified("f", "f", []byte(text), []byte(text), 3); got != "" {
			t.Errorf("Unified of equal %q = %q, want empty", text, got)
		}
		if got := Hunks([]byte(text), []byte(text), 3); got != "" {
			t.Errorf("Hunks of equal %q = %q, want empty", text, got)
		}
	}
}

// TestRoundTripRandom applies diffs of random edits to random texts, both
// with a strict in-process applier and with git apply, through Myers and
// through the replacement fallback.
func TestRoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var batch []applyCase
	for i := range 400 {
		old, new := randomText(r), []byte(nil)
		for new == nil || bytes.Equal(old, new) {
			new = randomEdit(r, old)
		}
		created, deleted := false, false
		switch r.Intn(10) {
		case 0:
			old, created = nil, true
		case 1:
			new, deleted = nil, true
		}
		context := r.Intn(5)
		// Limit 0 sends every window to the replacement fallback.
		for _, limit := range []int{maxMyersLines, 0} {
			name := fmt.Sprintf("f%03d.limit%d", i, limit)
			oldName, newName := name, name
			if created {
				oldName = ""
			}
			if deleted {
				newName = ""
			}
			header := "--- " + headerPath("a/", oldName) + "\n+++ " + headerPath("b/", newName) + "\n"
			patch := render(header, old, new, context, limit, false)
			if !checkPatch(t, old, new, patch, context, true) {
				t.Fatalf("%s: old %q new %q context %d", name, old, new, context)
			}
			batch = append(batch, applyCase{name, oldName, newName, old, new, patch, context == 0})
		}
	}
	gitApply(t, batch)
}

var linePool = []string{"a\n", "b\n", "c\n", "a\r\n", "\n", "\r\n", "}\n", "func f() {\n", "é ü 日本\n", "x\ty\n", "a longer line of text\n"}

// randomText returns up to 40 random lines, rarely a few hundred, with the
// final newline missing a quarter of the time.
func randomText(r *rand.Rand) []byte {
	n := r.Intn(40)
	if r.Intn(20) == 0 {
		n = 300 + r.Intn(500)
	}
	var b []byte
	for range n {
		b = append(b, linePool[r.Intn(len(linePool))]...)
	}
	if len(b) > 0 && r.Intn(4) == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// randomEdit returns text after one to four random line edits.
func randomEdit(r *rand.Rand, text []byte) []byte {
	lines := strings.SplitAfter(string(text), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for range 1 + r.Intn(4) {
		at := r.Intn(len(lines) + 1)
		switch r.Intn(5) {
		case 0: // insert
			var add []string
			for range 1 + r.Intn(5) {
				add = append(add, linePool[r.Intn(len(linePool))])
			}
			lines = append(lines[:at], append(add, lines[at:]...)...)
		case 1: // delete
			end := min(at+1+r.Intn(5), len(lines))
			lines = append(lines[:at], lines[end:]...)
		case 2: // change a line's content in place
			if at < len(lines) {
				lines[at] = "changed " + lines[at]
			}
		case 3: // toggle the final newline
			if n := len(lines); n > 0 {
				if strings.HasSuffix(lines[n-1], "\n") {
					lines[n-1] = strings.TrimSuffix(lines[n-1], "\n")
				} else {
					lines[n-1] += "\n"
				}
			}
		case 4: // change a line far from the last
			if len(lines) > 0 {
				lines[r.Intn(len(lines))] = linePool[r.Intn(len(linePool))]
			}
		}
		// Only the last line may lack its newline.
		for i := 0; i+1 < len(lines); i++ {
			if !strings.HasSuffix(lines[i], "\n") {
				lines[i] += "\n"
			}
		}
	}
	return []byte(strings.Join(lines, ""))
}

func FuzzHunks(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c.old), []byte(c.new), c.context)
	}
	f.Fuzz(func(t *testing.T, old, new []byte, context int) {
		context %= 10 // larger contexts only slow the fuzzer down
		checkPatch(t, old, new, Hunks(old, new, context), context, false)
		checkPatch(t, old, new, render("", old, new, context, 0, false), context, false)
	})
}

// Stat agrees with git's own count (`git diff --numstat`).
func TestStatMatchesGitNumstat(t *testing.T) {
	cases := []struct{ old, new string }{
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"", "one\ntwo\n"},
		{"one\ntwo\n", ""},
		{"a\nb", "a\nb\n"},
		{"x\r\ny\r\n", "x\r\nY\r\nz\r\n"},
		// A byte order mark is content to git: a line of its own here.
		{"", "\xef\xbb\xbf"},
		{"a\n", "a\n\xef\xbb\xbf"},
		{strings.Repeat("line\n", 50) + "mid\n" + strings.Repeat("line\n", 50), strings.Repeat("line\n", 50) + "MID\nmore\n" + strings.Repeat("line\n", 50)},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		if err := os.WriteFile(a, []byte(tc.old), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(b, []byte(tc.new), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _ := exec.Command("git", "diff", "--no-index", "--numstat", a, b).Output()
		var wantAdd, wantDel int
		fmt.Sscanf(string(out), "%d\t%d", &wantAdd, &wantDel)
		if add, del := Stat([]byte(tc.old), []byte(tc.new)); add != wantAdd || del != wantDel {
			t.Errorf("Stat(%q, %q) = +%d -%d, git says +%d -%d", tc.old, tc.new, add, del, wantAdd, wantDel)
		}
	}
	if add, del := Stat([]byte("same\n"), []byte("same\n")); add != 0 || del != 0 {
		t.Errorf("Stat of equal texts = +%d -%d", add, del)
	}
}
