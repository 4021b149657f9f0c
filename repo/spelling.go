package repo

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// gitSpelling returns rel (slash-separated, relative to the worktree top)
// as git records that path on a file system that folds case or normalises
// Unicode, following the two settings git itself writes when it creates a
// repository on one (see Checkout):
//
//   - with core.precomposeUnicode, rel in Unicode NFC: git precomposes the
//     names it reads from the disk and from its arguments, so a name typed
//     or listed in NFD (as HFS+ lists every name) is recorded once, in NFC;
//   - with core.ignoreCase, each component that exists on disk spelled as
//     its directory lists it, when the name as given is not listed: on a
//     case-folding file system `readme.md` opens `README.md`, and git, which
//     took the spelling from the disk into its index, records `README.md`;
//     recording `readme.md` would put a second path in the session's tree
//     for one file.
//
// A component that does not exist (a file about to be created) keeps the
// spelling given. Without either setting rel is returned unchanged, and
// nothing is read.
func gitSpelling(top, rel string, c Checkout) string {
	if !c.IgnoreCase && !c.PrecomposeUnicode {
		return rel
	}
	if c.PrecomposeUnicode {
		rel = norm.NFC.String(rel)
	}
	if !c.IgnoreCase {
		return rel
	}
	parts := strings.Split(rel, "/")
	dir := top
	for i, part := range parts {
		names, err := listDirNames(dir)
		if err != nil {
			break // gone or not a directory: the operation reports it
		}
		if listed := listedSpelling(names, part, c.PrecomposeUnicode); listed != "" {
			parts[i] = listed
		}
		dir = filepath.Join(dir, parts[i])
	}
	return strings.Join(parts, "/")
}

// listedSpelling returns, in the form git records (NFC when precompose
// is set), the name among names that is name itself, or else the one name
// equal to it under case folding; "" when there is none, or more than one
// (a case-sensitive directory holding both `a` and `A`: neither is chosen
// for a third spelling).
func listedSpelling(names []string, name string, precompose bool) string {
	found := ""
	for _, n := range names {
		if precompose {
			n = norm.NFC.String(n)
		}
		if n == name {
			return n
		}
		if strings.EqualFold(n, name) {
			if found != "" && found != n {
				return ""
			}
			found = n
		}
	}
	return found
}

// listDirNames lists the names in dir (one read of the directory).
func listDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
