package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// pathOSOverride, when set, is the OS whose file-name rules Resolve
// applies instead of runtime.GOOS (see SetPathRulesOS).
var pathOSOverride atomic.Pointer[string]

// SetPathRulesOS makes Resolve apply the file-name rules of goos (as
// runtime.GOOS spells it) instead of this system's, so that tests on Linux
// run Windows' rules through a whole operation. Only the name rules change;
// paths are still taken apart the way this system does. It returns a
// function that restores this system's rules. Never set outside tests.
func SetPathRulesOS(goos string) (restore func()) {
	pathOSOverride.Store(&goos)
	return func() { pathOSOverride.Store(nil) }
}

// pathOS is the OS whose file-name rules apply.
func pathOS() string {
	if p := pathOSOverride.Load(); p != nil {
		return *p
	}
	return runtime.GOOS
}

// nameRules reads which of git's name protections apply in r on goos:
// the Windows rules of git for Windows' is_valid_win32_path apply on
// Windows unless core.protectNTFS is false, as there. The other spellings
// of .git are refused everywhere whatever the config says (see
// checkPathNames).
func (r *Repo) nameRules(goos string) (windows bool, err error) {
	if goos != "windows" {
		return false, nil
	}
	return r.ConfigBool("core", "protectNTFS", true)
}

// checkArgForm refuses, on Windows (goos), the two forms of path whose
// meaning depends on per-process state Resolve does not follow: a path
// relative to another drive's current directory ("C:file") and one rooted
// at the current drive without naming it ("\dir\file"). arg is the path
// as given. Elsewhere both are ordinary relative names.
func checkArgForm(arg, goos string) error {
	if goos != "windows" {
		return nil
	}
	isSep := func(c byte) bool { return c == '/' || c == '\\' }
	switch {
	case len(arg) >= 2 && isASCIILetter(arg[0]) && arg[1] == ':' && (len(arg) == 2 || !isSep(arg[2])):
		return fmt.Errorf("%w: %q is relative to the current directory of drive %s, which git-edit does not follow; give the full path (%s\\...) or a path relative to the root", ErrPathRefused, arg, arg[:2], arg[:2])
	case len(arg) >= 1 && isSep(arg[0]) && (len(arg) == 1 || !isSep(arg[1])):
		return fmt.Errorf("%w: %q starts at the root of the current drive without naming the drive; give the drive (C:%s) or a path relative to the root", ErrPathRefused, arg, arg)
	}
	return nil
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// checkPathNames refuses a worktree-relative path (rel, slash-separated)
// that git refuses as a path name (git's verify_path). arg is the path as
// given, for messages.
//
// On every OS, whatever core.protectNTFS and core.protectHFS say: the other
// names of ".git" on NTFS (trailing dots and spaces, a ":stream", the short
// name GIT~1; is_ntfs_dotgit, with "\" read as a separator as git reads it
// on every OS) and on HFS+ (invisible code points; is_hfs_dotgit). git
// fsck flags a tree holding them (hasDotgit) on every OS, and pushes to
// servers that check objects are refused, so a session commit must never
// hold one; and on Windows and macOS they are the git directory.
//
// With windows (is_valid_win32_path, on Windows unless core.protectNTFS is
// false): a reserved device name (CON, PRN, AUX, NUL, COM1-COM9, LPT0-LPT9,
// CONIN$, CONOUT$, also with an extension, trailing spaces or a :stream),
// a component ending in a dot or a space (Windows drops them, so the file
// written would be another), and the characters Windows forbids in names
// (: < > " | ? * and control characters; ":" names an alternate data
// stream).
func checkPathNames(arg, rel string, windows bool) error {
	for _, comp := range strings.Split(rel, "/") {
		for _, piece := range strings.Split(comp, `\`) {
			if isNTFSDotGit(piece) {
				var whys []string
				switch {
				case piece[0] != '.':
					whys = append(whys, "GIT~1 is the short (8.3) name NTFS gives .git")
				case strings.IndexByte(piece, ':') >= 0:
					whys = append(whys, "NTFS reads \"name:stream\" as a data stream of name")
				case len(piece) > 4:
					whys = append(whys, "NTFS drops trailing dots and spaces from names")
				}
				if strings.IndexByte(comp, '\\') >= 0 {
					whys = append(whys, `Windows reads "\" as "/"`)
				}
				why := strings.Join(whys, ", and ")
				return fmt.Errorf("%w: %q: %q is .git on Windows (%s), so git refuses it in every repository (git fsck: hasDotgit) and git-edit never writes there; choose another name", ErrPathRefused, arg, piece, why)
			}
		}
		if isHFSDotGit(comp) {
			return fmt.Errorf("%w: %q: %q is .git on macOS (HFS+ ignores the invisible code points U+200C-U+200F, U+202A-U+202E, U+206A-U+206F and U+FEFF in names), so git refuses it in every repository (git fsck: hasDotgit) and git-edit never writes there; choose another name, without them", ErrPathRefused, arg, comp)
		}
		if windows {
			if err := checkWindowsName(arg, comp); err != nil {
				return err
			}
		}
	}
	return nil
}

// isNTFSDotGit is git's is_ntfs_dotgit for one component: ".git" or
// "git~1" (any case), followed by nothing but dots and spaces, up to the
// end or a ":" (an alternate data stream of it).
func isNTFSDotGit(name string) bool {
	var rest string
	switch {
	case len(name) >= 4 && name[0] == '.' && asciiUpper(name[1:4]) == "GIT":
		rest = name[4:]
	case len(name) >= 5 && asciiUpper(name[:3]) == "GIT" && name[3:5] == "~1":
		rest = name[5:]
	default:
		return false
	}
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case ':':
			return true
		case '.', ' ':
		default:
			return false
		}
	}
	return true
}

// isHFSDotGit is git's is_hfs_dotgit for one component: ".git" in any
// ASCII case once the code points HFS+ ignores are skipped. Malformed
// UTF-8 cannot be ".git".
func isHFSDotGit(name string) bool {
	var got []rune
	for _, c := range name {
		if c == utf8.RuneError {
			return false
		}
		if hfsIgnored(c) {
			continue
		}
		if c > 127 || len(got) == 4 {
			return false
		}
		got = append(got, c)
	}
	return asciiUpper(string(got)) == ".GIT"
}

// asciiUpper upper-cases ASCII letters only, byte for byte, as git's
// checks fold case: a non-ASCII letter is never one of the names sought.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 0x20
		}
	}
	return string(b)
}

// hfsIgnored lists the code points HFS+ leaves out of a name when it
// compares names (git's next_hfs_char).
func hfsIgnored(c rune) bool {
	return c >= 0x200c && c <= 0x200f || c >= 0x202a && c <= 0x202e || c >= 0x206a && c <= 0x206f || c == 0xfeff
}

// checkWindowsName applies is_valid_win32_path to one component.
func checkWindowsName(arg, comp string) error {
	if dev, ok := reservedDevice(comp); ok {
		return fmt.Errorf("%w: %q: %q is the Windows device name %s (reserved in every directory, with any extension, trailing spaces or :stream), so no file of that name can exist on Windows and writing it would reach the device; choose another name (git for Windows refuses it too; core.protectNTFS=false turns this check off)", ErrPathRefused, arg, comp, dev)
	}
	for i := 0; i < len(comp); i++ {
		c := comp[i]
		if c < 0x20 || strings.IndexByte(`:<>"|?*`, c) >= 0 {
			hint := ""
			if c == ':' {
				hint = fmt.Sprintf(" (%q would name the alternate data stream %q of %q)", comp, comp[i+1:], comp[:i])
			}
			return fmt.Errorf("%w: %q: %q contains %q, which Windows does not allow in a file name%s; choose another name (git for Windows refuses it too; core.protectNTFS=false turns this check off)", ErrPathRefused, arg, comp, string(c), hint)
		}
	}
	if comp != "." && comp != ".." {
		if trimmed := strings.TrimRight(comp, ". "); trimmed != comp {
			what := "a dot"
			if comp[len(comp)-1] == ' ' {
				what = "a space"
			}
			return fmt.Errorf("%w: %q: %q ends in %s, which Windows drops from names (the file would be %q); give the name without it (git for Windows refuses it too; core.protectNTFS=false turns this check off)", ErrPathRefused, arg, comp, what, trimmed)
		}
	}
	return nil
}

// reservedDevice reports whether comp names a Windows device the way
// is_valid_win32_path reads it: the device name in any case, then spaces,
// then the end, a "." (an extension) or a ":" (a stream). It returns the
// device's name.
func reservedDevice(comp string) (string, bool) {
	upper := asciiUpper(comp)
	var dev string
	for _, d := range []string{"CONIN$", "CONOUT$", "CON", "PRN", "AUX", "NUL"} {
		if strings.HasPrefix(upper, d) {
			dev = d
			break
		}
	}
	if dev == "" && len(upper) >= 4 {
		switch {
		case strings.HasPrefix(upper, "COM") && upper[3] >= '1' && upper[3] <= '9':
			dev = upper[:4]
		case strings.HasPrefix(upper, "LPT") && upper[3] >= '0' && upper[3] <= '9':
			dev = upper[:4]
		}
	}
	if dev == "" {
		return "", false
	}
	rest := strings.TrimLeft(comp[len(dev):], " ")
	if rest == "" || rest[0] == '.' || rest[0] == ':' {
		return dev, true
	}
	return "", false
}

// gitDirOnPath finds the first directory of rel (slash-separated, below
// r.Top, the last component included) that is r.GitDir or r.CommonDir by
// identity (device and inode), not by name: on a case-insensitive file
// system (APFS and HFS+ by default, NTFS) a git directory inside the
// worktree under a name other than .git is also reached by other
// spellings of that name, and a git directory named through a symlink
// above the worktree has a name that does not start with the worktree's.
// Directories that do not exist end the walk. It returns the directory as
// reached and the git directory it is, or "", "".
func (r *Repo) gitDirOnPath(rel string) (reached, gitDir string) {
	type known struct {
		path string
		fi   os.FileInfo
	}
	var dirs []known
	for _, d := range []string{r.GitDir, r.CommonDir} {
		if fi, err := os.Stat(d); err == nil {
			dirs = append(dirs, known{d, fi})
		}
	}
	p := r.Top
	for _, comp := range strings.Split(rel, "/") {
		p = filepath.Join(p, comp)
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() {
			return "", ""
		}
		for _, d := range dirs {
			if os.SameFile(fi, d.fi) {
				return p, d.path
			}
		}
	}
	return "", ""
}
