package applypatch

import (
	"encoding/json"
	"errors"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/jsonargs"
	"github.com/git-edit/git-edit/ops/match"
)

// Sentinels a Failure unwraps to, for callers that branch with errors.Is.
var (
	// ErrInvalidArgs: the JSON arguments are malformed. It is
	// jsonargs.ErrInvalid, shared by every dialect.
	ErrInvalidArgs = jsonargs.ErrInvalid
	// ErrInvalidPatch: the patch text does not follow the format, or has
	// no file operation.
	ErrInvalidPatch = errors.New("invalid patch")
	// ErrSamePath: two operations of the patch name one file.
	ErrSamePath = errors.New("one file in two operations")
	// ErrNoMatch: a hunk's lines, or its "@@" header, are not in the file.
	ErrNoMatch = errors.New("hunk does not match")
	// ErrOverlap: a hunk found before the previous hunk's lines (hunks out
	// of file order) overlaps a hunk already placed.
	ErrOverlap = errors.New("hunks overlap")
	// ErrFileNotFound: an Update or Delete names a file that does not exist.
	ErrFileNotFound = dialect.ErrFileNotFound
	// ErrFileExists: an Add or a Move to names a file that already exists.
	ErrFileExists = errors.New("file already exists")
	// ErrOmission: a hunk adds a placeholder line ("// ... rest of the
	// method ...") standing for code it deletes. It is match.ErrOmission,
	// shared by every dialect.
	ErrOmission = match.ErrOmission
	// ErrBinary: an Update names a file that is not text (text.IsBinary).
	ErrBinary = dialect.ErrBinary
)

// Failure is every refusal of this package. Message is the whole text an
// agent reads (over MCP, the text content): what was wrong, worded as
// Codex words it where Codex has a text, and what to do next. The other
// fields locate it for a structured result; each is empty when it does
// not apply.
type Failure struct {
	Message string
	// Path is the file concerned, as the patch names it.
	Path string
	// Hunk is the 1-based index of the failing hunk within its file's
	// "*** Update File" section.
	Hunk int
	// Lines are the lines that were not found: the hunk's context and
	// removed lines, or its "@@" header.
	Lines []string
	// PatchLine is the 1-based line of the patch text where a parse error
	// was found.
	PatchLine int
	// Err is what the failure wraps: one of the sentinels above, or for
	// arguments the jsonargs error (which wraps ErrInvalidArgs).
	Err error
}

// Error returns Message.
func (f *Failure) Error() string { return f.Message }

// Unwrap returns Err.
func (f *Failure) Unwrap() error { return f.Err }

// failureJSON is the result object of a refused call.
type failureJSON struct {
	Success   bool     `json:"success"`
	Error     string   `json:"error"`
	Path      string   `json:"path,omitempty"`
	Hunk      int      `json:"hunk,omitempty"`
	Lines     []string `json:"lines,omitempty"`
	PatchLine int      `json:"patch_line,omitempty"`
}

// MarshalJSON gives the refusal's result object for the CLI's one-JSON-
// object output: {"success": false, "error": Message, "path", "hunk",
// "lines", "patch_line"}, the last four only when set.
func (f *Failure) MarshalJSON() ([]byte, error) {
	return json.Marshal(failureJSON{Error: f.Message, Path: f.Path, Hunk: f.Hunk, Lines: f.Lines, PatchLine: f.PatchLine})
}
