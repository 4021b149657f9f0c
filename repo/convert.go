package repo

import (
	"bytes"
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
)

// ErrConversion is returned when git's own conversion of a file between
// the worktree and the object store (eol, a filter driver, git-lfs,
// working-tree-encoding) fails. The error carries git's message; `git add
// PATH` shows the same failure.
var ErrConversion = errors.New("git's conversion of the file failed")

// Conversions answers, for the paths of one operation, whether git converts
// a file between the worktree and the object store, and performs those
// conversions through git itself: `git add` stores the cleaned blob, and
// `git checkout` writes the smudged bytes. What decides it is read once per
// Conversions: core.autocrlf, and the attributes text, eol, crlf, filter,
// ident and working-tree-encoding from the attribute files (the system and
// global ones, every .gitattributes from the top down to the file's
// directory, and $GIT_COMMON_DIR/info/attributes). Make one per operation:
// a person may change those files between operations.
//
// When no conversion applies to a path (the common case) nothing runs: the
// bytes on disk are the blob. When one may apply, git decides the rest
// (whether text=auto finds text, whether a filter driver is configured):
// Applies errs on the side of asking git, which then returns the bytes
// unchanged when it converts nothing.
type Conversions struct {
	r        *Repo
	autocrlf string // core.autocrlf: "true", "input" or "" (false)
	// low holds the system and global attributes, info the repository's
	// info/attributes: lowest and highest precedence.
	low, info []gitattributes.MatchAttribute
	// dirs caches each directory's .gitattributes (nil: none).
	dirs map[string][]gitattributes.MatchAttribute
	// inputs hashes the attribute files read so far, for the key of the
	// long-running smudge process.
	inputs []byte
	// configSum hashes the config files, read on the first Smudge: the
	// config is read once per Conversions, like the attribute files.
	configSum []byte
	// ctx bounds the git processes (and the filters they run): a filter
	// that never ends must not keep the edit lock past the call.
	ctx context.Context
}

// WithContext makes c's conversions end when ctx does: the git process and
// the filters it started are killed, and the conversion fails with an
// error wrapping ErrConversion and ctx.Err(). It returns c.
func (c *Conversions) WithContext(ctx context.Context) *Conversions {
	c.ctx = ctx
	return c
}

// builtinMacros are the macros git defines itself.
const builtinMacros = "[attr]binary -diff -merge -text\n"

// Conversions reads the settings that decide conversions (see
// Conversions). Errors wrap ErrBadConfig for an unreadable config or
// attribute file.
func (r *Repo) Conversions() (*Conversions, error) {
	c := &Conversions{r: r, dirs: map[string][]gitattributes.MatchAttribute{}, ctx: context.Background()}
	v, ok, err := r.ConfigValue("core", "autocrlf")
	if err != nil {
		return nil, err
	}
	if ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "input":
			c.autocrlf = "input"
		case "true", "yes", "on", "1":
			c.autocrlf = "true"
		}
	}
	c.low, _ = gitattributes.ReadAttributes(strings.NewReader(builtinMacros), nil, true)
	var files []string
	if !envBool("GIT_ATTR_NOSYSTEM") {
		files = append(files, "/etc/gitattributes")
	}
	if g, err := r.globalAttributesFile(); err != nil {
		return nil, err
	} else if g != "" {
		files = append(files, g)
	}
	for _, f := range files {
		attrs, err := c.readAttrFile(f, nil)
		if err != nil {
			return nil, err
		}
		c.low = append(c.low, attrs...)
	}
	if c.info, err = c.readAttrFile(filepath.Join(r.CommonDir, "info", "attributes"), nil); err != nil {
		return nil, err
	}
	return c, nil
}

// globalAttributesFile is core.attributesFile, else git's default
// $XDG_CONFIG_HOME/git/attributes (~/.config/git/attributes); "" if none.
func (r *Repo) globalAttributesFile() (string, error) {
	v, ok, err := r.ConfigValue("core", "attributesFile")
	if err != nil {
		return "", err
	}
	home, _ := os.UserHomeDir()
	if ok && v != "" {
		if rest, tilde := strings.CutPrefix(v, "~/"); tilde && home != "" {
			v = filepath.Join(home, rest)
		}
		return v, nil
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", "attributes"), nil
	}
	if home != "" {
		return filepath.Join(home, ".config", "git", "attributes"), nil
	}
	return "", nil
}

// readAttrFile parses an attribute file outside the worktree; a missing
// or unreadable one is none, as in git.
func (c *Conversions) readAttrFile(p string, domain []string) ([]gitattributes.MatchAttribute, error) {
	c.r.attrReads.Add(1)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, nil
	}
	return c.parse(p, b, domain)
}

func (c *Conversions) parse(name string, b []byte, domain []string) ([]gitattributes.MatchAttribute, error) {
	h := sha1.Sum(b)
	c.inputs = append(append(append(c.inputs, name...), 0), h[:]...)
	// Macros are allowed only at the top level, as in git; elsewhere git
	// ignores the line with a warning, so a bad line is skipped here too.
	var out []gitattributes.MatchAttribute
	for _, line := range strings.Split(string(b), "\n") {
		m, err := gitattributes.ParseAttributesLine(line, domain, len(domain) == 0)
		if err != nil || m.Name == "" {
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// dirAttrs returns the patterns of dir's .gitattributes ("" is the top),
// read through a directory handle like every worktree file; a symlinked
// .gitattributes is ignored, as git ignores it.
func (c *Conversions) dirAttrs(dir string) ([]gitattributes.MatchAttribute, error) {
	if attrs, ok := c.dirs[dir]; ok {
		return attrs, nil
	}
	rel := path.Join(dir, ".gitattributes")
	c.r.attrReads.Add(1)
	f, err := ReadWorkFile(Path{Rel: rel, worktree: c.r.Top}, 0)
	var attrs []gitattributes.MatchAttribute
	switch {
	case errors.Is(err, ErrNotRegular), errors.Is(err, ErrIsDirectory), errors.Is(err, ErrPathChanged), errors.Is(err, ErrPermission):
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", rel, err)
	case f.Exists:
		var domain []string
		if dir != "" {
			domain = strings.Split(dir, "/")
		}
		if attrs, err = c.parse(rel, f.Content, domain); err != nil {
			return nil, err
		}
	}
	c.dirs[dir] = attrs
	return attrs, nil
}

// convAttrs are the attributes that make git convert a file.
var convAttrs = []string{"text", "eol", "crlf", "filter", "ident", "working-tree-encoding"}

// resolvedAttrs are the attributes attrs resolves: convAttrs, and
// encoding, which converts nothing (see DeclaredEncoding).
var resolvedAttrs = append(convAttrs[:len(convAttrs):len(convAttrs)], "encoding")

// attrs resolves resolvedAttrs for rel as git does: the highest-precedence
// match of each attribute wins, macros expand where set.
func (c *Conversions) attrs(rel string) (map[string]gitattributes.Attribute, error) {
	stack := append([]gitattributes.MatchAttribute(nil), c.low...)
	dir := ""
	parts := strings.Split(rel, "/")
	for i := 0; ; i++ {
		a, err := c.dirAttrs(dir)
		if err != nil {
			return nil, err
		}
		stack = append(stack, a...)
		if i == len(parts)-1 {
			break
		}
		dir = path.Join(dir, parts[i])
	}
	stack = append(stack, c.info...)
	macros := map[string]gitattributes.MatchAttribute{}
	for _, m := range stack {
		if m.Pattern == nil {
			macros[m.Name] = m
		}
	}
	want := map[string]bool{}
	for _, a := range resolvedAttrs {
		want[a] = true
	}
	out := map[string]gitattributes.Attribute{}
	set := func(a gitattributes.Attribute) {
		if _, done := out[a.Name()]; !done && want[a.Name()] {
			out[a.Name()] = a
		}
	}
	// go-git's Matcher lets a lower-precedence match overwrite a higher
	// one when several attributes are asked for; resolve here instead.
	for i := len(stack) - 1; i >= 0 && len(out) < len(want); i-- {
		m := stack[i]
		if m.Pattern == nil || !m.Pattern.Match(parts) {
			continue
		}
		// Within one line, later attributes win.
		for j := len(m.Attributes) - 1; j >= 0; j-- {
			a := m.Attributes[j]
			set(a)
			if macro, ok := macros[a.Name()]; ok && a.IsSet() {
				for _, ma := range macro.Attributes {
					set(ma)
				}
			}
		}
	}
	return out, nil
}

// Applies reports whether git may convert rel (slash-separated, relative
// to the worktree top) between worktree and object store. False means the
// bytes on disk are exactly the blob `git add` stores and the blob exactly
// what `git checkout` writes.
func (c *Conversions) Applies(rel string) (bool, error) {
	a, err := c.attrs(rel)
	if err != nil {
		return false, err
	}
	valued := func(name string) bool {
		x, ok := a[name]
		return ok && x.IsValueSet() && x.Value() != ""
	}
	if x, ok := a["ident"]; ok && x.IsSet() {
		return true, nil
	}
	if valued("filter") || valued("working-tree-encoding") {
		return true, nil
	}
	text, crlf := a["text"], a["crlf"]
	switch {
	case text != nil && text.IsUnset(), text == nil && crlf != nil && crlf.IsUnset():
		return false, nil // binary: no eol conversion
	case text != nil && !text.IsUnspecified(), crlf != nil && !crlf.IsUnspecified(), valued("eol"):
		return true, nil
	}
	return c.autocrlf != "", nil
}

// DeclaredEncoding returns the character encoding rel's attributes declare
// for its worktree bytes, and the attribute that declares it:
// working-tree-encoding (git keeps the blob in UTF-8 and writes the file
// in this encoding), else encoding (what gitk and git gui read the file
// as; git converts nothing). Both empty when neither is set to a value.
// The name is as the attribute gives it; the caller decides whether it
// knows it.
func (c *Conversions) DeclaredEncoding(rel string) (name, attr string, err error) {
	a, err := c.attrs(rel)
	if err != nil {
		return "", "", err
	}
	for _, attr := range []string{"working-tree-encoding", "encoding"} {
		if x, ok := a[attr]; ok && x.IsValueSet() && x.Value() != "" {
			return x.Value(), attr, nil
		}
	}
	return "", "", nil
}

// SameCheckout reports whether a and b, two worktree forms of rel, are
// the same file to git: equal bytes, or, where the ident attribute
// applies, equal once each "$Id: …$" expansion is collapsed to "$Id$" as
// `git add` collapses it. git writes the blob's own id into the expansion
// on every checkout, so its text is not content: `git add` stores the same
// blob for both, and git status calls a file unchanged whose only
// difference from its checked-out form is an older id there.
func (c *Conversions) SameCheckout(rel string, a, b []byte) (bool, error) {
	if bytes.Equal(a, b) {
		return true, nil
	}
	ident, err := c.ident(rel)
	if err != nil || !ident {
		return false, err
	}
	return bytes.Equal(collapseIdent(a), collapseIdent(b)), nil
}

// IdentCollapsed returns worktree bytes b of rel with each ident
// expansion collapsed to "$Id$" where the ident attribute applies (b
// itself otherwise): the form in which two versions of rel compare and
// merge as git's blobs do, whatever blob ids their expansions name.
func (c *Conversions) IdentCollapsed(rel string, b []byte) ([]byte, error) {
	ident, err := c.ident(rel)
	if err != nil || !ident {
		return b, err
	}
	return collapseIdent(b), nil
}

// IdentExpanded returns b, worktree bytes of rel whose ident keywords are
// collapsed ("$Id$", as IdentCollapsed leaves them), with each keyword
// expanded as `git checkout` of `git add` of b would write it: "$Id: <id>
// $", id the blob git stores for b (git hash-object, which stores
// nothing). Where ident does not apply, or b holds no "$Id$", b is
// returned as is and no git process runs. The expansion matters beyond
// looks: git status takes a file whose size differs from its checkout as
// modified without comparing contents. Errors wrap ErrConversion.
func (c *Conversions) IdentExpanded(rel string, b []byte) ([]byte, error) {
	ident, err := c.ident(rel)
	if err != nil || !ident || !bytes.Contains(b, []byte("$Id$")) {
		return b, err
	}
	id, err := c.CleanID(rel, b, false)
	if err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(b, []byte("$Id$"), []byte("$Id: "+id.String()+" $")), nil
}

// ident reports whether the ident attribute applies to rel.
func (c *Conversions) ident(rel string) (bool, error) {
	attrs, err := c.attrs(rel)
	if err != nil {
		return false, err
	}
	x, ok := attrs["ident"]
	return ok && x.IsSet(), nil
}

// collapseIdent is git's ident_to_git (convert.c): each "$Id:" followed by
// a "$" with no newline in between becomes "$Id$". b is returned as is
// when it holds no "$Id:".
func collapseIdent(b []byte) []byte {
	if !bytes.Contains(b, []byte("$Id:")) {
		return b
	}
	out := make([]byte, 0, len(b))
	for {
		d := bytes.IndexByte(b, '$')
		if d < 0 {
			break
		}
		out, b = append(out, b[:d+1]...), b[d+1:]
		if len(b) > 3 && bytes.HasPrefix(b, []byte("Id:")) {
			end := bytes.IndexByte(b[3:], '$')
			if end < 0 {
				break
			}
			if bytes.IndexByte(b[3:3+end], '\n') >= 0 {
				continue // a line break first: not a keyword
			}
			out, b = append(out, "Id$"...), b[3+end+1:]
		}
	}
	return append(out, b...)
}

// OnlyAutoEOL reports whether the only conversion git may apply to rel is
// the automatic line-ending one: text=auto, or core.autocrlf where no text,
// crlf or eol attribute decides, and no filter, ident or
// working-tree-encoding. `git add` skips that conversion when the index's
// blob for rel holds a CR (git's "safer autocrlf"), which `git hash-object`,
// reading no index, cannot know: the caller decides (see Clean).
func (c *Conversions) OnlyAutoEOL(rel string) (bool, error) {
	a, err := c.attrs(rel)
	if err != nil {
		return false, err
	}
	if x, ok := a["ident"]; ok && x.IsSet() {
		return false, nil
	}
	for _, name := range []string{"filter", "working-tree-encoding"} {
		if x, ok := a[name]; ok && x.IsValueSet() && x.Value() != "" {
			return false, nil
		}
	}
	// As convert.c's convert_attrs: text, else crlf, decides; then eol;
	// then core.autocrlf.
	action := a["text"]
	if action == nil || action.IsUnspecified() {
		action = a["crlf"]
	}
	switch {
	case action != nil && action.IsValueSet() && action.Value() == "auto":
		return true, nil
	case action != nil && !action.IsUnspecified():
		return false, nil // text, binary or input: not automatic
	}
	if x, ok := a["eol"]; ok && x.IsValueSet() && (x.Value() == "lf" || x.Value() == "crlf") {
		return false, nil // eol alone makes the file text
	}
	return c.autocrlf != "", nil
}

// Cleaned is a file's content as `git add` stores it.
type Cleaned struct {
	Blob    plumbing.Hash
	Content []byte
}

// Clean converts worktree bytes of rel as `git add` does, running `git
// hash-object -w --path=rel --stdin` (git has no long-running form of it
// that takes the bytes: --stdin-paths reads files, and refuses --path).
// git writes the blob as a loose object, and git-lfs's filter puts the
// content into .git/lfs/objects, as `git add` would; the returned content
// lets the caller store the blob in its own batch too. indexCR says that
// the index's blob for rel holds a CR: where OnlyAutoEOL, `git add` then
// stores the bytes unconverted, and so does Clean. Errors wrap
// ErrConversion with git's message.
func (c *Conversions) Clean(rel string, content []byte, indexCR bool) (Cleaned, error) {
	h, err := c.clean(rel, content, indexCR, true)
	if err != nil {
		return Cleaned{}, err
	}
	b, err := c.r.ReadBlob(h)
	if err != nil {
		return Cleaned{}, fmt.Errorf("%w: %s: the blob git stored cannot be read: %w", ErrConversion, rel, err)
	}
	return Cleaned{Blob: h, Content: b}, nil
}

// CleanID is the id of the blob Clean would store, computed without
// storing it (`git hash-object` without -w): for a question such as "would
// `git add` store these bytes as this blob?", asked by operations that
// must write nothing (a dry run). A clean filter still runs.
func (c *Conversions) CleanID(rel string, content []byte, indexCR bool) (plumbing.Hash, error) {
	return c.clean(rel, content, indexCR, false)
}

// clean runs git hash-object on content as Clean describes; write adds -w.
func (c *Conversions) clean(rel string, content []byte, indexCR, write bool) (plumbing.Hash, error) {
	args := []string{"hash-object", "--path=" + rel, "--stdin"}
	if indexCR {
		only, err := c.OnlyAutoEOL(rel)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if only {
			// git stores them literally; the blob is still written by
			// git, for Smudge to read.
			args = []string{"hash-object", "--no-filters", "--stdin"}
		}
	}
	if write {
		args = append(args[:1], append([]string{"-w"}, args[1:]...)...)
	}
	cmd := c.r.gitCommand(c.ctx, args...)
	boundBy(cmd)
	cmd.Stdin = bytes.NewReader(content)
	// Only the tail of standard error is kept: a filter may write any
	// amount there, on success too.
	var out bytes.Buffer
	stderr := &tailBuffer{}
	cmd.Stdout, cmd.Stderr = &out, stderr
	if err := cmd.Run(); err != nil {
		if c.ctx.Err() != nil {
			return plumbing.ZeroHash, fmt.Errorf("%w: %s: git hash-object (the clean filter) did not finish in time, and was stopped: %w; check the filter with `git add %s`", ErrConversion, rel, c.ctx.Err(), rel)
		}
		return plumbing.ZeroHash, fmt.Errorf("%w: %s: git hash-object: %v: %s; `git add %s` shows the same error: fix the filter or the attributes", ErrConversion, rel, err, strings.TrimSpace(stderr.String()), rel)
	}
	id := strings.TrimSpace(out.String())
	if !plumbing.IsHash(id) {
		return plumbing.ZeroHash, fmt.Errorf("%w: %s: git hash-object printed %q, not an object id", ErrConversion, rel, id)
	}
	return plumbing.NewHash(id), nil
}

// Smudge returns the bytes `git checkout` writes for blob at rel, through
// a `git cat-file --batch --filters` process that the repository keeps
// running between operations (see Repo.Close); it is restarted when the
// config or an attribute file it read changed. The blob must be in the
// object store on disk (not only in an operation's pending batch). Errors
// wrap ErrConversion, or plumbing.ErrObjectNotFound when git does not have
// the blob.
func (c *Conversions) Smudge(rel string, blob plumbing.Hash) ([]byte, error) {
	return c.r.smudger.smudge(c.ctx, c.r, c.key(), rel, blob)
}

// key names what the long-running process was started with: the attribute
// files this Conversions read and the config files (which name the filter
// drivers); a process started on other inputs may have cached them.
func (c *Conversions) key() string {
	if c.configSum == nil {
		h := sha1.New()
		for _, f := range c.r.configFiles() {
			b, _ := os.ReadFile(f)
			fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
			h.Write(b)
		}
		for _, v := range []string{"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"} {
			fmt.Fprintf(h, "%s=%s\x00", v, os.Getenv(v))
		}
		c.configSum = h.Sum(nil)
	}
	h := sha1.New()
	h.Write(c.inputs)
	h.Write(c.configSum)
	return fmt.Sprintf("%x", h.Sum(nil))
}

// AttributeReads counts the attribute files (system, global,
// info/attributes, and each directory's .gitattributes) that Conversions
// of this repository read, present or not. Each Conversions reads each
// file at most once; the count lets tests check that an operation reads
// them once, not once per path.
func (r *Repo) AttributeReads() int64 { return r.attrReads.Load() }

// gitCommand is git run on this repository and worktree, whatever the
// environment names, until ctx ends.
func (r *Repo) gitCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = r.Top
	cmd.Env = append(os.Environ(), "GIT_DIR="+r.GitDir, "GIT_WORK_TREE="+r.Top)
	return cmd
}

// boundBy makes a one-shot cmd, made with exec.CommandContext, end with
// the filters it runs when its context does; WaitDelay stops Wait waiting
// on pipes a survivor may hold.
func boundBy(cmd *exec.Cmd) {
	ownGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = time.Second
}
