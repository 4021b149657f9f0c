// Package gitai reads and writes the Git AI Standard v3.0.0 authorship
// log: the note git-ai and other tools attach to a commit in
// refs/notes/ai, saying which lines of the commit's files AI sessions
// wrote. The format (spec: git-ai-project/git-ai, specs/git_ai_standard_v3.0.0.md):
//
//	src/main.rs
//	  s_c9883b05a2487d::t_9f8e7d6c5b4a32 1-10,15-20
//	  h_31dce776f88375 42-50
//	---
//	{ "schema_version": "authorship/3.0.0", "base_commit_sha": "…", "prompts": {}, "humans": {…}, "sessions": {…} }
//
// The attestation section names each file (quoted when it holds
// whitespace) and under it, indented by two spaces, one line per key with
// the line ranges it wrote; a line "---" divides it from the JSON metadata.
// Keys are s_<14hex>::t_<14hex> (a session and one of its checkpoints,
// looked up in sessions by the part before "::"), h_<14hex> (a known
// human, in humans) or a bare 16 (or 7) hex legacy key (in prompts).
package gitai

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// SchemaVersion is the metadata's schema_version this package writes and
// reads.
const SchemaVersion = "authorship/3.0.0"

// NotesRef is the ref the standard keeps authorship logs in.
const NotesRef = "refs/notes/ai"

// ErrFormat is wrapped by every error Parse returns: the text is not an
// authorship log of this version.
var ErrFormat = errors.New("not a git-ai authorship/3.0.0 note")

// Note is one authorship log.
type Note struct {
	Files []File
	Meta  Metadata
}

// File is one file's attestations, in the order the note lists them.
type File struct {
	Path    string
	Entries []Entry
}

// Entry is one attestation line: a key and the lines (1-based, in the
// file as the commit has it) it wrote.
type Entry struct {
	Key    string
	Ranges []Range
}

// Range is lines Start..End, inclusive (Start == End: one line).
type Range struct{ Start, End int }

// Metadata is the JSON after the divider. Field order is the standard's
// (and git-ai's serializer's): Render writes them in this order.
type Metadata struct {
	SchemaVersion string `json:"schema_version"`
	// GitAIVersion is the writing git-ai's version; optional, and left
	// out by writers that are not git-ai.
	GitAIVersion  string                   `json:"git_ai_version,omitempty"`
	BaseCommitSHA string                   `json:"base_commit_sha"`
	Prompts       map[string]Prompt        `json:"prompts"`
	Humans        map[string]Human         `json:"humans"`
	Sessions      map[string]SessionRecord `json:"sessions"`
}

// AgentID identifies the AI agent of a session or prompt.
type AgentID struct {
	Tool  string `json:"tool"`
	ID    string `json:"id"`
	Model string `json:"model"`
}

// SessionRecord is an entry of metadata.sessions.
type SessionRecord struct {
	AgentID          AgentID           `json:"agent_id"`
	HumanAuthor      string            `json:"human_author,omitempty"`
	CustomAttributes map[string]string `json:"custom_attributes,omitempty"`
}

// Human is an entry of metadata.humans.
type Human struct {
	Author string `json:"author"`
}

// Prompt is an entry of metadata.prompts (the legacy, pre-v1.4.0 keys).
type Prompt struct {
	AgentID          AgentID           `json:"agent_id"`
	HumanAuthor      string            `json:"human_author,omitempty"`
	MessagesURL      string            `json:"messages_url,omitempty"`
	TotalAdditions   int               `json:"total_additions"`
	TotalDeletions   int               `json:"total_deletions"`
	AcceptedLines    int               `json:"accepted_lines"`
	OverridenLines   int               `json:"overriden_lines"`
	CustomAttributes map[string]string `json:"custom_attributes,omitempty"`
}

// SessionKey is the standard's session id of a conversation of a tool:
// "s_" and the first 14 hex digits of SHA-256("<tool>:<conversation>").
func SessionKey(tool, conversation string) string {
	sum := sha256.Sum256([]byte(tool + ":" + conversation))
	return "s_" + hex.EncodeToString(sum[:])[:14]
}

// HumanKey is the standard's key of a known human: "h_" and the first 14
// hex digits of SHA-256 of the identity ("Name <email>").
func HumanKey(identity string) string {
	sum := sha256.Sum256([]byte(identity))
	return "h_" + hex.EncodeToString(sum[:])[:14]
}

// Ranges makes the ranges of lines (any order, duplicates allowed):
// sorted, consecutive lines joined.
func Ranges(lines []int) []Range {
	ls := slices.Clone(lines)
	slices.Sort(ls)
	ls = slices.Compact(ls)
	var out []Range
	for _, n := range ls {
		if k := len(out); k > 0 && out[k-1].End == n-1 {
			out[k-1].End = n
			continue
		}
		out = append(out, Range{n, n})
	}
	return out
}

// FormatRanges writes ranges as the standard does: "1-3,7".
func FormatRanges(rs []Range) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		if r.Start == r.End {
			parts[i] = strconv.Itoa(r.Start)
		} else {
			parts[i] = strconv.Itoa(r.Start) + "-" + strconv.Itoa(r.End)
		}
	}
	return strings.Join(parts, ",")
}

// ParseRanges reads "1-3,7": positive line numbers, each range's start
// at most its end.
func ParseRanges(s string) ([]Range, error) {
	if s == "" {
		return nil, fmt.Errorf("%w: empty line ranges", ErrFormat)
	}
	var out []Range
	for _, part := range strings.Split(s, ",") {
		a, b, isRange := strings.Cut(part, "-")
		start, err1 := strconv.Atoi(a)
		end, err2 := start, error(nil)
		if isRange {
			end, err2 = strconv.Atoi(b)
		}
		if err1 != nil || err2 != nil || start < 1 || end < start || strings.ContainsAny(part, "+ ") {
			return nil, fmt.Errorf("%w: line range %q", ErrFormat, part)
		}
		out = append(out, Range{start, end})
	}
	return out, nil
}

// Contains reports whether line is in one of rs.
func Contains(rs []Range, line int) bool {
	for _, r := range rs {
		if r.Start <= line && line <= r.End {
			return true
		}
	}
	return false
}

// Writable reports whether the attestation section can name path: the
// standard quotes a path holding whitespace but has no escape, so a path
// that holds whitespace and a quote, or a newline, cannot be read back.
func Writable(path string) bool {
	return path != "" && !strings.Contains(path, "\n") && !(needsQuoting(path) && strings.Contains(path, `"`))
}

// needsQuoting: the standard quotes a path holding whitespace.
func needsQuoting(p string) bool { return strings.ContainsFunc(p, unicode.IsSpace) }

// Render writes the note: the attestation section, "---", the metadata
// as JSON indented by two spaces (as git-ai's serde_json pretty printer
// writes it, "<" and ">" unescaped), and a final newline (git notes adds
// one). Nil maps are written as {}.
func (n Note) Render() (string, error) {
	var b strings.Builder
	for _, f := range n.Files {
		if !Writable(f.Path) {
			// The standard has no escape for a quote inside quotes, and
			// a newline would end the line: such a path cannot be written.
			return "", fmt.Errorf("%w: path %q cannot be written in an attestation section", ErrFormat, f.Path)
		}
		if needsQuoting(f.Path) {
			b.WriteString(`"` + f.Path + `"`)
		} else {
			b.WriteString(f.Path)
		}
		b.WriteByte('\n')
		for _, e := range f.Entries {
			fmt.Fprintf(&b, "  %s %s\n", e.Key, FormatRanges(e.Ranges))
		}
	}
	b.WriteString("---\n")
	m := n.Meta
	if m.Prompts == nil {
		m.Prompts = map[string]Prompt{}
	}
	if m.Humans == nil {
		m.Humans = map[string]Human{}
	}
	if m.Sessions == nil {
		m.Sessions = map[string]SessionRecord{}
	}
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return "", err
	}
	b.Write(js.Bytes())
	return b.String(), nil
}

// Parse reads a note as git-ai's parser does: the first line that is
// exactly "---" divides the sections; before it, a line not starting with
// a space names a file (quotes around it removed), a line starting with
// two spaces is "<key> <ranges>" of the file above; after it, JSON whose
// schema_version must be authorship/3.0.0. Blank lines are skipped. Every
// error wraps ErrFormat.
func Parse(text string) (Note, error) {
	var n Note
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	div := slices.Index(lines, "---")
	if div < 0 {
		return n, fmt.Errorf("%w: no divider line \"---\"", ErrFormat)
	}
	for i, line := range lines[:div] {
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "  "):
			if len(n.Files) == 0 {
				return n, fmt.Errorf("%w: line %d: an attestation before any file path", ErrFormat, i+1)
			}
			key, ranges, ok := strings.Cut(strings.TrimPrefix(line, "  "), " ")
			if !ok || key == "" {
				return n, fmt.Errorf("%w: line %d: %q is not \"<key> <line ranges>\"", ErrFormat, i+1, line)
			}
			rs, err := ParseRanges(ranges)
			if err != nil {
				return n, fmt.Errorf("line %d: %w", i+1, err)
			}
			f := &n.Files[len(n.Files)-1]
			f.Entries = append(f.Entries, Entry{Key: key, Ranges: rs})
		case strings.HasPrefix(line, " "), strings.HasPrefix(line, "\t"):
			return n, fmt.Errorf("%w: line %d: %q is indented, but not by two spaces", ErrFormat, i+1, line)
		default:
			p := line
			if len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' {
				p = p[1 : len(p)-1]
			}
			n.Files = append(n.Files, File{Path: p})
		}
	}
	dec := json.NewDecoder(strings.NewReader(strings.Join(lines[div+1:], "\n")))
	if err := dec.Decode(&n.Meta); err != nil {
		return n, fmt.Errorf("%w: metadata: %v", ErrFormat, err)
	}
	if n.Meta.SchemaVersion != SchemaVersion {
		return n, fmt.Errorf("%w: schema_version %q", ErrFormat, n.Meta.SchemaVersion)
	}
	return n, nil
}

// Author is who a key of a note names.
type Author struct {
	// Key is the attestation key as the note has it.
	Key string
	// Human is true for an h_ key (a known human author); otherwise the
	// key is an AI session's (s_) or a legacy prompt's.
	Human bool
	// Session is the session id (s_…) or the legacy key; for a human, the
	// human key.
	Session string
	// Agent is the session's or prompt's agent_id; HumanAuthor the
	// human's identity (for an h_ key, the record's author).
	Agent       AgentID
	HumanAuthor string
	// Known is false when the metadata has no record for the key.
	Known bool
}

// Resolve looks key up in the metadata map its prefix routes it to.
func (m Metadata) Resolve(key string) Author {
	a := Author{Key: key, Session: key}
	switch {
	case strings.HasPrefix(key, "s_"):
		a.Session, _, _ = strings.Cut(key, "::")
		rec, ok := m.Sessions[a.Session]
		a.Agent, a.HumanAuthor, a.Known = rec.AgentID, rec.HumanAuthor, ok
	case strings.HasPrefix(key, "h_"):
		rec, ok := m.Humans[key]
		a.Human, a.HumanAuthor, a.Known = true, rec.Author, ok
	default:
		rec, ok := m.Prompts[key]
		a.Agent, a.HumanAuthor, a.Known = rec.AgentID, rec.HumanAuthor, ok
	}
	return a
}

// LineAuthors is, for path, who the note says wrote each line it
// attests, up to line maxLine (the file's length: a note from elsewhere
// may name any range): line number to author. Where entries overlap, the
// later entry wins, as git-ai's blame reads them.
func (n Note) LineAuthors(path string, maxLine int) map[int]Author {
	out := map[int]Author{}
	for _, f := range n.Files {
		if f.Path != path {
			continue
		}
		for _, e := range f.Entries {
			a := n.Meta.Resolve(e.Key)
			for _, r := range e.Ranges {
				for l := r.Start; l <= min(r.End, maxLine); l++ {
					out[l] = a
				}
			}
		}
	}
	return out
}
