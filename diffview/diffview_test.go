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

var update = flag.Bool("update", false, "rewrite the golden files in testdata/diffview")

const goldenDir = "../testdata/diffview"

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
			patch := render(header, old, new, context, limit)
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

// TestFullRewrite10k checks that a rewrite of every line of a 10,000-line
// file, far beyond what Myers may see, is one correct replacement hunk.
func TestFullRewrite10k(t *testing.T) {
	old, new := []byte(numbered("old", 1, 10000)), []byte(numbered("new", 1, 10000))
	patch := Unified("big.txt", "big.txt", old, new, 3)
	if !strings.Contains(patch, "\n@@ -1,10000 +1,10000 @@\n") || strings.Count(patch, "\n@@ ") != 1 {
		t.Errorf("want one hunk @@ -1,10000 +1,10000 @@, got headers %q", regexp.MustCompile(`(?m)^@@.*$`).FindAllString(patch, -1))
	}
	checkPatch(t, old, new, patch, 3, true)
	gitApply(t, []applyCase{{"rewrite", "big.txt", "big.txt", old, new, patch, false}})
}

// TestMyersBounds checks which windows go to Myers, counting hunks with
// context 0: each separate change is its own hunk, a replacement is one.
func TestMyersBounds(t *testing.T) {
	file := numbered("line", 1, 12000)
	change := func(lines ...int) string {
		text := file
		for _, n := range lines {
			text = withLine(text, n, "changed\n")
		}
		return text
	}
	var everyOther600, everyOther1000 []int
	for n := 2; n <= 1000; n += 2 {
		if n <= 600 {
			everyOther600 = append(everyOther600, n)
		}
		everyOther1000 = append(everyOther1000, n)
	}
	for _, c := range []struct {
		name      string
		new       string
		wantHunks int
	}{
		{"few edits across 9,001 lines: S=18,002, D=8", change(1000, 4000, 7000, 10000), 4},
		{"edits 12,000 lines apart: S=24,000 > maxMyersLines", change(1, 12000), 1},
		{"every other line of 600: S=1,200, D=600 within budget", change(everyOther600...), 300},
		{"every other line of 1,000: S=2,000, D=1,000 beyond budget", change(everyOther1000...), 1},
	} {
		patch := Hunks([]byte(file), []byte(c.new), 0)
		checkPatch(t, []byte(file), []byte(c.new), patch, 0, false)
		if got := strings.Count(patch, "@@ -"); got != c.wantHunks {
			t.Errorf("%s: %d hunks, want %d", c.name, got, c.wantHunks)
		}
	}
}

// TestEditsWithin checks the step count of editsWithin against the minimal
// number of lines removed plus added, from a longest common subsequence.
func TestEditsWithin(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for range 2000 {
		a, b := make([]int32, r.Intn(25)), make([]int32, r.Intn(25))
		for _, s := range [][]int32{a, b} {
			for i := range s {
				s[i] = int32(r.Intn(3))
			}
		}
		// lcs[i][j]: longest common subsequence of a[i:] and b[j:].
		lcs := make([][]int, len(a)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(b)+1)
		}
		for i := len(a) - 1; i >= 0; i-- {
			for j := len(b) - 1; j >= 0; j-- {
				if a[i] == b[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		d := len(a) + len(b) - 2*lcs[0][0]
		if !editsWithin(a, b, d) || editsWithin(a, b, d-1) {
			t.Fatalf("a %v b %v: minimal D is %d, editsWithin(D) = %v, editsWithin(D-1) = %v",
				a, b, d, editsWithin(a, b, d), editsWithin(a, b, d-1))
		}
	}
}

// TestSmallEditInLargeFile checks exact hunk numbers deep in a 10 MB file.
func TestSmallEditInLargeFile(t *testing.T) {
	old, new := largeFile()
	want := "@@ -399997,7 +399997,7 @@\n" +
		" line 0399997\n line 0399998\n line 0399999\n" +
		"-line 0400000\n+changed 0400000\n" +
		" line 0400001\n line 0400002\n line 0400003\n"
	if got := Hunks(old, new, 3); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// largeFile returns a 10 MB file of 800,000 numbered lines and a copy with
// its middle line changed.
func largeFile() (old, new []byte) {
	old = make([]byte, 0, 800000*13)
	for i := 1; i <= 800000; i++ {
		old = fmt.Appendf(old, "line %07d\n", i)
	}
	new = bytes.Replace(old, []byte("line 0400000\n"), []byte("changed 0400000\n"), 1)
	return old, new
}

func TestHeaderPath(t *testing.T) {
	for name, want := range map[string]string{
		"":                 "/dev/null",
		"dir/file.go":      "a/dir/file.go",
		"with space.txt":   "a/with space.txt",
		"日本.txt":           "a/日本.txt",
		"tab\tnew\nline":   `"a/tab\tnew\nline"`,
		`q"uote\back`:      `"a/q\"uote\\back"`,
		"bell\a\x01\x7f.x": `"a/bell\a\001\177.x"`,
	} {
		if got := headerPath("a/", name); got != want {
			t.Errorf("headerPath(%q) = %s, want %s", name, got, want)
		}
	}
}

func FuzzHunks(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c.old), []byte(c.new), c.context)
	}
	f.Fuzz(func(t *testing.T, old, new []byte, context int) {
		context %= 10 // larger contexts only slow the fuzzer down
		checkPatch(t, old, new, Hunks(old, new, context), context, false)
		checkPatch(t, old, new, render("", old, new, context, 0), context, false)
	})
}

// checkPatch checks that patch turns old into new when applied strictly
// at its stated line numbers, and that its hunks follow git's context
// rules. It reports whether all was well.
func checkPatch(t *testing.T, old, new []byte, patch string, context int, headers bool) bool {
	t.Helper()
	context = max(context, 0)
	if bytes.Equal(old, new) {
		if patch != "" {
			t.Errorf("patch for equal texts: %q", patch)
			return false
		}
		return true
	}
	got, err := applyStrict(old, patch, headers, context)
	if err != nil {
		t.Errorf("%v in patch:\n%s", err, patch)
		return false
	}
	if !bytes.Equal(got, new) {
		t.Errorf("patch applied gives %q, want %q; patch:\n%s", got, new, patch)
		return false
	}
	return true
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n$`)

// applyStrict applies a patch produced for old, requiring each hunk at
// exactly its stated old and new line numbers (git apply and patch would
// accept it at an offset), and checks the shape git gives hunks: each has a
// change, exactly context lines around its changes unless it reaches an end
// of the file, at most 2·context equal lines between changes, and at least
// one hidden line between hunks (otherwise they should have been merged).
func applyStrict(old []byte, patch string, headers bool, context int) ([]byte, error) {
	lines := strings.SplitAfter(patch, "\n")
	if lines[len(lines)-1] != "" {
		return nil, errors.New("patch does not end with a newline")
	}
	lines = lines[:len(lines)-1]
	if headers {
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
			return nil, errors.New("missing --- / +++ headers")
		}
		lines = lines[2:]
	}
	if len(lines) == 0 {
		return nil, errors.New("no hunks")
	}
	oldLines := strings.SplitAfter(string(old), "\n")
	if oldLines[len(oldLines)-1] == "" {
		oldLines = oldLines[:len(oldLines)-1]
	}

	var out []byte
	outLines, pos := 0, 0 // lines written to out; next line of old
	for len(lines) > 0 {
		m := hunkHeader.FindStringSubmatch(lines[0])
		if m == nil {
			return nil, fmt.Errorf("bad hunk header %q", lines[0])
		}
		lines = lines[1:]
		num := func(s string) int {
			if s == "" {
				return 1
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		oldStart, oldCount, newStart, newCount := num(m[1]), num(m[2]), num(m[3]), num(m[4])
		// A range of no lines names the line before the hunk.
		at, newAt := oldStart-1, newStart-1
		if oldCount == 0 {
			at = oldStart
		}
		if newCount == 0 {
			newAt = newStart
		}
		if at < pos || (pos > 0 && at == pos) || at > len(oldLines) {
			return nil, fmt.Errorf("hunk %q starts at old line %d, after line %d: overlapping or adjacent hunks", m[0], at+1, pos)
		}
		for ; pos < at; pos++ {
			out = append(out, oldLines[pos]...)
			outLines++
		}
		if newAt != outLines {
			return nil, fmt.Errorf("hunk %q: new start %d, but it lands at new line %d", m[0], newAt+1, outLines+1)
		}

		var signs []byte
		for o, n := 0, 0; o < oldCount || n < newCount; {
			if len(lines) == 0 || lines[0] == "" {
				return nil, fmt.Errorf("hunk %q ends early", m[0])
			}
			sign, text := lines[0][0], lines[0][1:]
			lines = lines[1:]
			if len(lines) > 0 && lines[0] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				lines = lines[1:]
			}
			if sign != '+' {
				if pos >= len(oldLines) || oldLines[pos] != text {
					return nil, fmt.Errorf("hunk %q: %q does not match old line %d", m[0], text, pos+1)
				}
				pos++
				o++
			}
			if sign != '-' {
				out = append(out, text...)
				outLines++
				n++
			}
			if sign != ' ' && sign != '-' && sign != '+' || o > oldCount || n > newCount {
				return nil, fmt.Errorf("hunk %q: bad line or count", m[0])
			}
			signs = append(signs, sign)
		}

		first := bytes.IndexAny(signs, "-+")
		last := bytes.LastIndexAny(signs, "-+")
		switch {
		case first < 0:
			return nil, fmt.Errorf("hunk %q has no change", m[0])
		case first != context && !(first < context && at == 0):
			return nil, fmt.Errorf("hunk %q has %d lines of leading context, want %d", m[0], first, context)
		case len(signs)-1-last != context && !(len(signs)-1-last < context && pos == len(oldLines)):
			return nil, fmt.Errorf("hunk %q has %d lines of trailing context, want %d", m[0], len(signs)-1-last, context)
		case bytes.Contains(signs[first:last], bytes.Repeat([]byte{' '}, 2*context+1)):
			return nil, fmt.Errorf("hunk %q has more than %d equal lines between changes", m[0], 2*context)
		}
	}
	for ; pos < len(oldLines); pos++ {
		out = append(out, oldLines[pos]...)
	}
	return out, nil
}

// An applyCase is one file for gitApply: oldName is written with old
// before applying patch (unless ""), newName must then hold new (or be
// absent if "").
type applyCase struct {
	name             string
	oldName, newName string
	old, new         []byte
	patch            string
	zeroContext      bool
}

// gitApply applies the cases with git apply, batched into one patch per
// kind (zero-context patches need --unidiff-zero), and on failure again
// one by one to name the failing cases.
func gitApply(t *testing.T, cases []applyCase) {
	t.Helper()
	git := needGit(t)
	for _, zero := range []bool{false, true} {
		var batch []applyCase
		for _, c := range cases {
			if c.zeroContext == zero {
				batch = append(batch, c)
			}
		}
		if len(batch) == 0 || runGitApply(t, git, batch, zero) == nil {
			continue
		}
		failed := 0
		for _, c := range batch {
			if err := runGitApply(t, git, []applyCase{c}, zero); err != nil && failed < 5 {
				failed++
				t.Errorf("%s: %v; patch:\n%s", c.name, err, c.patch)
			}
		}
		if failed == 0 {
			t.Errorf("git apply fails on the batch but not on any single case")
		}
	}
}

func runGitApply(t *testing.T, git string, cases []applyCase, zeroContext bool) error {
	dir := t.TempDir()
	var patch strings.Builder
	for _, c := range cases {
		if c.oldName != "" {
			path := filepath.Join(dir, c.oldName)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, c.old, 0o644); err != nil {
				return err
			}
		}
		patch.WriteString(c.patch)
	}
	patchFile := filepath.Join(t.TempDir(), "patch.diff")
	if err := os.WriteFile(patchFile, []byte(patch.String()), 0o644); err != nil {
		return err
	}
	args := []string{"apply", "--whitespace=nowarn"}
	if zeroContext {
		args = append(args, "--unidiff-zero")
	}
	cmd := exec.Command(git, append(args, patchFile)...)
	cmd.Dir = dir
	cmd.Env = gitEnv(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git apply: %v: %s", err, out)
	}
	for _, c := range cases {
		if c.newName == "" {
			if c.oldName != "" {
				if _, err := os.Stat(filepath.Join(dir, c.oldName)); !errors.Is(err, os.ErrNotExist) {
					return fmt.Errorf("%s: deleted file still exists (%v)", c.name, err)
				}
			}
			continue
		}
		got, err := os.ReadFile(filepath.Join(dir, c.newName))
		if err != nil {
			return fmt.Errorf("%s: %v", c.name, err)
		}
		if !bytes.Equal(got, c.new) {
			return fmt.Errorf("%s: git apply gives %q, want %q", c.name, got, c.new)
		}
	}
	return nil
}

func needGit(t *testing.T) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	return git
}

// gitEnv isolates git from any repository around dir and from user and
// system configuration.
func gitEnv(dir string) []string {
	return append(os.Environ(),
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(dir),
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1",
	)
}

// TestMyersAccepted checks that gotextdiff's edit scripts pass the replay
// in appendMyers. The replay falls back silently when they do not, so
// without this test a bug there (or in gotextdiff) would only show as
// needlessly large diffs.
func TestMyersAccepted(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := range 1000 {
		old := randomText(r)
		new := randomEdit(r, old)
		a, b := lineStarts(old, 0, len(old)), lineStarts(new, 0, len(new))
		aIDs, bIDs := lineIDs(old, a, new, b)
		if _, ok := appendMyers(nil, a, b, aIDs, bIDs); !ok {
			t.Fatalf("case %d: gotextdiff script rejected for old %q new %q", i, old, new)
		}
	}
}

// Stat agrees with git's own count (`git diff --numstat`).
func TestStatMatchesGitNumstat(t *testing.T) {
	cases := []struct{ old, new string }{
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"", "one\ntwo\n"},
		{"one\ntwo\n", ""},
		{"a\nb", "a\nb\n"},
		{"x\r\ny\r\n", "x\r\nY\r\nz\r\n"},
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
