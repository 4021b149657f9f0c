package match

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// ErrOmission: a replacement text has a placeholder line standing for code
// it leaves out ("// ... rest of the method ..."), and writing it would
// delete that code.
var ErrOmission = errors.New("replacement omits code with a placeholder")

// Omission finds a placeholder line in replacement that stands for code the
// edit would delete: a comment line (//, #, /* */, *, <!-- -->, --, ;) or a
// line wholly in parentheses or brackets whose words say code was left out
// ("... rest of the method ...", "(rest unchanged)", "existing code",
// "(other methods here)", "rest of code remains the same").
//
// It reports one only when the placeholder would lose text: the line is not
// already among replaced's lines (the agent is keeping or moving a comment
// that is in the file), and replaced has a non-blank line that replacement
// does not keep (compared with leading and trailing whitespace trimmed).
// line is 1-based in replacement, text the line as written (without its
// line ending). Code that merely contains "..." (Go's args..., a Python
// "..." body, JS spread, "TODO: ...") is never a placeholder. Pure; never
// panics.
func Omission(replaced, replacement string) (line int, text string, found bool) {
	if replacement == "" {
		return 0, "", false
	}
	var kept map[string]bool // replaced's trimmed lines, built on demand
	for i, l := range strings.Split(replacement, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if !isPlaceholder(l) {
			continue
		}
		if kept == nil {
			kept = trimmedLines(replaced)
		}
		if kept[strings.TrimSpace(l)] {
			continue // the file has this line: not an omission the agent wrote
		}
		if loses(replaced, replacement) {
			return i + 1, l, true
		}
		return 0, "", false
	}
	return 0, "", false
}

// CheckOmission is Omission as a refusal: nil, or an error wrapping
// ErrOmission that names the placeholder line of field (the argument that
// carries replacement, e.g. "new_str") and says to send the full text.
func CheckOmission(field, replaced, replacement string) error {
	n, l, ok := Omission(replaced, replacement)
	if !ok {
		return nil
	}
	return fmt.Errorf("%w: line %d of %s, %q, stands for code it leaves out, and the edit would delete the lines it stands for; send the full text in %s, every line that should remain written out; nothing was changed",
		ErrOmission, n, field, strings.TrimSpace(l), field)
}

// trimmedLines is the set of s's lines with surrounding whitespace trimmed.
func trimmedLines(s string) map[string]bool {
	set := map[string]bool{}
	for _, l := range strings.Split(s, "\n") {
		set[strings.TrimSpace(l)] = true
	}
	return set
}

// loses reports whether replaced has a non-blank line that replacement
// does not have (both trimmed): text the placeholder would delete.
func loses(replaced, replacement string) bool {
	have := trimmedLines(replacement)
	for _, l := range strings.Split(replaced, "\n") {
		if t := strings.TrimSpace(l); t != "" && !have[t] {
			return true
		}
	}
	return false
}

// commentMarks are the openers of a comment line, longest first; closers
// are stripped from the end.
var (
	commentMarks = []string{"{/*", "<!--", "/**", "/*", "//", "--", "#", "*", ";"}
	closeMarks   = []string{"*/}", "-->", "*/"}
)

// isPlaceholder reports whether one line is an omission placeholder.
func isPlaceholder(line string) bool {
	s := strings.TrimSpace(line)
	body, ok := "", false
	for _, m := range commentMarks {
		if strings.HasPrefix(s, m) {
			body, ok = s[len(m):], true
			break
		}
	}
	if !ok && len(s) >= 2 && (s[0] == '(' && s[len(s)-1] == ')' || s[0] == '[' && s[len(s)-1] == ']') {
		body, ok = s[1:len(s)-1], true
	}
	if !ok {
		return false
	}
	for _, m := range closeMarks {
		body = strings.TrimSuffix(strings.TrimSpace(body), m)
	}
	body = strings.ToLower(strings.TrimSpace(body))
	dots := strings.Contains(body, "...") || strings.Contains(body, "…")
	// The words, without ellipses and the brackets and punctuation
	// around them.
	words := strings.Join(strings.FieldsFunc(body, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '\'')
	}), " ")
	if words == "" {
		// A comment that is only an ellipsis ("// ...", "# …") stands for
		// what it replaces; one without ("# ---") says nothing was left out.
		return dots
	}
	if dots && omissionWord().MatchString(words) && strings.Count(words, " ") < 8 {
		return true
	}
	for _, re := range omissionPhrases() {
		if re.MatchString(words) {
			return true
		}
	}
	return false
}

// omissionWord: with an ellipsis, in a short comment (placeholders are:
// "... rest ...", "// ... existing code ...", "# ... (unchanged)"), one of
// these words makes a placeholder. Compiled on first use, so that a
// process that never checks a placeholder (every git-edit command but the
// string dialects' calls) does not pay for it at start.
var omissionWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(rest|remaining|unchanged|unmodified|existing|omitted|same|before|above|previous|etc|keep)\b`)
})

// codeNoun is what a placeholder says was left out.
const codeNoun = `(code|file|files|method|methods|function|functions|class|classes|body|implementation|logic|content|contents|lines?|imports?|fields?|props|properties|cases?|tests?|members?|definitions?|functionality|module|component|components|handlers?|helpers?|styles?|config|configuration|settings|sections?|items?|entries|elements?|blocks?|text|html|markup|columns?|rows?|routes?|rules?|steps?|types?|variables?|values?|keys?|options?|exports?|declarations?|statements?|tags?|stuff)`

// omissionPhrases make a placeholder without an ellipsis. Each is anchored
// so that an ordinary comment that happens to use the words ("the rest of
// the tests use a helper") is not one. Compiled on first use, as
// omissionWord is.
var omissionPhrases = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		// "rest of the method", "rest of code", "rest of the file here"
		regexp.MustCompile(`^(the )?rest of (the |this |that |your |my )?(\w+ )?` + codeNoun + `( (here|omitted|unchanged|as before|as is|follows|goes here))?$`),
		// "rest of code remains the same", "lines 1-50 remain unchanged",
		// "previous content from line 1-305 remains exactly the same"
		regexp.MustCompile(`\b(remains?|remaining|stays?|is|are|kept|left)( exactly| completely| entirely)? (the same|unchanged|unmodified|untouched|as (before|is))$`),
		// "rest unchanged", "rest remains", "everything else unchanged"
		regexp.MustCompile(`^(the )?(rest|everything else|remainder)( of \w+( \w+)?)?( (is|are|stays?|remains?))? (unchanged|unmodified|the same|as before|omitted)$`),
		// "existing code", "other methods here", "unchanged code", "previous
		// imports", "code omitted for brevity"
		regexp.MustCompile(`^(\w+ )?(existing|previous|original|other|remaining|unchanged|unmodified|same) ` + codeNoun + `( (here|omitted|unchanged|as before|as is|go here|goes here|remain|remains|stay|stays))?$`),
		regexp.MustCompile(`^(\w+ )?` + codeNoun + ` (omitted|unchanged|elided|skipped)( for brevity| here)?$`),
		// "unchanged", "same as before", "as above"
		regexp.MustCompile(`^(unchanged|(the )?same as (before|above)|as (before|above))$`),
		// "keep the existing implementation", "keep original code"
		regexp.MustCompile(`^keep (the |all )?(existing|original|previous|current|other) ` + codeNoun + `( here| as is| unchanged)?$`),
		// "previous code remains here", "existing tests stay as is"
		regexp.MustCompile(`^(the )?(existing|previous|original|other) ` + codeNoun + ` (remains?|stays?|goes|go)( here| as is| unchanged)?$`),
	}
})
