package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/config"
)

// ErrBadConfig is returned for a git config value git-edit cannot use.
var ErrBadConfig = errors.New("invalid git config value")

// configFiles lists the config files git reads for a repository, lowest
// precedence first: the protected files (system and global, see
// protectedConfigFiles), the repository's, and, when the repository sets
// extensions.worktreeConfig, this worktree's config.worktree. git reads
// config.worktree from the worktree's own git dir, so in the main worktree
// that is .git/config.worktree, and it reads none without the extension,
// linked worktree or not.
func (r *Repo) configFiles() []string {
	files := append(protectedConfigFiles(), filepath.Join(r.CommonDir, "config"))
	if r.worktreeConfig {
		files = append(files, filepath.Join(r.GitDir, "config.worktree"))
	}
	return files
}

// protectedConfigFiles lists the config files that are the user's and the
// machine's rather than a repository's, lowest precedence first: system
// (GIT_CONFIG_SYSTEM, default /etc/gitconfig, none with
// GIT_CONFIG_NOSYSTEM), then global (GIT_CONFIG_GLOBAL, or the XDG file
// then ~/.gitconfig). git trusts only these (and the command line) for
// safe.directory: a repository cannot vouch for itself.
func protectedConfigFiles() []string {
	var files []string
	if !envBool("GIT_CONFIG_NOSYSTEM") {
		if s, ok := os.LookupEnv("GIT_CONFIG_SYSTEM"); ok {
			if s != "" {
				files = append(files, s)
			}
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	if g, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		if g != "" {
			files = append(files, g)
		}
	} else {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		home, _ := os.UserHomeDir()
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	return files
}

// envBool reads an environment variable as git's git_env_bool does for
// switches like GIT_CONFIG_NOSYSTEM: unset or false-like is false, anything
// else true.
func envBool(name string) bool {
	v, ok := os.LookupEnv(name)
	if !ok {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "false", "no", "off", "0":
		return false
	}
	return true
}

// configEntry is one "section.key = value" definition, as read from a file
// or the command line. Section and key compare case-insensitively.
type configEntry struct {
	section, key, value string
}

// readConfigFile returns the top-level (no subsection) entries of the config
// file at path in file order, or none when it does not exist or cannot be
// read for permission (git skips those too). include directives are not
// followed.
//
// A process (a warm MCP server) parses each file once: the entries are
// kept with the file's stat and reused while a stat of the path says the
// same file, unchanged (git's racy rule, as for worktree files: see
// blobcache.go), so a person's `git config` between two calls is seen by
// the next one. The caller must not change the entries returned.
func readConfigFile(path string) ([]configEntry, error) {
	since := clockNow()
	if fi, err := statPath(path); err == nil {
		if entries, ok := configRecords.get(path, fi); ok {
			return entries, nil
		}
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	entries, err := parseConfig(f, path)
	if err != nil {
		return nil, err
	}
	// Kept unless the file changed in since's tick: a change later in
	// that tick could keep its stat.
	if fi, err := fstat(f); err == nil && olderThan(fi.mtime, since) && olderThan(fi.ctime, since) {
		configRecords.put(path, fi, entries)
	}
	return entries, nil
}

// configRecords keeps parsed config files by path (see readConfigFile).
var configRecords = &parsedFiles{}

type parsedFiles struct {
	mu    sync.Mutex
	files map[string]parsedFile
}

type parsedFile struct {
	stamp   stamp
	entries []configEntry
}

func (p *parsedFiles) get(path string, fi fileInfo) ([]configEntry, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f, ok := p.files[path]
	return f.entries, ok && f.stamp == stampOf(fi)
}

// put keeps entries, parsed from the file open at path whose stat is fi;
// the caller checked that fi's times are older than the tick it started
// reading in (git's racy rule).
func (p *parsedFiles) put(path string, fi fileInfo, entries []configEntry) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.files == nil || len(p.files) >= 64 {
		p.files = map[string]parsedFile{}
	}
	p.files[path] = parsedFile{stampOf(fi), entries}
}

func parseConfig(f *os.File, path string) ([]configEntry, error) {
	cfg := config.New()
	if err := config.NewDecoder(f).Decode(cfg); err != nil {
		return nil, fmt.Errorf("%w: cannot parse %s: %v; fix the file (git config --file %s --list shows what git makes of it)", ErrBadConfig, path, err, path)
	}
	var entries []configEntry
	for _, s := range cfg.Sections {
		for _, o := range s.Options {
			entries = append(entries, configEntry{s.Name, o.Key, o.Value})
		}
	}
	return entries, nil
}

// commandLineConfig returns the settings given with `git -c` or the
// GIT_CONFIG_COUNT/GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n> variables, which
// git passes on to the programs it runs through the environment; they
// override every file. Keys with a subsection are left out (git-edit reads
// none).
func commandLineConfig() ([]configEntry, error) {
	var entries []configEntry
	add := func(key, value string) {
		section, rest, ok := strings.Cut(key, ".")
		if ok && !strings.Contains(rest, ".") {
			entries = append(entries, configEntry{section, rest, value})
		}
	}
	if c, ok := os.LookupEnv("GIT_CONFIG_COUNT"); ok && c != "" {
		n, err := strconv.Atoi(c)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%w: GIT_CONFIG_COUNT = %q is not a count; unset it or set a whole number", ErrBadConfig, c)
		}
		for i := range n {
			k, okK := os.LookupEnv(fmt.Sprintf("GIT_CONFIG_KEY_%d", i))
			v, okV := os.LookupEnv(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i))
			if !okK || k == "" || !okV {
				return nil, fmt.Errorf("%w: GIT_CONFIG_COUNT is %d but GIT_CONFIG_KEY_%d or GIT_CONFIG_VALUE_%d is missing; set both or lower the count", ErrBadConfig, n, i, i)
			}
			add(k, v)
		}
	}
	if p := os.Getenv("GIT_CONFIG_PARAMETERS"); p != "" {
		params, err := parseConfigParameters(p)
		if err != nil {
			return nil, err
		}
		for _, kv := range params {
			add(kv[0], kv[1])
		}
	}
	return entries, nil
}

// parseConfigParameters splits GIT_CONFIG_PARAMETERS as git writes it:
// space-separated shell single-quoted words, each either 'key=value' (older
// gits) or 'key'='value'. A word with no "=" is a key without a value.
func parseConfigParameters(s string) ([][2]string, error) {
	bad := func() error {
		return fmt.Errorf("%w: GIT_CONFIG_PARAMETERS = %q is not in git's quoted form; unset it", ErrBadConfig, s)
	}
	var out [][2]string
	i := 0
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i == len(s) {
			return out, nil
		}
		var parts []string // the word, split at unquoted "="
		var cur strings.Builder
		for i < len(s) && s[i] != ' ' {
			switch s[i] {
			case '\'':
				end := strings.IndexByte(s[i+1:], '\'')
				if end < 0 {
					return nil, bad()
				}
				cur.WriteString(s[i+1 : i+1+end])
				i += end + 2
			case '\\':
				if i+1 == len(s) {
					return nil, bad()
				}
				cur.WriteByte(s[i+1])
				i += 2
			case '=':
				parts = append(parts, cur.String())
				cur.Reset()
				i++
			default:
				return nil, bad()
			}
		}
		parts = append(parts, cur.String())
		switch len(parts) {
		case 1: // 'key=value' or a bare 'key'
			k, v, _ := strings.Cut(parts[0], "=")
			out = append(out, [2]string{k, v})
		case 2:
			out = append(out, [2]string{parts[0], parts[1]})
		default:
			return nil, bad()
		}
	}
}

// configValues returns every value of section.key in files, then on the
// command line, in the order git sees them.
func configValues(files []string, section, key string) ([]string, error) {
	var values []string
	collect := func(entries []configEntry) {
		for _, e := range entries {
			if strings.EqualFold(e.section, section) && strings.EqualFold(e.key, key) {
				values = append(values, e.value)
			}
		}
	}
	for _, path := range files {
		entries, err := readConfigFile(path)
		if err != nil {
			return nil, err
		}
		collect(entries)
	}
	cmdline, err := commandLineConfig()
	if err != nil {
		return nil, err
	}
	collect(cmdline)
	return values, nil
}

// ConfigValue returns the value git would give `git config section.key`:
// the last definition wins, the command line (git -c, GIT_CONFIG_COUNT)
// over every file; include directives are not followed. ok is false when
// the key is not set anywhere.
func (r *Repo) ConfigValue(section, key string) (value string, ok bool, err error) {
	values, err := configValues(r.configFiles(), section, key)
	if err != nil || len(values) == 0 {
		return "", false, err
	}
	return values[len(values)-1], true, nil
}

// ConfigInt reads an integer setting with git's k/m/g suffixes, or def when
// the key is unset.
func (r *Repo) ConfigInt(section, key string, def int64) (int64, error) {
	v, ok, err := r.ConfigValue(section, key)
	if err != nil || !ok {
		return def, err
	}
	s := strings.ToLower(strings.TrimSpace(v))
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "m"):
		mult, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "g"):
		mult, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return def, fmt.Errorf("%w: %s.%s = %q; set a whole number ≥ 0 (suffixes k, m, g allowed) with `git config %s.%s N`", ErrBadConfig, section, key, v, section, key)
	}
	return n * mult, nil
}

// ConfigBool reads a boolean setting as git spells them (true/yes/on/1,
// false/no/off/0), or def when the key is unset. go-git's parser cannot
// tell a key written without a value from an empty one; both read false.
func (r *Repo) ConfigBool(section, key string, def bool) (bool, error) {
	v, ok, err := r.ConfigValue(section, key)
	if err != nil || !ok {
		return def, err
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return true, nil
	case "false", "no", "off", "0", "":
		return false, nil
	}
	return def, fmt.Errorf("%w: %s.%s = %q; set true or false with `git config %s.%s true`", ErrBadConfig, section, key, v, section, key)
}
