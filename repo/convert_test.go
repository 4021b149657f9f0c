package repo_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/go-git/go-git/v5/plumbing"
)

// convSample is content every conversion changes: CRLF and lone LF, an
// $Id$ keyword, letters for a filter.
const convSample = "Ab\r\ncd\n$Id$\r\n"

// gitCleans reports whether `git hash-object --path=rel` of convSample
// stores other bytes than convSample: whether git converts rel.
func gitCleans(t *testing.T, dir, rel string) bool {
	t.Helper()
	cmd := exec.Command("git", "hash-object", "--path="+rel, "--stdin")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(convSample)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git hash-object --path=%s: %v", rel, err)
	}
	return strings.TrimSpace(string(out)) != repo.BlobHash([]byte(convSample)).String()
}

// TestConversionsApplies: Applies says true exactly where it should, and
// never false where git converts (checked with git hash-object).
func TestConversionsApplies(t *testing.T) {
	cases := []struct {
		name       string
		config     [][2]string
		attributes map[string]string // .gitattributes files by directory
		info       string            // .git/info/attributes
		path       string
		want       bool
	}{
		{name: "nothing set", path: "a.txt", want: false},
		{name: "core.autocrlf=true", config: [][2]string{{"core.autocrlf", "true"}}, path: "a.txt", want: true},
		{name: "core.autocrlf=input", config: [][2]string{{"core.autocrlf", "input"}}, path: "a.txt", want: true},
		{name: "core.autocrlf=false", config: [][2]string{{"core.autocrlf", "false"}}, path: "a.txt", want: false},
		{name: "core.eol alone converts nothing", config: [][2]string{{"core.eol", "crlf"}}, path: "a.txt", want: false},
		{name: "text", attributes: map[string]string{"": "*.txt text\n"}, path: "a.txt", want: true},
		{name: "text on other files", attributes: map[string]string{"": "*.md text\n"}, path: "a.txt", want: false},
		{name: "text=auto eol=crlf", attributes: map[string]string{"": "* text=auto eol=crlf\n"}, path: "d/a.txt", want: true},
		{name: "-text beats autocrlf", config: [][2]string{{"core.autocrlf", "true"}}, attributes: map[string]string{"": "*.txt -text\n"}, path: "a.txt", want: false},
		{name: "binary macro beats autocrlf", config: [][2]string{{"core.autocrlf", "true"}}, attributes: map[string]string{"": "*.txt binary\n"}, path: "a.txt", want: false},
		{name: "a deeper file overrides", attributes: map[string]string{"": "* text\n", "d": "*.txt -text\n"}, path: "d/a.txt", want: false},
		{name: "a deeper file sets", attributes: map[string]string{"d": "*.txt text\n"}, path: "d/a.txt", want: true},
		{name: "a deeper file leaves others", attributes: map[string]string{"d": "*.txt text\n"}, path: "a.txt", want: false},
		{name: "later line wins", attributes: map[string]string{"": "* text\n*.txt -text\n"}, path: "a.txt", want: false},
		{name: "info/attributes wins", attributes: map[string]string{"": "* text\n"}, info: "*.txt -text\n", path: "a.txt", want: false},
		{name: "crlf (old)", attributes: map[string]string{"": "*.txt crlf\n"}, path: "a.txt", want: true},
		{name: "ident", attributes: map[string]string{"": "*.txt ident\n"}, path: "a.txt", want: true},
		{name: "filter", config: [][2]string{{"filter.up.clean", "tr a-z A-Z"}}, attributes: map[string]string{"": "*.txt filter=up\n"}, path: "a.txt", want: true},
		{name: "working-tree-encoding", attributes: map[string]string{"": "*.txt working-tree-encoding=ISO-8859-1\n"}, path: "a.txt", want: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gittest.Isolate(t)
			dir := gittest.New(t)
			for _, kv := range tc.config {
				gittest.Git(t, dir, "config", kv[0], kv[1])
			}
			for d, content := range tc.attributes {
				gittest.WriteFile(t, dir, filepath.Join(d, ".gitattributes"), content)
			}
			if tc.info != "" {
				gittest.WriteFile(t, dir, ".git/info/attributes", tc.info)
			}
			r, err := repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			c, err := r.Conversions()
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Applies(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Applies(%s) = %v, want %v", tc.path, got, tc.want)
			}
			if !got && gitCleans(t, dir, tc.path) {
				t.Errorf("Applies(%s) is false, but git add converts it", tc.path)
			}
		})
	}
}

// TestSmudgeAnswers: the long-running process delimits every answer
// right: empty content, content that looks like a batch answer, content
// without a final newline, and a blob git does not have; a changed filter
// restarts the process.
func TestSmudgeAnswers(t *testing.T) {
	gittest.Isolate(t)
	dir := gittest.New(t)
	gittest.Git(t, dir, "config", "filter.up.smudge", "tr a-z A-Z")
	gittest.WriteFile(t, dir, ".gitattributes", "*.txt filter=up\n")
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, err := r.Conversions()
	if err != nil {
		t.Fatal(err)
	}
	store := func(content string) plumbing.Hash {
		cmd := exec.Command("git", "hash-object", "-w", "--no-filters", "--stdin")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(content)
		b, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return plumbing.NewHash(strings.TrimSpace(string(b)))
	}
	for _, content := range []string{"", "x", "a\nb\n", "0000000000000000000000000000000000000000 missing\n", "\n\n", "blob 3\nabc\n"} {
		h := store(content)
		got, err := c.Smudge("a.txt", h)
		if err != nil {
			t.Fatalf("Smudge(%q): %v", content, err)
		}
		if want := strings.ToUpper(content); string(got) != want {
			t.Errorf("Smudge(%q) = %q, want %q", content, got, want)
		}
	}
	if _, err := c.Smudge("a.txt", plumbing.NewHash("1111111111111111111111111111111111111111")); err == nil || !strings.Contains(err.Error(), plumbing.ErrObjectNotFound.Error()) {
		t.Errorf("Smudge of a missing blob: %v, want object not found", err)
	}
	// The process survives a miss, and a new filter restarts it.
	gittest.Git(t, dir, "config", "filter.up.smudge", "tr a-z 0-9")
	if c, err = r.Conversions(); err != nil {
		t.Fatal(err)
	}
	got, err := c.Smudge("a.txt", store("abc"))
	if err != nil || string(got) != "012" {
		t.Errorf("after the filter changed: %q, %v; want %q", got, err, "012")
	}
}

// TestAttackCleanFilterStderrIsBounded: a clean filter that writes 10 MB
// to standard error and fails gives an error holding only the tail of it
// (its last words included), not the 10 MB; one that writes as much and
// succeeds cleans as usual.
func TestAttackCleanFilterStderrIsBounded(t *testing.T) {
	gittest.Isolate(t)
	dir := gittest.New(t)
	const flood = `head -c 10000000 /dev/zero | tr '\0' x >&2; echo >&2; echo the-filter-gave-up >&2`
	gittest.Git(t, dir, "config", "filter.fails.clean", flood+"; exit 3")
	gittest.Git(t, dir, "config", "filter.fails.required", "true")
	gittest.Git(t, dir, "config", "filter.talks.clean", flood+"; tr a-z A-Z")
	gittest.WriteFile(t, dir, ".gitattributes", "fails.txt filter=fails\ntalks.txt filter=talks\n")
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, err := r.Conversions()
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Clean("fails.txt", []byte("abc\n"), false)
	if !errors.Is(err, repo.ErrConversion) {
		t.Fatalf("Clean with a failing filter: %v, want ErrConversion", err)
	}
	if msg := err.Error(); len(msg) > 8<<10 || !strings.Contains(msg, "the-filter-gave-up") || !strings.Contains(msg, "git add fails.txt") {
		t.Errorf("the error is %d bytes (want at most 8 KiB, with the filter's last words and what to do): %.300q…", len(msg), msg)
	}
	cl, err := c.Clean("talks.txt", []byte("abc\n"), false)
	if err != nil {
		t.Fatalf("Clean with a talkative filter: %v", err)
	}
	if string(cl.Content) != "ABC\n" {
		t.Errorf("cleaned %q, want %q", cl.Content, "ABC\n")
	}
}

// TestDeclaredEncoding: the encoding a file's attributes declare is the
// one `git check-attr` resolves: working-tree-encoding first, else
// encoding; precedence, macros and unset values as git has them.
func TestDeclaredEncoding(t *testing.T) {
	cases := []struct {
		name       string
		attributes map[string]string // .gitattributes files by directory
		info       string
		path       string
		want, attr string
	}{
		{name: "nothing", path: "a.txt"},
		{name: "working-tree-encoding", attributes: map[string]string{"": "*.txt working-tree-encoding=cp1251\n"}, path: "a.txt", want: "cp1251", attr: "working-tree-encoding"},
		{name: "encoding (git gui's)", attributes: map[string]string{"": "*.pas encoding=windows-1252\n"}, path: "u.pas", want: "windows-1252", attr: "encoding"},
		{name: "working-tree-encoding wins over encoding", attributes: map[string]string{"": "* encoding=latin1 working-tree-encoding=cp1251\n"}, path: "a.txt", want: "cp1251", attr: "working-tree-encoding"},
		{name: "a deeper file overrides", attributes: map[string]string{"": "* encoding=latin1\n", "d": "*.txt encoding=Shift_JIS\n"}, path: "d/a.txt", want: "Shift_JIS", attr: "encoding"},
		{name: "unset below", attributes: map[string]string{"": "* encoding=latin1\n", "d": "*.txt -encoding\n"}, path: "d/a.txt"},
		{name: "info/attributes wins", attributes: map[string]string{"": "* encoding=latin1\n"}, info: "*.txt encoding=KOI8-R\n", path: "a.txt", want: "KOI8-R", attr: "encoding"},
		{name: "a macro", attributes: map[string]string{"": "[attr]legacy encoding=cp866\n*.bas legacy\n"}, path: "x.bas", want: "cp866", attr: "encoding"},
		{name: "other files", attributes: map[string]string{"": "*.pas encoding=cp1252\n"}, path: "a.txt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gittest.Isolate(t)
			dir := gittest.New(t)
			for d, content := range tc.attributes {
				gittest.WriteFile(t, dir, filepath.Join(d, ".gitattributes"), content)
			}
			if tc.info != "" {
				gittest.WriteFile(t, dir, ".git/info/attributes", tc.info)
			}
			r, err := repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			c, err := r.Conversions()
			if err != nil {
				t.Fatal(err)
			}
			name, attr, err := c.DeclaredEncoding(tc.path)
			if err != nil || name != tc.want || attr != tc.attr {
				t.Fatalf("DeclaredEncoding(%s) = %q, %q, %v; want %q, %q", tc.path, name, attr, err, tc.want, tc.attr)
			}
			// git's own resolution agrees.
			git := map[string]string{}
			for _, line := range strings.Split(gittest.Git(t, dir, "check-attr", "working-tree-encoding", "encoding", "--", tc.path), "\n") {
				if f := strings.SplitN(line, ": ", 3); len(f) == 3 && f[2] != "unspecified" && f[2] != "unset" && f[2] != "set" {
					git[f[1]] = f[2]
				}
			}
			wantGit := git["working-tree-encoding"]
			if wantGit == "" {
				wantGit = git["encoding"]
			}
			if wantGit != tc.want {
				t.Fatalf("git check-attr says %v; the table says %q", git, tc.want)
			}
		})
	}
}
