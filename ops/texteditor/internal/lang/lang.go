// Package lang names a file's language the way go-enry (GitHub linguist's
// data) does, from tables generated at build time (tables.go, by langgen),
// so that a process pays nothing for them at start: the tables are plain
// data the linker lays out, and the few regexps are compiled on first use.
//
// # Where the answer may differ from go-enry's
//
// Language follows go-enry's GetLanguage strategy by strategy (binary
// content, modelines, file name, shebang, extension, XML header, manpage
// name, linguist's content heuristics) with the same data and the same
// regexps, and agrees with it wherever those decide. It differs in one
// place only: when candidates remain after the heuristics, go-enry runs its
// naive Bayes classifier over the content's tokens, and Language does not
// (its token tables are most of go-enry's 16 MB); it picks, among the
// candidates, the one with the highest prior probability of that classifier,
// which is exactly go-enry's answer for empty content. Where two candidates
// have the same prior, go-enry's order is that of a Go map (random) and
// Language takes the first in linguist's list. Both cases are reported by
// Detect's byPrior result.
package lang

//go:generate go tool langgen -o tables.go

import (
	"bufio"
	"bytes"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// langID indexes languages.
type langID uint16

// language is one linguist language.
type language struct {
	name  string // linguist's name ("C++")
	tag   string // Markdown fence tag ("cpp"); see langgen.Tag
	prior int    // rank of the classifier's prior probability, higher is likelier; 0: no samples
}

// entry maps a key to candidate languages in linguist's order.
type entry struct {
	key   string
	langs []langID
}

type alias struct {
	key  string
	lang langID
}

type op uint8

const (
	opOr     op = iota + 1 // matches when its pattern (re, or kids[0]) matches
	opAnd                  // matches when every kid matches
	opNot                  // matches when no kid matches
	opAlways               // always matches
	opRegexp               // a kid of opAnd or opNot: patterns[re]
)

// rule is one of linguist's heuristics (at the top level, with the
// languages it names) or a matcher inside one. re is -1 for a pattern in a
// syntax RE2 does not accept: go-enry never matches such an opOr and skips
// such a kid of opAnd and opNot, and so does match.
type rule struct {
	op    op
	langs []langID
	re    int
	kids  []rule
}

type heuristic struct {
	ext   string
	rules []rule
}

// Tag returns the Markdown fence tag of name's language given the head of
// its content ("" when unknown); see Detect.
func Tag(name string, content []byte) string {
	l, ok, _ := Detect(name, content)
	if !ok {
		return ""
	}
	return languages[l].tag
}

// Name returns the linguist name of name's language given the head of its
// content ("" when unknown); see Detect.
func Name(name string, content []byte) string {
	l, ok, _ := Detect(name, content)
	if !ok {
		return ""
	}
	return languages[l].name
}

// Detect returns the language of a file named name (a base name) with
// content (its head), as go-enry's GetLanguage would; ok is false when no
// language is found, as for binary content. byPrior reports that the answer
// was chosen among several candidates by the classifier's prior, where
// go-enry runs its classifier (see the package doc): for empty content the
// two agree except on ties of priors; for other content they may differ.
func Detect(name string, content []byte) (l langID, ok, byPrior bool) {
	// Binary content has no language (go-enry's IsBinary: a NUL byte in the
	// first 8000).
	if bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0 {
		return 0, false, false
	}
	// Each strategy in go-enry's order: one candidate decides; several are
	// kept for the next strategy; none leaves the previous ones.
	var cands []langID
	for step := range 8 {
		var c []langID
		switch step {
		case 0:
			c = byModeline(content)
		case 1:
			if name != "" {
				c = lookup(byFilename[:], filepath.Base(name))
			}
		case 2:
			c = lookup(byInterpreter[:], interpreter(content))
		case 3:
			c = byExt(name)
		case 4:
			if len(cands) > 0 {
				c = cands
			} else if bytes.Contains(firstLines(content, 2), []byte("xml version=")) {
				// go-enry's regexp `<?xml version=` (the "<" optional).
				c = []langID{mustLang("XML")}
			}
		case 5:
			if res().manpage.MatchString(strings.ToLower(name)) {
				c = []langID{mustLang("Roff Manpage"), mustLang("Roff")}
			}
		case 6:
			c = byHeuristics(name, content)
		case 7:
			if l, n := byPriorOf(cands); n > 0 {
				// With two or more known to the classifier, go-enry would
				// weigh the content's tokens (none when it is empty: then
				// the prior decides in both).
				return l, true, n > 1
			}
		}
		if len(c) == 1 {
			return c[0], true, false
		}
		if len(c) > 1 {
			cands = c
		}
	}
	if len(cands) == 0 {
		return 0, false, false
	}
	// The classifier knew none of the candidates: go-enry keeps the first.
	return cands[0], true, false
}

// byPriorOf returns the candidate with the highest classifier prior, the
// first in order among equals, and how many distinct candidates have a
// prior (0: the classifier knows none of them).
func byPriorOf(cands []langID) (best langID, n int) {
	bestPrior := 0
	for i, c := range cands {
		p := languages[c].prior
		if p == 0 || slices.Contains(cands[:i], c) {
			continue
		}
		n++
		if p > bestPrior {
			best, bestPrior = c, p
		}
	}
	return best, n
}

func lookup(t []entry, key string) []langID {
	if key == "" {
		return nil
	}
	i := sort.Search(len(t), func(i int) bool { return t[i].key >= key })
	if i < len(t) && t[i].key == key {
		return t[i].langs
	}
	return nil
}

// byExt tries every suffix of name that starts at a dot, longest first
// (".blade.php" before ".php"), lower-cased.
func byExt(name string) []langID {
	name = strings.ToLower(name)
	for i := range len(name) {
		if name[i] == '.' {
			if ls := lookup(byExtension[:], name[i:]); ls != nil {
				return ls
			}
		}
	}
	return nil
}

func byHeuristics(name string, content []byte) []langID {
	if name == "" {
		return nil
	}
	ext := strings.ToLower(filepath.Ext(name))
	i := sort.Search(len(heuristics), func(i int) bool { return heuristics[i].ext >= ext })
	if i == len(heuristics) || heuristics[i].ext != ext {
		return nil
	}
	for _, r := range heuristics[i].rules {
		if r.match(content) {
			return r.langs
		}
	}
	return nil
}

func (r *rule) match(content []byte) bool {
	switch r.op {
	case opAlways:
		return true
	case opOr:
		if len(r.kids) > 0 {
			return r.kids[0].match(content)
		}
		return r.re >= 0 && pattern(r.re).Match(content)
	case opRegexp:
		return r.re >= 0 && pattern(r.re).Match(content)
	case opAnd:
		for i := range r.kids {
			if k := &r.kids[i]; !(k.op == opRegexp && k.re < 0) && !k.match(content) {
				return false
			}
		}
		return true
	case opNot:
		for i := range r.kids {
			if k := &r.kids[i]; !(k.op == opRegexp && k.re < 0) && k.match(content) {
				return false
			}
		}
		return true
	}
	return false
}

// compiled caches patterns compiled on first use.
var compiled [len(patterns)]atomic.Pointer[regexp.Regexp]

func pattern(i int) *regexp.Regexp {
	if re := compiled[i].Load(); re != nil {
		return re
	}
	// Every pattern compiled when langgen read it from go-enry.
	re := regexp.MustCompile(patterns[i])
	compiled[i].Store(re)
	return re
}

func mustLang(name string) langID {
	i := sort.Search(len(languages), func(i int) bool { return languages[i].name >= name })
	if i == len(languages) || languages[i].name != name {
		panic("lang: " + name + " is not in the generated tables; regenerate them")
	}
	return langID(i)
}

// byAliasKey returns the language linguist knows by alias (a name or alias
// of any case, spaces or underscores, anything after a comma ignored).
func byAliasKey(a string) (langID, bool) {
	a, _, _ = strings.Cut(a, ",")
	a = strings.ToLower(strings.ReplaceAll(a, " ", "_"))
	i := sort.Search(len(byAlias), func(i int) bool { return byAlias[i].key >= a })
	if i < len(byAlias) && byAlias[i].key == a {
		return byAlias[i].lang, true
	}
	return 0, false
}

// The regexps of go-enry's strategies (its common.go), compiled on first
// use rather than at process start.
type regexps struct {
	emacsModeline, emacsLang, vimModeline, vimLang *regexp.Regexp
	shebangExecHack, pythonVersion, envOptArgs     *regexp.Regexp
	envVarArgs, manpage                            *regexp.Regexp
}

var res = sync.OnceValue(func() *regexps {
	return &regexps{
		emacsModeline:   regexp.MustCompile(`.*-\*-\s*(.+?)\s*-\*-.*(?m:$)`),
		emacsLang:       regexp.MustCompile(`.*(?i:mode)\s*:\s*([^\s;]+)\s*;*.*`),
		vimModeline:     regexp.MustCompile(`(?:(?m:\s|^)vi(?:m[<=>]?\d+|m)?|[\t\x20]*ex)\s*[:]\s*(.*)(?m:$)`),
		vimLang:         regexp.MustCompile(`(?i:filetype|ft|syntax)\s*=(\w+)(?:\s|:|$)`),
		shebangExecHack: regexp.MustCompile(`exec (\w+).+\$0.+\$@`),
		pythonVersion:   regexp.MustCompile(`python\d\.\d+`),
		envOptArgs:      regexp.MustCompile(`-[i0uCSv]*|--\S+`),
		envVarArgs:      regexp.MustCompile(`\S+=\S+`),
		manpage:         regexp.MustCompile(`\.(?:[1-9](?:[a-z_]+[a-z_0-9]*)?|0p|n|man|mdoc)(?:\.in)?$`),
	}
})

// byModeline looks for an Emacs, then a Vim modeline in the first and last
// five lines.
func byModeline(content []byte) []langID {
	hf := headerAndFooter(content)
	r := res()
	if m := r.emacsModeline.FindAllSubmatch(hf, -1); m != nil {
		last := m[len(m)-1][1]
		a := string(last)
		if la := r.emacsLang.FindSubmatch(last); la != nil {
			a = string(la[1])
		}
		if l, ok := byAliasKey(a); ok {
			return []langID{l}
		}
	}
	m := r.vimModeline.FindAllSubmatch(hf, -1)
	if m == nil {
		return nil
	}
	la := r.vimLang.FindAllSubmatch(m[len(m)-1][1], -1)
	if la == nil {
		return nil
	}
	a := string(la[0][1])
	for _, o := range la[1:] {
		if string(o[1]) != a {
			return nil // conflicting settings name no language
		}
	}
	if l, ok := byAliasKey(a); ok {
		return []langID{l}
	}
	return nil
}

// headerAndFooter is go-enry's getHeaderAndFooter, index arithmetic
// included, so that the same lines are searched.
func headerAndFooter(content []byte) []byte {
	const scope = 5
	if len(content) == 0 || bytes.Count(content, []byte("\n")) < 2*scope {
		return content
	}
	header := 0
	c := content
	for range scope {
		eol := bytes.IndexByte(c, '\n')
		c = c[eol+1:]
		header += eol
	}
	header += scope - 1
	footer := 0
	c = content
	for range scope {
		footer = bytes.LastIndexByte(c, '\n')
		c = c[:footer]
	}
	footer++
	out := make([]byte, 0, header+len(content)-footer)
	out = append(out, content[:header]...)
	return append(out, content[footer:]...)
}

// interpreter returns the interpreter a shebang line names, as go-enry's
// getInterpreter does ("" without a shebang).
func interpreter(content []byte) string {
	line := firstLines(content, 1)
	if !bytes.HasPrefix(line, []byte("#!")) {
		return ""
	}
	line = bytes.TrimSpace(line[2:])
	f := bytes.Fields(line)
	if len(f) == 0 {
		return ""
	}
	r := res()
	interp := path.Base(string(f[0]))
	if interp == "env" {
		if len(f) == 1 {
			return ""
		}
		for len(f) > 2 {
			if r.envOptArgs.Match(f[1]) || r.envVarArgs.Match(f[1]) {
				f = append(f[:1], f[2:]...)
				continue
			}
			break
		}
		interp = path.Base(string(f[1]))
	}
	if interp == "sh" {
		interp = multilineExec(content)
	}
	if r.pythonVersion.MatchString(interp) {
		interp = interp[:strings.Index(interp, ".")]
	}
	// osascript -l names another language.
	if interp == "osascript" && bytes.Contains(line, []byte("-l")) {
		interp = ""
	}
	return interp
}

// multilineExec finds `exec X "$0" "$@"` in the first five lines of a sh
// script, the trick that runs a script under another interpreter.
func multilineExec(content []byte) string {
	s := bufio.NewScanner(bytes.NewReader(content))
	for i := 0; i < 5 && s.Scan(); i++ {
		if m := res().shebangExecHack.FindSubmatch(s.Bytes()); m != nil {
			return string(m[1])
		}
	}
	return "sh"
}

// firstLines returns content up to (not including) the n-th newline, or all
// of it when it has fewer.
func firstLines(content []byte, n int) []byte {
	end := -1
	for ; n > 0; n-- {
		i := bytes.IndexByte(content[end+1:], '\n')
		if i < 0 {
			return content
		}
		end += i + 1
	}
	return content[:end]
}
