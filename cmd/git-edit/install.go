package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	toml "github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
	"github.com/urfave/cli/v2"
)

// installOptions is what `git edit install` or `uninstall` was asked to do.
type installOptions struct {
	Host      string
	Uninstall bool
	User      bool
	DryRun    bool
	Root      string
	Session   string
	// Home, Config and Codex are the user's directories (see hostContext);
	// the command fills them from the environment.
	Home, Config, Codex string
	Stdout              io.Writer
}

// installCommand registers `install` (uninstall false) or `uninstall`.
func installCommand(uninstall bool) *cli.Command {
	name, usage := "install", "write git-edit's MCP server entry and the hooks that record the host's shell commands into the files an agent host reads (HOST: "+hostNames()+"); merged into what is there, every other byte kept"
	if uninstall {
		name, usage = "uninstall", "remove exactly what install wrote for HOST ("+hostNames()+"): the files install created, the entries it added to others"
	}
	return &cli.Command{
		Name:      name,
		Usage:     usage,
		ArgsUsage: "HOST",
		Flags: []cli.Flag{clikit.RootFlag(),
			&cli.BoolFlag{Name: "user", Usage: "the user's files (under the home directory), not the project's"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the diff of each file, and write nothing"},
			// Not sessionFlag: the default is the host's name, never
			// GIT_EDIT_SESSION of the shell install runs in.
			&cli.StringFlag{Name: "session", Usage: "`NAME` of the session the MCP server and the hooks share (default: the host's name)"},
		},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("%s takes one HOST: %s", name, hostNames())
			}
			o := installOptions{Host: c.Args().First(), Uninstall: uninstall, User: c.Bool("user"), DryRun: c.Bool("dry-run"),
				Root: c.String("root"), Session: c.String("session"), Stdout: c.App.Writer}
			var err error
			if o.Home, err = os.UserHomeDir(); err != nil {
				return clikit.Refused(fmt.Errorf("%s: %w", name, err))
			}
			if o.Config, err = os.UserConfigDir(); err != nil {
				return clikit.Refused(fmt.Errorf("%s: %w", name, err))
			}
			o.Codex = os.Getenv("CODEX_HOME")
			return runInstall(o)
		},
	}
}

// runInstall installs (or uninstalls) git-edit for o.Host: for each file
// of the host, it computes the new bytes, checks them, and then writes
// every file that changes (or, with DryRun, prints the diffs). A file that
// does not parse, or holds a git-edit entry install did not write, is
// refused before anything is written, naming the file.
func runInstall(o installOptions) error {
	h := findHost(o.Host)
	if h == nil {
		return fmt.Errorf("no host %q; the hosts are %s", o.Host, hostNames())
	}
	if o.Session == "" {
		o.Session = h.Name
	}
	if err := session.ValidateName(o.Session); err != nil {
		return err
	}
	if o.Codex == "" {
		o.Codex = filepath.Join(o.Home, ".codex")
	}
	hc := hostContext{User: o.User || h.UserOnly, Home: o.Home, Config: o.Config, Codex: o.Codex, Session: o.Session}
	if !hc.User || h.UserOnly {
		r, err := session.OpenRepository(o.Root)
		if err != nil {
			return clikit.Refused(err)
		}
		if r.Top == "" {
			return clikit.Refused(errors.New("a bare repository has no worktree to install into; run install in a worktree, or give --user"))
		}
		hc.Top = r.Top
	}
	var changes []configChange
	for _, f := range h.Files(hc) {
		if !hc.User {
			if err := insideTop(hc.Top, f.Path); err != nil {
				return clikit.Refused(fmt.Errorf("%s: %w; nothing was written", showPath(hc, f.Path), err))
			}
		}
		c, same, err := planConfig(hc, f, o.Uninstall)
		if err != nil {
			return clikit.Refused(fmt.Errorf("%s; nothing was written", err))
		}
		if same != "" {
			fmt.Fprintln(o.Stdout, same)
			continue
		}
		changes = append(changes, c)
	}
	for _, c := range changes {
		shown := showPath(hc, c.file.Path)
		if o.DryRun {
			fmt.Fprint(o.Stdout, ops.ConfigDiff(shown, c.old, c.existed, c.new, !c.remove))
			continue
		}
		err := applyConfig(hc, c)
		if errors.Is(err, errConfigChanged) {
			// The host wrote the file after install read it: the change
			// is computed again from what the host wrote, once.
			var same string
			c, same, err = planConfig(hc, c.file, o.Uninstall)
			if err == nil && same != "" {
				fmt.Fprintln(o.Stdout, same)
				continue
			}
			if err == nil {
				err = applyConfig(hc, c)
			}
			if errors.Is(err, errConfigChanged) {
				err = fmt.Errorf("%s: %w, twice (the host may be running and keep writing it); the file holds what that program wrote, without git-edit's change: run %s again when it is done", shown, errConfigChanged, map[bool]string{false: "install", true: "uninstall"}[o.Uninstall])
			}
		}
		if err != nil {
			return clikit.Refused(err)
		}
		switch {
		case c.remove:
			fmt.Fprintf(o.Stdout, "removed %s\n", shown)
		case c.existed:
			fmt.Fprintf(o.Stdout, "updated %s\n", shown)
		default:
			fmt.Fprintf(o.Stdout, "created %s\n", shown)
		}
	}
	if o.DryRun {
		fmt.Fprintln(o.Stdout, "(dry run: nothing was written)")
	}
	return nil
}

// configChange is what install or uninstall does to one host file.
type configChange struct {
	file     hostFile
	old, new []byte
	existed  bool
	remove   bool // uninstall leaves the file as install created it
}

// planConfig reads f and computes its change; same is the line to print
// instead when the file is already as wanted. An error names the file.
func planConfig(hc hostContext, f hostFile, uninstall bool) (c configChange, same string, err error) {
	old, err := readConfig(f.Path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return c, "", err
	}
	var new []byte
	if uninstall {
		if !existed {
			return c, fmt.Sprintf("not installed in %s (no such file)", showPath(hc, f.Path)), nil
		}
		new, err = uninstallFile(f, old)
	} else {
		start := old
		if !existed {
			start = []byte(cmpOr(f.Skeleton, "{}\n"))
			if f.TOML {
				start = nil
			}
		}
		new, err = installFile(f, start)
	}
	if err != nil {
		return c, "", fmt.Errorf("%s: %w", showPath(hc, f.Path), err)
	}
	// A file left as install creates it empty is removed, but never a
	// symbolic link (a dotfiles link): its target keeps the person's file,
	// written through the link without git-edit's entries.
	remove := uninstall && (len(bytes.TrimSpace(new)) == 0 || string(new) == cmpOr(f.Skeleton, "{}\n")) && !isSymlink(f.Path)
	if existed && bytes.Equal(old, new) {
		what := "already installed in"
		if uninstall {
			what = "not installed in"
		}
		return c, what + " " + showPath(hc, f.Path), nil
	}
	return configChange{f, old, new, existed, remove}, "", nil
}

// applyConfig writes (or removes) the file of c, unless it no longer holds
// what c was computed from: then errConfigChanged, and it is left as is.
func applyConfig(hc hostContext, c configChange) error {
	if c.remove {
		return removeConfig(hc, c.file, c.old)
	}
	return writeConfig(c.file.Path, c.new, c.old, c.existed)
}

// errConfigChanged: a host file is no longer what install read and
// computed its change from (the host wrote it meanwhile).
var errConfigChanged = errors.New("another program wrote the file while git-edit was changing it")

// installPause, when set (by tests only), is called at install's pause
// point "before-rename" (path: the file; its new bytes are in a temporary
// file, or it is to be removed; the check that it still holds what
// install read comes next), so that a test can write the file there.
var installPause atomic.Pointer[func(point, path string)]

// checkUnchanged returns errConfigChanged unless the file at path holds
// old (existed) or is missing (!existed).
func checkUnchanged(path string, old []byte, existed bool) error {
	if h := installPause.Load(); h != nil {
		(*h)("before-rename", path)
	}
	now, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if existed {
			return errConfigChanged
		}
		return nil
	case err != nil:
		return fmt.Errorf("read %s: %w", path, err)
	case !existed || !bytes.Equal(now, old):
		return errConfigChanged
	}
	return nil
}

// cmpOr is s, or def when s is "".
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// showPath is path as install reports it: from the top of the worktree
// for a project file, from ~ for one under the home directory, else whole.
func showPath(c hostContext, path string) string {
	if c.Top != "" && !c.User {
		if rel, err := filepath.Rel(c.Top, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	if rel, err := filepath.Rel(c.Home, path); err == nil && !strings.HasPrefix(rel, "..") {
		return "~/" + filepath.ToSlash(rel)
	}
	return path
}

// readConfig reads a configuration file, through a symbolic link if it is
// one (a dotfile kept elsewhere).
func readConfig(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return b, err
}

// writeConfig replaces the file at path (the file a symbolic link there
// names) with data: a temporary file in the same directory, synced, with
// the old file's mode (0644 for a new one), renamed over it, so that the
// host reads the old bytes or the new, never a part. Missing directories
// are created. Just before the rename, the file must still hold old
// (existed; else be missing): if a program wrote it since install read it,
// nothing is written and the error is errConfigChanged.
func writeConfig(path string, data, old []byte, existed bool) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".git-edit-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = checkUnchanged(path, old, existed)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		if errors.Is(err, errConfigChanged) {
			return err
		}
		return fmt.Errorf("write %s: %w; the file is as it was", path, err)
	}
	return nil
}

// insideTop refuses a project file that resolves, through a symbolic link
// in the repository (`.claude -> ~/.claude`), to a place outside the
// worktree top: a project's install must not write the person's global
// settings (hooks that then run in every project).
func insideTop(top, path string) error {
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		return err
	}
	// The deepest part of path that exists, resolved, then the rest.
	existing, rest := path, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	resolved, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", existing, err)
	}
	resolved = filepath.Join(resolved, rest)
	if rel, err := filepath.Rel(realTop, resolved); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("it leads through a symbolic link to %s, outside the repository; install writes a project's files only inside it: remove the link, or install for the user with --user", resolved)
	}
	return nil
}

// isSymlink reports whether path is a symbolic link.
func isSymlink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

// removeConfig removes a file uninstall leaves as install created it, and
// its directory (.claude, ~/.gemini …) if that is left empty and is not
// the project's top, the home directory or the configuration directory.
// The file must still hold old, else errConfigChanged and it stays.
func removeConfig(c hostContext, f hostFile, old []byte) error {
	if err := checkUnchanged(f.Path, old, true); err != nil {
		return err
	}
	if err := os.Remove(f.Path); err != nil {
		return fmt.Errorf("remove %s: %w", f.Path, err)
	}
	// Up to the first directory that is not empty: os.Remove removes
	// only an empty one.
	for dir := filepath.Dir(f.Path); dir != c.Top && dir != c.Home && dir != c.Config && dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			break
		}
	}
	return nil
}

// installFile adds f's entries to data (a file's bytes); an entry already
// there, equal, is left. It refuses a file that does not parse, and an
// entry of the same name that differs from git-edit's.
func installFile(f hostFile, data []byte) ([]byte, error) {
	if f.TOML {
		return installTOML(f, data)
	}
	root, err := parseJSONConfig(data, f.Comments)
	if err != nil {
		return nil, err
	}
	want, err := decodeJSONConfig(root)
	if err != nil {
		return nil, err
	}
	unit := jsonIndentUnit(root)
	for _, e := range f.Entries {
		node, i := &root, 0
		for ; i < len(e.Path); i++ {
			next, _ := jsonMember(node.Value.(*hujson.Object), e.Path[i])
			if next == nil {
				break
			}
			if want := map[bool]hujson.Kind{true: '[', false: '{'}[i == len(e.Path)-1 && e.Key == ""]; next.Value.Kind() != want {
				return nil, fmt.Errorf("%s is not %s", strings.Join(e.Path[:i+1], "."), map[hujson.Kind]string{'{': "an object", '[': "an array"}[want])
			}
			node = next
		}
		raw, _ := json.Marshal(e.Value)
		if i == len(e.Path) {
			if e.Key == "" {
				if slices.ContainsFunc(node.Value.(*hujson.Array).Elements, func(el hujson.Value) bool { return valueIs(el, raw) }) {
					continue
				}
				insertIntoJSON(node, i, unit, "", e.Value)
				continue
			}
			if v, _ := jsonMember(node.Value.(*hujson.Object), e.Key); v != nil {
				if valueIs(*v, raw) {
					continue
				}
				return nil, fmt.Errorf("%s.%s is already there and is not what install writes (%s); remove it, or run uninstall with the --session it names", strings.Join(e.Path, "."), e.Key, valueJSON(*v))
			}
			insertIntoJSON(node, i, unit, e.Key, e.Value)
			continue
		}
		// Create the missing containers, nested, as one member of the
		// deepest one there.
		var v any = e.Value
		if e.Key != "" {
			v = map[string]any{e.Key: v}
		} else {
			v = []any{v}
		}
		for j := len(e.Path) - 1; j > i; j-- {
			v = map[string]any{e.Path[j]: v}
		}
		insertIntoJSON(node, i, unit, e.Path[i], v)
	}
	data = root.Pack()
	// Check the result, read back from its bytes: the old value with
	// git-edit's entries, nothing else.
	for _, e := range f.Entries {
		addEntry(want, e)
	}
	back, err := parseJSONConfig(data, f.Comments)
	var got map[string]any
	if err == nil {
		got, err = decodeJSONConfig(back)
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		return nil, fmt.Errorf("internal error: the merged file is not the old one plus git-edit's entries (%v)", err)
	}
	return data, nil
}

// uninstallFile removes f's entries from data, and the containers on
// their paths that they leave empty; an entry of the same name that
// differs from git-edit's is left, and refused.
func uninstallFile(f hostFile, data []byte) ([]byte, error) {
	if f.TOML {
		return uninstallTOML(f, data)
	}
	root, err := parseJSONConfig(data, f.Comments)
	if err != nil {
		return nil, err
	}
	if _, err := decodeJSONConfig(root); err != nil {
		return nil, err
	}
	unit := jsonIndentUnit(root)
	for _, e := range f.Entries {
		raw, _ := json.Marshal(e.Value)
		chain := []*hujson.Value{&root}
		for _, k := range e.Path {
			obj, ok := chain[len(chain)-1].Value.(*hujson.Object)
			if !ok {
				break
			}
			next, _ := jsonMember(obj, k)
			if next == nil {
				break
			}
			chain = append(chain, next)
		}
		if len(chain) != len(e.Path)+1 {
			continue // not there
		}
		node := chain[len(chain)-1]
		idx := -1
		switch c := node.Value.(type) {
		case *hujson.Array:
			if e.Key == "" {
				for j, el := range c.Elements {
					if valueIs(el, raw) {
						idx = j
					}
				}
			}
		case *hujson.Object:
			if v, j := jsonMember(c, e.Key); e.Key != "" && v != nil {
				if !valueIs(*v, raw) {
					return nil, fmt.Errorf("%s.%s is not what install writes (%s); it is left; remove it by hand, or run uninstall with the --session it names", strings.Join(e.Path, "."), e.Key, valueJSON(*v))
				}
				idx = j
			}
		}
		if idx < 0 {
			continue
		}
		// Remove the entry, or the outermost container on its path that
		// install created for it: one the entry alone fills, byte for byte
		// as install writes it (an empty container that was there before
		// stays).
		var made any = []any{e.Value}
		if e.Key != "" {
			made = map[string]any{e.Key: e.Value}
		}
		level := len(chain) - 1
		for level > 0 && itemsOf(chain[level].Value).n == 1 && bareJSON(*chain[level]) == marshalIndented(made, unit, level) {
			made = map[string]any{e.Path[level-1]: made}
			level--
		}
		if level == len(chain)-1 {
			removeFromJSON(node, level, unit, idx)
		} else {
			_, j := jsonMember(chain[level].Value.(*hujson.Object), e.Path[level])
			removeFromJSON(chain[level], level, unit, j)
		}
	}
	data = root.Pack()
	back, err := parseJSONConfig(data, f.Comments)
	if err == nil {
		_, err = decodeJSONConfig(back)
	}
	if err != nil {
		return nil, fmt.Errorf("internal error: removing git-edit's entries broke the file: %w", err)
	}
	return data, nil
}

// bareJSON is v's bytes without the comments and white space around it.
func bareJSON(v hujson.Value) string {
	v.BeforeExtra, v.AfterExtra = nil, nil
	return string(v.Pack())
}

// compactJSON is a value on one line, for a message.
func compactJSON(b []byte) string {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return string(b)
	}
	return out.String()
}

// decodeJSONConfig is a parsed configuration file (a JSON object) as
// encoding/json decodes it.
func decodeJSONConfig(root hujson.Value) (map[string]any, error) {
	v, err := decodeJSONValue(root)
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the file is JSON but not an object")
	}
	return m, nil
}

// lineCol is where byte offset off lies, counted from 1.
func lineCol(data []byte, off int) (line, col int) {
	off = min(off, len(data))
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	return line, off - bytes.LastIndexByte(data[:off], '\n')
}

// addEntry adds e to the decoded file m, as installFile does to the bytes.
func addEntry(m map[string]any, e hostEntry) {
	var v any
	raw, _ := json.Marshal(e.Value)
	json.Unmarshal(raw, &v)
	cur := m
	for i, k := range e.Path {
		if i == len(e.Path)-1 && e.Key == "" {
			arr, _ := cur[k].([]any)
			for _, x := range arr {
				if reflect.DeepEqual(x, v) {
					return
				}
			}
			cur[k] = append(arr, v)
			return
		}
		next, ok := cur[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[k] = next
		}
		cur = next
	}
	cur[e.Key] = v
}

// tomlTable is the table install appends to a TOML file for an entry:
// "\n[path.key]\n" and its keys, one a line.
func tomlTable(e hostEntry) string {
	var b strings.Builder
	b.WriteString("\n[" + strings.Join(append(append([]string{}, e.Path...), e.Key), ".") + "]\n")
	s := e.Value.(mcpEntry)
	q := func(s string) string { j, _ := json.Marshal(s); return string(j) }
	b.WriteString("command = " + q(s.Command) + "\n")
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		args[i] = q(a)
	}
	b.WriteString("args = [" + strings.Join(args, ", ") + "]\n")
	return b.String()
}

// decodeTOML parses a TOML file; an error names the line and column.
func decodeTOML(data []byte) (map[string]any, error) {
	m := map[string]any{}
	if err := toml.Unmarshal(data, &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, fmt.Errorf("not TOML: line %d, column %d: %w", line, col, err)
		}
		return nil, fmt.Errorf("not TOML: %w", err)
	}
	return m, nil
}

// tomlLookup is the value at path.key in m, or nil.
func tomlLookup(m map[string]any, e hostEntry) any {
	cur := m
	for _, k := range e.Path {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur[e.Key]
}

// installTOML appends each entry's table to the end of data, unless an
// equal one is there.
func installTOML(f hostFile, data []byte) ([]byte, error) {
	for _, e := range f.Entries {
		m, err := decodeTOML(data)
		if err != nil {
			return nil, err
		}
		table := tomlTable(e)
		want, _ := decodeTOML([]byte(table))
		if have := tomlLookup(m, e); have != nil {
			if reflect.DeepEqual(have, tomlLookup(want, e)) {
				continue
			}
			return nil, fmt.Errorf("[%s.%s] is already there and is not what install writes; remove it, or run uninstall with the --session it names", strings.Join(e.Path, "."), e.Key)
		}
		if len(data) == 0 {
			table = table[1:]
		}
		next := append(append([]byte{}, data...), table...)
		got, err := decodeTOML(next)
		if err != nil {
			return nil, fmt.Errorf("[%s.%s] cannot be added at its end (%v): the file defines %s in a way a table cannot extend; add it by hand", strings.Join(e.Path, "."), e.Key, err, strings.Join(e.Path, "."))
		}
		if !reflect.DeepEqual(tomlLookup(got, e), tomlLookup(want, e)) {
			return nil, fmt.Errorf("internal error: [%s.%s] did not read back as written", strings.Join(e.Path, "."), e.Key)
		}
		data = next
	}
	return data, nil
}

// uninstallTOML removes each entry's table, exactly as installTOML wrote
// it. A table that is not what install writes (a key the person added
// under it, another form) is refused and left: cutting only install's
// lines would hand the person's keys to the table before it. The result
// must read as the file did without the entry, and nothing else.
func uninstallTOML(f hostFile, data []byte) ([]byte, error) {
	for _, e := range f.Entries {
		m, err := decodeTOML(data)
		if err != nil {
			return nil, err
		}
		have := tomlLookup(m, e)
		if have == nil {
			continue
		}
		table := tomlTable(e)
		notOurs := fmt.Errorf("[%s.%s] is not as install writes it (a key was added or changed); it is left; remove it by hand", strings.Join(e.Path, "."), e.Key)
		want, _ := decodeTOML([]byte(table))
		if !reflect.DeepEqual(have, tomlLookup(want, e)) {
			return nil, notOurs
		}
		var next []byte
		if i := bytes.LastIndex(data, []byte(table)); i >= 0 {
			next = append(append([]byte{}, data[:i]...), data[i+len(table):]...)
		} else if bytes.HasPrefix(data, []byte(table[1:])) {
			next = data[len(table)-1:]
		} else {
			return nil, notOurs
		}
		got, err := decodeTOML(next)
		if err != nil || !tomlSameWithout(m, got, e) {
			return nil, notOurs
		}
		data = next
	}
	return data, nil
}

// tomlSameWithout reports whether got is m without e's entry (and without
// the tables on its path that held nothing else, which the entry's header
// made).
func tomlSameWithout(m, got map[string]any, e hostEntry) bool {
	parents := []map[string]any{m}
	for _, k := range e.Path {
		next, ok := parents[len(parents)-1][k].(map[string]any)
		if !ok {
			return false
		}
		parents = append(parents, next)
	}
	delete(parents[len(parents)-1], e.Key)
	for i := len(e.Path) - 1; i >= 0; i-- {
		if len(parents[i+1]) == 0 && tomlLookup(got, hostEntry{Path: e.Path[:i], Key: e.Path[i]}) == nil {
			delete(parents[i], e.Path[i])
		}
	}
	return reflect.DeepEqual(m, got)
}
