package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// TestResolveSpellsPathsAsGitRecordsThem: with core.ignoreCase (git's
// setting for a case-folding file system) a path argument is spelled as
// the disk lists it, and with core.precomposeUnicode it is in NFC, so
// that an edit of `readme.md` on macOS records `README.md`, the path git
// has, not a second path for the same file. Without the settings the
// argument is kept as given (Linux: another file).
func TestResolveSpellsPathsAsGitRecordsThem(t *testing.T) {
	const nfd, nfc = "cafe\u0301.txt", "caf\u00e9.txt"
	dir := gittest.NewWithCommit(t, map[string]string{"README.md": "r\n", "Dir/Sub/a.txt": "a\n", "both/x": "1\n", "both/X": "2\n"})
	if err := os.WriteFile(filepath.Join(dir, nfd), []byte("c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ignoreCase, precompose string // "" leaves the setting unset
		arg, want              string
		goos                   string // the system whose rules apply; "" for this one
	}{
		{"", "", "readme.md", "readme.md", ""},
		{"false", "", "readme.md", "readme.md", ""},
		{"true", "", "readme.md", "README.md", ""},
		{"true", "", "README.md", "README.md", ""},
		{"true", "", "dir/sub/A.TXT", "Dir/Sub/a.txt", ""},
		{"true", "", "DIR/new.txt", "Dir/new.txt", ""},                       // a new file keeps its own name, in the listed directory
		{"true", "", "both/x", "both/x", ""},                                 // the exact name wins
		{"true", "", "BOTH/x", "both/x", ""},                                 //
		{"true", "", "both/y", "both/y", ""},                                 // nothing to match
		{"", "true", nfd, nfc, "darwin"},                                     // precomposed
		{"", "true", nfd, nfd, "linux"},                                      // git precomposes only on macOS
		{"", "", nfd, nfd, ""},                                               // not without the setting
		{"true", "true", "CAFE\u0301.TXT", nfc, "darwin"},                    // NFD argument, folded: the listed name, in NFC
		{"true", "false", "CAFE\u0301.TXT", nfd, ""},                         // no precomposition: the listed NFD name
		{"true", "true", "new/\u0041\u030a.txt", "new/\u00c5.txt", "darwin"}, // a directory that does not exist: NFC only
	} {
		for key, v := range map[string]string{"core.ignoreCase": tc.ignoreCase, "core.precomposeUnicode": tc.precompose} {
			gittest.GitErr(dir, "config", "--unset-all", key) // exit 5 when it is unset: fine
			if v != "" {
				gittest.Git(t, dir, "config", key, v)
			}
		}
		r, err := repo.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		restoreOS := func() {}
		if tc.goos != "" {
			restoreOS = repo.SetPathRulesOS(tc.goos)
		}
		p, err := r.Resolve(dir, tc.arg)
		restoreOS()
		if err != nil {
			t.Fatalf("ignoreCase=%q precompose=%q: Resolve(%q): %v", tc.ignoreCase, tc.precompose, tc.arg, err)
		}
		if p.Rel != tc.want || p.Abs != filepath.Join(dir, filepath.FromSlash(tc.want)) {
			t.Errorf("ignoreCase=%q precompose=%q: Resolve(%+q) = %+q (%+q), want %+q", tc.ignoreCase, tc.precompose, tc.arg, p.Rel, p.Abs, tc.want)
		}
		r.Close()
	}
}

// TestAttackSpelledPathIsCheckedAsSpelled: the checks of a path (nested
// repositories, .git) apply to the path as git-edit will act on it, after
// spelling: with core.ignoreCase, `sub/x.txt` where the directory is
// `SUB`, a nested repository, is refused as `SUB/x.txt` is (the review
// found it accepted, an edit inside another repository's tree).
func TestAttackSpelledPathIsCheckedAsSpelled(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	gittest.Git(t, dir, "init", "-q", filepath.Join(dir, "SUB"))
	gittest.Git(t, dir, "config", "core.ignoreCase", "true")
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, arg := range []string{"SUB/x.txt", "sub/x.txt", "Sub/x.txt"} {
		var nested *repo.NestedRepoError
		if _, err := r.Resolve(dir, arg); !errors.As(err, &nested) {
			t.Errorf("Resolve(%q) = %v, want the nested repository refused", arg, err)
		}
	}
}
