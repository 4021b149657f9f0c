package ops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/git-edit/git-edit/undo"
	"github.com/git-edit/git-edit/undo/gitai"
)

// AgentTraceVersion is the version Agent Trace records carry: the
// specification's 0.1.0 as MAJOR.MINOR, the form its published JSON
// schema accepts (^[0-9]+\.[0-9]+$).
const AgentTraceVersion = "0.1"

// TraceRecord is an Agent Trace record (https://agent-trace.dev, schema
// trace-record.json): what one commit added, file by file, grouped by who
// wrote it.
type TraceRecord struct {
	Version   string      `json:"version"`
	ID        string      `json:"id"`
	Timestamp string      `json:"timestamp"`
	VCS       TraceVCS    `json:"vcs"`
	Tool      TraceTool   `json:"tool"`
	Files     []TraceFile `json:"files"`
	// Metadata holds git-edit's own data under "dev.git-edit": the
	// session of each conversation, in the order of the files' and
	// conversations' appearance.
	Metadata map[string]any `json:"metadata,omitempty"`
}

// TraceVCS is a record's vcs: type "git", revision the commit's id.
type TraceVCS struct {
	Type     string `json:"type"`
	Revision string `json:"revision"`
}

// TraceTool is the tool that made the record: git-edit and its version.
type TraceTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// TraceFile is one file's conversations.
type TraceFile struct {
	Path          string              `json:"path"`
	Conversations []TraceConversation `json:"conversations"`
}

// TraceConversation is the lines one contributor wrote: an agent session
// (type "ai", model_id its Edit-Model when known) or the person ("human").
type TraceConversation struct {
	Contributor TraceContributor `json:"contributor"`
	Ranges      []TraceRange     `json:"ranges"`
}

// TraceContributor is a conversation's contributor.
type TraceContributor struct {
	Type    string `json:"type"`
	ModelID string `json:"model_id,omitempty"`
}

// TraceRange is lines StartLine..EndLine of the file at the commit, and
// the hash of their content: "sha256:" and the hex SHA-256 of the lines,
// each ended by "\n" (line endings as git stores the file).
type TraceRange struct {
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"`
	ContentHash string `json:"content_hash"`
}

// AgentTrace builds the Agent Trace record of each commit of spec (REV or
// A..B; see undo.AttributeCommits): per file the commit added lines to,
// one conversation per agent session that wrote some of them and one for
// the person's, each with the ranges of its lines. The id is a UUID
// (version 8) derived from the commit's id, so the record of a commit has
// the same id each time it is made; the timestamp is the commit's, in
// UTC. toolVersion is git-edit's version. Nothing is written.
func (e *Engine) AgentTrace(ctx context.Context, spec, toolVersion string) ([]TraceRecord, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	commits, err := undo.AttributeCommits(ctx, e.Repo, spec, nil)
	if err != nil {
		return nil, e.timedOut("agent trace", err)
	}
	var out []TraceRecord
	for _, c := range commits {
		rec := TraceRecord{
			Version:   AgentTraceVersion,
			ID:        traceID(c.Commit.String()),
			Timestamp: c.Time.UTC().Format(time.RFC3339),
			VCS:       TraceVCS{Type: "git", Revision: c.Commit.String()},
			Tool:      TraceTool{Name: "git-edit", Version: toolVersion},
			Files:     []TraceFile{},
		}
		var sessions []string // per conversation, in order
		for _, f := range c.Files {
			tf := TraceFile{Path: f.Path}
			byWho := map[string][]undo.LineOrigin{}
			var order []string
			for _, l := range f.Lines {
				who := "" // the person
				if l.Agent {
					who = "s:" + l.Session
				}
				if _, ok := byWho[who]; !ok {
					order = append(order, who)
				}
				byWho[who] = append(byWho[who], l)
			}
			for _, who := range order {
				lines := byWho[who]
				conv := TraceConversation{Contributor: TraceContributor{Type: "human"}}
				if who != "" {
					conv.Contributor.Type = "ai"
					newest := lines[0]
					for _, l := range lines {
						if e.newerLine(l, newest) {
							newest = l
						}
					}
					conv.Contributor.ModelID = newest.Model
				}
				conv.Ranges = traceRanges(lines)
				tf.Conversations = append(tf.Conversations, conv)
				sessions = append(sessions, strings.TrimPrefix(who, "s:"))
			}
			rec.Files = append(rec.Files, tf)
		}
		if len(sessions) > 0 {
			rec.Metadata = map[string]any{"dev.git-edit": map[string]any{"sessions": sessions}}
		}
		out = append(out, rec)
	}
	return out, nil
}

// traceRanges groups lines (in line order) into ranges of consecutive
// lines, each with its content hash.
func traceRanges(lines []undo.LineOrigin) []TraceRange {
	var nums []int
	text := map[int]string{}
	for _, l := range lines {
		nums = append(nums, l.Line)
		text[l.Line] = l.Text
	}
	var out []TraceRange
	for _, r := range gitai.Ranges(nums) {
		h := sha256.New()
		for n := r.Start; n <= r.End; n++ {
			h.Write([]byte(text[n] + "\n"))
		}
		out = append(out, TraceRange{StartLine: r.Start, EndLine: r.End, ContentHash: "sha256:" + hex.EncodeToString(h.Sum(nil))})
	}
	return out
}

// traceID is a UUID of version 8 (RFC 9562's custom layout) made of the
// SHA-256 of the commit's id: the same commit, the same id.
func traceID(commit string) string {
	sum := sha256.Sum256([]byte("git-edit agent-trace " + commit))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x80 // version 8
	b[8] = b[8]&0x3f | 0x80 // variant 10
	h := hex.EncodeToString(b)
	return fmt.Sprintf("%s-%s-%s-%s-%s", h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])
}
