package applypatch

import "strings"

// Summary is what a successful patch did, for the success text and result.
type Summary struct {
	// Added, Modified and Deleted list paths as the patch names them, in
	// patch order. A moved file is listed in Modified under its new path,
	// as Codex reports it, and in Moved.
	Added, Modified, Deleted []string
	// Moved lists the files an Update moved.
	Moved []Move
	// Forgiven are what the patch got wrong and was forgiven (a hunk
	// matched other than exactly, the patch read more loosely than Codex's
	// grammar) and the ambiguities resolved Codex's way, in patch order.
	Forgiven []Forgiven
}

// Matched are the Edit-Match trailer's entries: one per forgiveness.
func (s Summary) Matched() []string {
	var out []string
	for _, f := range s.Forgiven {
		if f.Trailer != "" {
			out = append(out, f.Trailer)
		}
	}
	return out
}

// Move is one file an Update moved.
type Move struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Text is Codex's success text: "Success. Updated the following files:"
// then one line per file, "A path" for each added, "M path" for each
// modified (a moved file under its new path), "D path" for each deleted,
// in that order, each line ended with "\n"; then, for each Forgiven, its
// sentence on a line of its own.
func (s Summary) Text() string {
	var sb strings.Builder
	sb.WriteString("Success. Updated the following files:\n")
	for _, group := range []struct {
		tag   string
		paths []string
	}{{"A", s.Added}, {"M", s.Modified}, {"D", s.Deleted}} {
		for _, p := range group.paths {
			sb.WriteString(group.tag + " " + p + "\n")
		}
	}
	for _, f := range s.Forgiven {
		sb.WriteString(f.Text + "\n")
	}
	return sb.String()
}

// Response is the result object of a successful call, for the CLI's
// one-JSON-object output; Output is Text, which is also what MCP shows.
type Response struct {
	Success  bool     `json:"success"`
	Output   string   `json:"output"`
	Added    []string `json:"added,omitempty"`
	Modified []string `json:"modified,omitempty"`
	Deleted  []string `json:"deleted,omitempty"`
	Moved    []Move   `json:"moved,omitempty"`
	// Commit is the session commit that recorded the patch; the caller
	// sets it.
	Commit string `json:"commit,omitempty"`
}

// Response returns the success result for s (without Commit).
func (s Summary) Response() Response {
	return Response{Success: true, Output: s.Text(), Added: s.Added, Modified: s.Modified, Deleted: s.Deleted, Moved: s.Moved}
}
