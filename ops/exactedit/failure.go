package exactedit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/jsonargs"
	"github.com/git-edit/git-edit/ops/match"
)

// Tool names (CLI and MCP).
const (
	ToolEdit      = "Edit"
	ToolMultiEdit = "MultiEdit"
	ToolRead      = "Read"
)

// The "error" texts of Failure.Message. The first four are the seed's own.
const (
	MsgNotFound       = "String not found in file"
	MsgMultiple       = "Multiple matches found"
	MsgNotRead        = "File must be read before editing"
	MsgIdentical      = "old_string and new_string are identical"
	MsgModified       = "File has been modified since it was read"
	MsgFileNotFound   = "File not found"
	MsgEmptyOldString = "old_string is empty"
	MsgInvalidArgs    = "Invalid arguments"
	MsgOffsetPastEnd  = "Offset is past the end of the file"
	MsgCountMismatch  = "Wrong number of occurrences"
	MsgOverlap        = "Edits overlap"
	MsgOmission       = "new_string omits code with a placeholder"
)

// Sentinels a Failure unwraps to (its Err), for callers that branch with
// errors.Is.
var (
	// ErrInvalidArgs: the arguments are malformed (MsgInvalidArgs). It is
	// jsonargs.ErrInvalid, shared by every dialect.
	ErrInvalidArgs = jsonargs.ErrInvalid
	// ErrNotFound: old_string does not occur in the file.
	ErrNotFound = errors.New("old_string not found")
	// ErrAmbiguous: old_string occurs more than once and replace_all is false.
	ErrAmbiguous = errors.New("old_string is not unique")
	// ErrCountMismatch: old_string occurs a number of times other than
	// expected_replacements.
	ErrCountMismatch = errors.New("old_string occurs other than the expected number of times")
	// ErrOverlap: a MultiEdit edit's place overlaps text an earlier edit
	// of the same call wrote.
	ErrOverlap = errors.New("MultiEdit edits overlap")
	// ErrIdentical: old_string equals new_string.
	ErrIdentical = errors.New("old_string and new_string are identical")
	// ErrEmptyOldString: old_string is "".
	ErrEmptyOldString = errors.New("old_string is empty")
	// ErrNotRead: the file was not read in this session before an edit.
	ErrNotRead = errors.New("file not read before editing")
	// ErrModified: the file changed after it was last read.
	ErrModified = errors.New("file modified since it was read")
	// ErrFileNotFound: no file at file_path.
	ErrFileNotFound = dialect.ErrFileNotFound
	// ErrOmission: new_string has a placeholder line ("// ... rest of the
	// method ...") standing for code the edit would delete. It is
	// match.ErrOmission, shared by every dialect.
	ErrOmission = match.ErrOmission
	// ErrOutOfRange: Read's offset is past the file's last line.
	ErrOutOfRange = errors.New("offset out of range")
)

// Failure is a refusal in the seed's shape, {"error": ..., "details": ...}.
// Marshal it as the tool's result. Its Go field is Message, not Error,
// because a type cannot have both a field and a method named Error.
type Failure struct {
	Message string `json:"error"`
	Details string `json:"details"`
	// Err is what the failure wraps for errors.Is: one of the sentinels
	// above, or for MsgInvalidArgs the jsonargs error (which wraps
	// ErrInvalidArgs).
	Err error `json:"-"`
	// tail is the end of Details that stays last when sentences are added
	// (the closest lines of a failed search, several lines long).
	tail string
}

// Error returns "Message: Details", for logs and plain-text output.
func (f *Failure) Error() string {
	if f.Details == "" {
		return f.Message
	}
	return f.Message + ": " + f.Details
}

// Unwrap returns Err.
func (f *Failure) Unwrap() error { return f.Err }

// NotRead is the refusal of an edit to path before any Read of it. Details
// start with the seed's text.
func NotRead(path string) *Failure {
	return &Failure{Message: MsgNotRead, Err: ErrNotRead,
		Details: fmt.Sprintf("Use Read tool on file before attempting edits: Read %s first, then send the edit with old_string copied from what Read shows", path)}
}

// ModifiedSinceRead is the refusal of an edit to path whose content changed
// after the agent last read it.
func ModifiedSinceRead(path string) *Failure {
	return &Failure{Message: MsgModified, Err: ErrModified,
		Details: fmt.Sprintf("%s changed after your last Read of it; read it again, then send the edit with old_string copied from the new content", path)}
}

// FileNotFound is the refusal of an Edit, MultiEdit or Read of a path where
// no file exists.
func FileNotFound(path string) *Failure {
	return &Failure{Message: MsgFileNotFound, Err: ErrFileNotFound,
		Details: fmt.Sprintf("There is no file at %s; check file_path, or, to create the file, send an empty old_string with the whole text as new_string", path)}
}

// InvalidArguments wraps a jsonargs refusal (or any error wrapping
// ErrInvalidArgs) as a Failure whose Details are its message without the
// "invalid arguments: " prefix, which Message already says.
func InvalidArguments(err error) *Failure {
	return &Failure{Message: MsgInvalidArgs, Details: strings.TrimPrefix(err.Error(), ErrInvalidArgs.Error()+": "), Err: err}
}

// invalid is InvalidArguments of a jsonargs.Invalid message.
func invalid(format string, args ...any) *Failure {
	return InvalidArguments(jsonargs.Invalid(format, args...))
}
