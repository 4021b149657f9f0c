package repo

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ErrUnsupportedFormat is returned by Open for a repository whose format
// git-edit cannot write safely: a repository format version git does not
// know, or an extension that git or git-edit does not support.
var ErrUnsupportedFormat = errors.New("unsupported repository format")

// repoFormat is what a repository's config says about how to read it
// (git's struct repository_format): the format version, the extensions
// git-edit honours, and where the worktree is.
type repoFormat struct {
	version        int64 // -1 when unset
	worktreeConfig bool
	// bare and worktree are core.bare and core.worktree; bareSet is false
	// when core.bare is unset.
	bare, bareSet bool
	worktree      string
}

// extensions lists, by git's lowercase key, the extensions a version 1
// repository may carry, with what git-edit makes of each: "" supports it,
// otherwise the reason for refusing. A value that keeps the default
// (objectFormat sha1, refStorage files) is always fine. Names not listed
// are unknown to git-edit and refused, as git refuses the extensions it
// does not know.
var extensions = map[string]struct {
	name, refuse string
}{
	"noop": {"noop", ""},
	// git-edit only adds objects, never deletes or repacks them.
	"preciousobjects": {"preciousObjects", ""},
	// Objects a promisor remote still holds are missing locally; git-edit
	// never fetches, so reading one fails with an error, and what it
	// writes only adds objects and refs.
	"partialclone":   {"partialClone", ""},
	"worktreeconfig": {"worktreeConfig", ""},
	// Relative paths in .git files and commondir are followed already.
	"relativeworktrees":  {"relativeWorktrees", ""},
	"objectformat":       {"objectFormat", "git-edit hashes and writes objects with SHA-1 only, so what it wrote would not be objects of this repository"},
	"compatobjectformat": {"compatObjectFormat", "git-edit does not keep the second object-name map this extension asks git to maintain"},
	"refstorage":         {"refStorage", "git-edit reads and writes refs as loose files (the \"files\" backend) only"},
}

// v1OnlyExtensions are the extensions git refuses in a version 0
// repository ("repo version is 0, but v1-only extension found").
var v1OnlyExtensions = map[string]bool{
	"noop-v1": true, "objectformat": true, "compatobjectformat": true, "refstorage": true, "relativeworktrees": true,
}

// defaultExtensionValue is the value of an extension that means git's
// default, so git-edit can work with it.
var defaultExtensionValue = map[string]string{"objectformat": "sha1", "refstorage": "files"}

// readFormat reads the repository format from the common dir's config, as
// git's check_repository_format_gently does, and refuses, wrapping
// ErrUnsupportedFormat with git's reason, what git refuses or git-edit
// cannot write: a version above 1, an unknown extension in version 1, a
// version-1-only extension in version 0, and the SHA-256 object format and
// the reftable ref storage. With extensions.worktreeConfig, gitDir's
// config.worktree may set core.bare and core.worktree too. In a linked
// worktree (linked is true) the common config's core.bare and core.worktree
// belong to the main worktree and are ignored, as git ignores them.
func readFormat(commonDir, gitDir string, linked bool) (repoFormat, error) {
	f := repoFormat{version: -1}
	path := filepath.Join(commonDir, "config")
	entries, err := readConfigFile(path)
	if err != nil {
		return f, err
	}
	exts := map[string]string{}
	var order []string
	for _, e := range entries {
		switch section, key := strings.ToLower(e.section), strings.ToLower(e.key); {
		case section == "core" && key == "repositoryformatversion":
			n, err := strconv.ParseInt(strings.TrimSpace(e.value), 10, 64)
			if err != nil {
				return f, fmt.Errorf("%w: bad numeric config value %q for 'core.repositoryformatversion' in %s; git refuses it too (it should be 0 or 1)", ErrBadConfig, e.value, path)
			}
			f.version = n
		case section == "extensions":
			if _, seen := exts[key]; !seen {
				order = append(order, key)
			}
			exts[key] = e.value
		}
	}
	if f.version > 1 {
		return f, fmt.Errorf("%w: Expected git repo version <= 1, found %d (core.repositoryformatversion in %s); git refuses this repository too, and git-edit cannot know how to write it", ErrUnsupportedFormat, f.version, path)
	}
	if f.version < 0 { // no config, or no version in it: git reads such a repository without checks
		f.version = 0
	}
	sort.Strings(order)
	for _, key := range order {
		value := exts[key]
		ext, known := extensions[key]
		name := "extensions." + key
		if known {
			name = "extensions." + ext.name
		}
		if f.version == 0 {
			if v1OnlyExtensions[key] {
				return f, fmt.Errorf("%w: repo version is 0, but v1-only extension found: %s (in %s); git refuses this repository too; remove the setting or set core.repositoryformatversion to 1", ErrUnsupportedFormat, name, path)
			}
			if !known { // git ignores extensions it does not know in version 0
				continue
			}
		}
		switch {
		case !known:
			return f, fmt.Errorf("%w: unknown repository extension found: %s (in %s); git-edit does not know what it asks of a writer, so it leaves the repository alone (git refuses extensions it does not know in the same way)", ErrUnsupportedFormat, name, path)
		case ext.refuse != "" && !strings.EqualFold(strings.TrimSpace(value), defaultExtensionValue[key]):
			return f, fmt.Errorf("%w: %s = %s (in %s): %s; edit this repository with git itself", ErrUnsupportedFormat, name, value, path, ext.refuse)
		case key == "worktreeconfig":
			b, err := parseBool(value)
			if err != nil {
				return f, fmt.Errorf("%w: %s = %q in %s; set true or false", ErrBadConfig, name, value, path)
			}
			f.worktreeConfig = b
		}
	}
	if !linked {
		if err := f.worktreeSettings(entries, path); err != nil {
			return f, err
		}
	}
	if f.worktreeConfig {
		wtPath := filepath.Join(gitDir, "config.worktree")
		wtEntries, err := readConfigFile(wtPath)
		if err != nil {
			return f, err
		}
		if err := f.worktreeSettings(wtEntries, wtPath); err != nil {
			return f, err
		}
	}
	return f, nil
}

// worktreeSettings takes core.bare and core.worktree from entries, read
// from path.
func (f *repoFormat) worktreeSettings(entries []configEntry, path string) error {
	for _, e := range entries {
		if !strings.EqualFold(e.section, "core") {
			continue
		}
		switch strings.ToLower(e.key) {
		case "bare":
			b, err := parseBool(e.value)
			if err != nil {
				return fmt.Errorf("%w: core.bare = %q in %s; set true or false", ErrBadConfig, e.value, path)
			}
			f.bare, f.bareSet = b, true
		case "worktree":
			f.worktree = e.value
		}
	}
	return nil
}

// parseBool reads a boolean as git spells them. An empty value is false
// (go-git's parser cannot tell it from a key without "=", which git reads
// as true).
func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return true, nil
	case "false", "no", "off", "0", "":
		return false, nil
	}
	return false, fmt.Errorf("not a boolean: %q", v)
}
