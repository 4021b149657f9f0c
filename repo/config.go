package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/config"
)

// ErrBadConfig is returned for a git config value git-edit cannot use.
var ErrBadConfig = errors.New("invalid git config value")

// configFiles lists the config files git reads, lowest precedence first:
// system (unless GIT_CONFIG_NOSYSTEM), global (GIT_CONFIG_GLOBAL, or the XDG
// file then ~/.gitconfig), the repository's, and the worktree's.
func (r *Repo) configFiles() []string {
	var files []string
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		files = append(files, "/etc/gitconfig")
	}
	if g, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		files = append(files, g)
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
	files = append(files, filepath.Join(r.CommonDir, "config"))
	if r.GitDir != r.CommonDir {
		files = append(files, filepath.Join(r.GitDir, "config.worktree"))
	}
	return files
}

// ConfigValue returns the value git would give `git config section.key`
// (the last definition wins; include directives are not followed). ok is
// false when the key is not set anywhere.
func (r *Repo) ConfigValue(section, key string) (value string, ok bool, err error) {
	for _, path := range r.configFiles() {
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
			continue
		}
		if err != nil {
			return "", false, fmt.Errorf("read %s: %w", path, err)
		}
		cfg := config.New()
		err = config.NewDecoder(f).Decode(cfg)
		f.Close()
		if err != nil {
			return "", false, fmt.Errorf("%w: cannot parse %s: %v", ErrBadConfig, path, err)
		}
		if !cfg.HasSection(section) {
			continue
		}
		if opts := cfg.Section(section).Options; opts.Has(key) {
			value, ok = opts.Get(key), true
		}
	}
	return value, ok, nil
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
