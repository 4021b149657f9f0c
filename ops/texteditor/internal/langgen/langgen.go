// Package langgen generates the language tables of package lang from
// go-enry's copy of GitHub linguist's data, so that the git-edit binary
// carries linguist's answers as plain data instead of linking go-enry (whose
// package initialisation builds maps and compiles ~600 regexps, ~20 ms and
// 16 MB at every process start).
//
// Generate is deterministic: the same go-enry version gives the same bytes,
// which lang's tests check against the checked-in file.
package langgen

import (
	"bytes"
	"fmt"
	"go/format"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/go-enry/go-enry/v2"
	"github.com/go-enry/go-enry/v2/data"
	"github.com/go-enry/go-enry/v2/data/rule"
)

// Source names the data the tables come from, for the generated header.
func Source() string {
	return "github.com/go-enry/go-enry/v2/data (linguist commit " + data.LinguistCommit + ")"
}

// Tag is the fence tag for a linguist language: the lower-cased name with
// spaces as "-" when that is a plain word of [a-z0-9._-], else the first
// such alias (C++ -> "cpp"), else the name minus characters that could break
// a Markdown info string. It is the rule view's FenceTag has always applied
// to go-enry's answer.
func Tag(lang string) string {
	if lang == "" {
		return ""
	}
	if tag := strings.ToLower(strings.ReplaceAll(lang, " ", "-")); PlainTag(tag) {
		return tag
	}
	if info, err := enry.GetLanguageInfo(lang); err == nil {
		for _, a := range info.Aliases {
			if PlainTag(a) {
				return a
			}
		}
	}
	return strings.Map(func(r rune) rune {
		if r == '`' || r <= ' ' {
			return -1
		}
		return r
	}, strings.ToLower(strings.ReplaceAll(lang, " ", "-")))
}

// PlainTag reports whether s is a non-empty word of [a-z0-9._-].
func PlainTag(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// node mirrors a go-enry heuristic rule or matcher.
type node struct {
	op    string // opOr, opAnd, opNot, opAlways, opRegexp
	langs []string
	re    int // index into patterns for opRegexp and an opOr of one regexp; -1 for none or a pattern RE2 cannot compile
	kids  []node
}

type generator struct {
	langs    map[string]bool
	patterns []string
	patIndex map[string]int
}

func (g *generator) lang(l string) {
	g.langs[l] = true
}

func (g *generator) pattern(src string) int {
	if i, ok := g.patIndex[src]; ok {
		return i
	}
	g.patterns = append(g.patterns, src)
	g.patIndex[src] = len(g.patterns) - 1
	return len(g.patterns) - 1
}

var regexpType = reflect.TypeFor[*regexp.Regexp]()

// matcher converts a rule.Matcher (a heuristic of package rule or a regexp)
// found through reflection: rule's types are unexported, and their fields
// are the only record of the patterns.
func (g *generator) matcher(v reflect.Value) (node, error) {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return node{}, fmt.Errorf("nil matcher")
		}
		v = v.Elem()
	}
	if v.Type() == regexpType {
		if v.IsNil() {
			// regex.MustCompileRuby: syntax RE2 does not accept; go-enry's
			// rules skip such a pattern.
			return node{op: "opRegexp", re: -1}, nil
		}
		re := (*regexp.Regexp)(v.UnsafePointer())
		return node{op: "opRegexp", re: g.pattern(re.String())}, nil
	}
	if v.Kind() != reflect.Struct {
		return node{}, fmt.Errorf("unknown matcher type %s", v.Type())
	}
	var n node
	switch v.Type().Name() {
	case "or":
		n.op = "opOr"
	case "and":
		n.op = "opAnd"
	case "not":
		n.op = "opNot"
	case "always":
		n.op = "opAlways"
	default:
		return node{}, fmt.Errorf("unknown rule type %s", v.Type())
	}
	n.re = -1
	for i := range v.NumField() {
		f := v.Field(i)
		switch name := v.Type().Field(i).Name; name {
		case "languages":
			// Only a top-level rule's languages are an answer (see
			// topLevel); a nested rule is a matcher.
		case "pattern":
			k, err := g.matcher(f)
			if err != nil {
				return node{}, err
			}
			if k.op == "opRegexp" {
				n.re = k.re // an or of one regexp, the usual case
			} else {
				n.kids = []node{k}
			}
		case "patterns", "Patterns":
			for j := range f.Len() {
				k, err := g.matcher(f.Index(j))
				if err != nil {
					return node{}, err
				}
				n.kids = append(n.kids, k)
			}
		default:
			return node{}, fmt.Errorf("unknown field %s of rule type %s", name, v.Type())
		}
	}
	return n, nil
}

// topLevel converts a heuristic of an extension; its languages are resolved
// through linguist's aliases as data.Heuristics.Match does, dropping names
// that are not languages.
func (g *generator) topLevel(h rule.Heuristic) (node, error) {
	n, err := g.matcher(reflect.ValueOf(&h).Elem())
	if err != nil {
		return node{}, err
	}
	var langs []string
	for _, l := range h.Languages() {
		if lang, ok := data.LanguageByAlias(l); ok {
			langs = append(langs, lang)
			g.lang(lang)
		}
	}
	n.langs = langs
	return n, nil
}

// Generate returns the gofmt'ed source of package lang's tables.
func Generate() ([]byte, error) {
	g := &generator{langs: map[string]bool{}, patIndex: map[string]int{}}
	for _, m := range []map[string][]string{data.LanguagesByExtension, data.LanguagesByFilename, data.LanguagesByInterpreter} {
		for _, ls := range m {
			for _, l := range ls {
				g.lang(l)
			}
		}
	}
	for _, l := range data.LanguageByAliasMap {
		g.lang(l)
	}
	for l := range data.LanguagesLogProbabilities {
		g.lang(l)
	}
	for _, l := range []string{"XML", "Roff Manpage", "Roff"} {
		g.lang(l) // named by go-enry's code rather than its data
	}

	exts := slices.Sorted(maps.Keys(data.ContentHeuristics))
	heur := make(map[string][]node, len(exts))
	for _, ext := range exts {
		for _, h := range *data.ContentHeuristics[ext] {
			n, err := g.topLevel(h)
			if err != nil {
				return nil, fmt.Errorf("heuristics for %s: %w", ext, err)
			}
			heur[ext] = append(heur[ext], n)
		}
	}

	names := slices.Sorted(maps.Keys(g.langs))
	id := make(map[string]int, len(names))
	for i, n := range names {
		id[n] = i
	}
	// The classifier's prior as a rank: with no content to tokenise, go-enry
	// orders candidates by this prior alone.
	priors := slices.Sorted(maps.Values(data.LanguagesLogProbabilities))
	priors = slices.Compact(priors)
	rank := func(l string) int {
		p, ok := data.LanguagesLogProbabilities[l]
		if !ok {
			return 0
		}
		i, _ := slices.BinarySearch(priors, p)
		return i + 1
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by langgen from %s. DO NOT EDIT.\n\n", Source())
	b.WriteString("package lang\n\n")

	b.WriteString("// languages holds every language the tables name, by name; a langID indexes it.\n")
	b.WriteString("var languages = [...]language{\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t{%q, %q, %d},\n", n, Tag(n), rank(n))
	}
	b.WriteString("}\n\n")

	ids := func(ls []string) string {
		var s []string
		for _, l := range ls {
			s = append(s, fmt.Sprint(id[l]))
		}
		return "{" + strings.Join(s, ", ") + "}"
	}
	table := func(name, doc string, m map[string][]string) {
		fmt.Fprintf(&b, "// %s %s\n", name, doc)
		fmt.Fprintf(&b, "var %s = [...]entry{\n", name)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			fmt.Fprintf(&b, "\t{%q, []langID%s},\n", k, ids(m[k]))
		}
		b.WriteString("}\n\n")
	}
	table("byExtension", "maps a lower-case extension with its dot to its candidate languages, sorted by key.", data.LanguagesByExtension)
	table("byFilename", "maps a file's exact base name to its candidate languages, sorted by key.", data.LanguagesByFilename)
	table("byInterpreter", "maps a shebang's interpreter to its candidate languages, sorted by key.", data.LanguagesByInterpreter)

	b.WriteString("// byAlias maps a modeline's language key (lower case, spaces as _) to a language, sorted by key.\n")
	b.WriteString("var byAlias = [...]alias{\n")
	for _, k := range slices.Sorted(maps.Keys(data.LanguageByAliasMap)) {
		fmt.Fprintf(&b, "\t{%q, %d},\n", k, id[data.LanguageByAliasMap[k]])
	}
	b.WriteString("}\n\n")

	b.WriteString("// patterns holds the heuristics' regexps (RE2 syntax, as go-enry compiles them), compiled on first use.\n")
	b.WriteString("var patterns = [...]string{\n")
	for _, p := range g.patterns {
		fmt.Fprintf(&b, "\t%s,\n", quote(p))
	}
	b.WriteString("}\n\n")

	var writeNode func(n node, indent string)
	writeNode = func(n node, indent string) {
		fmt.Fprintf(&b, "%s{op: %s", indent, n.op)
		if len(n.langs) > 0 {
			fmt.Fprintf(&b, ", langs: []langID%s", ids(n.langs))
		}
		if n.op == "opRegexp" || n.op == "opOr" && len(n.kids) == 0 {
			fmt.Fprintf(&b, ", re: %d", n.re)
		}
		if len(n.kids) > 0 {
			b.WriteString(", kids: []rule{\n")
			for _, k := range n.kids {
				writeNode(k, indent+"\t")
			}
			b.WriteString(indent + "}")
		}
		b.WriteString("},\n")
	}
	b.WriteString("// heuristics maps a lower-case extension to linguist's disambiguation rules, in order, sorted by key.\n")
	b.WriteString("var heuristics = [...]heuristic{\n")
	for _, ext := range exts {
		fmt.Fprintf(&b, "\t{%q, []rule{\n", ext)
		for _, n := range heur[ext] {
			writeNode(n, "\t\t")
		}
		b.WriteString("\t}},\n")
	}
	b.WriteString("}\n")

	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gofmt the generated tables: %w", err)
	}
	return src, nil
}

// quote writes s as a raw string literal when it can, for readable regexps.
func quote(s string) string {
	if !strings.Contains(s, "`") && !strings.ContainsAny(s, "\r") && isPrintable(s) {
		return "`" + s + "`"
	}
	return fmt.Sprintf("%q", s)
}

func isPrintable(s string) bool {
	for _, r := range s {
		if r < ' ' && r != '\t' || r == 0x7f || r == '\uFFFD' {
			return false
		}
	}
	return true
}
