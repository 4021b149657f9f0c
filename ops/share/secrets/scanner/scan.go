// Package scanner is the secret scan of `git edit push` itself: gitleaks'
// detector with its default rules over the blobs and messages a push would
// send. It runs in the companion program git-edit-secrets (Serve), never in
// git-edit, which asks it through package secrets: gitleaks and what it
// loads (hundreds of rules, viper, hcl, the file-type matchers) would
// otherwise cost every git-edit command milliseconds of start.
package scanner

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/git-edit/git-edit/ops/share/secrets"

	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/report"
)

// maxDecodeDepth is how many rounds of decoding (base64, hex, percent
// encoding) the detector undoes, as gitleaks' own command line does by default.
const maxDecodeDepth = 5

// detector builds gitleaks' detector with its default rules once per
// process, on first use: building it compiles hundreds of regular
// expressions. The detector is only read afterwards (Scan never calls
// AddFinding), so concurrent Scans may share it.
var detector = sync.OnceValues(func() (*detect.Detector, error) {
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		return nil, fmt.Errorf("secrets: build gitleaks detector: %w", err)
	}
	d.MaxDecodeDepth = maxDecodeDepth
	return d, nil
})

// Warm starts building the detector in the background, so that a caller
// that will Scan after slower work (asking a server what it has) does not
// wait for it then. Calling it more than once, or never, is fine.
func Warm() { go detector() }

// Scan returns the secrets in blobs and messages, in a stable order
// (session, commit, path, line, rule). Each blob is scanned whole, so that a
// key written over two edits is seen; a finding counts only when its line span
// meets an added line of that blob. Binary content is skipped, except UTF-16
// text (with BOM, or detectably UTF-16LE/BE), which is decoded first.
// Cancelled ctx ends it with ctx.Err().
//
// A blob's Path is given to the detector, so gitleaks' default path
// allowlist (go.sum, lock files, images, vendored code...) applies to it,
// and so do its rules on the path alone (a PKCS#12 file, .p12 or .pfx):
// such a finding is at line 1 and counts whatever Added says, binary
// content included, since the whole file is the secret. A non-nil, empty
// Added means the commit adds no line of the blob, so nothing else in it
// counts. Identical findings are reported once.
func Scan(ctx context.Context, blobs []secrets.Blob, messages []secrets.Message) ([]secrets.Finding, error) {
	found, _, err := scan(ctx, blobs, messages)
	return found, err
}

// scan is Scan that also counts what it went through, blob by blob and
// message by message, for the response (secrets.Scanned).
func scan(ctx context.Context, blobs []secrets.Blob, messages []secrets.Message) ([]secrets.Finding, secrets.Scanned, error) {
	var n secrets.Scanned
	if err := ctx.Err(); err != nil {
		return nil, n, err
	}
	d, err := detector()
	if err != nil {
		return nil, n, err
	}
	var out []secrets.Finding
	for _, b := range blobs {
		text, ok := textOf(b.Content)
		if !ok || b.Added != nil && len(b.Added) == 0 {
			text = "" // only rules on the path alone can match
		}
		found := d.DetectContext(ctx, detect.Fragment{
			Raw:       text,
			FilePath:  b.Path,
			CommitSHA: b.Commit,
			StartLine: 1,
		})
		if err := ctx.Err(); err != nil {
			return nil, n, err
		}
		n.Blobs++
		n.BlobBytes += int64(len(b.Content))
		for _, f := range found {
			if !meets(f, b.Added) {
				continue
			}
			out = append(out, newFinding(b.Session, b.Commit, b.Path, f))
		}
	}
	for _, m := range messages {
		found := d.DetectContext(ctx, detect.Fragment{
			Raw:       m.Text,
			CommitSHA: m.Commit,
			StartLine: 1,
		})
		if err := ctx.Err(); err != nil {
			return nil, n, err
		}
		n.Messages++
		n.MessageBytes += int64(len(m.Text))
		for _, f := range found {
			out = append(out, newFinding(m.Session, m.Commit, "", f))
		}
	}
	slices.SortFunc(out, compareFindings)
	return slices.Compact(out), n, nil
}

// textOf returns content as text to scan, and false for binary content.
// Content is binary, as git decides, when its first 8000 bytes hold a NUL;
// UTF-16 text (which holds NULs) is recognised first and decoded.
func textOf(content []byte) (string, bool) {
	head := content[:min(len(content), 8000)]
	if bytes.IndexByte(head, 0) < 0 && !hasUTF16BOM(content) {
		return string(content), true
	}
	return decodeUTF16(content)
}

// meets reports whether the finding's line span [StartLine, EndLine] meets
// one of added; nil added means every line is added. A finding without a
// line (a rule that matches the path alone) always counts.
func meets(f report.Finding, added []secrets.LineRange) bool {
	if added == nil || f.StartLine <= 0 {
		return true
	}
	last := max(f.EndLine, f.StartLine)
	for _, r := range added {
		if r.First <= last && f.StartLine <= r.Last {
			return true
		}
	}
	return false
}

// newFinding makes a Finding of gitleaks' finding f in path ("" for a
// commit message) of commit in session.
func newFinding(session, commit, path string, f report.Finding) secrets.Finding {
	line := max(f.StartLine, 1)
	return secrets.Finding{
		Session:     session,
		Commit:      commit,
		Path:        path,
		Line:        line,
		Rule:        f.RuleID,
		Description: f.Description,
		Fingerprint: fmt.Sprintf("%s:%s:%s:%d", commit, path, f.RuleID, line),
	}
}

// compareFindings orders findings by session, commit, path, line, rule,
// then description, so that equal findings end up next to each other.
func compareFindings(a, b secrets.Finding) int {
	return cmp.Or(
		cmp.Compare(a.Session, b.Session),
		cmp.Compare(a.Commit, b.Commit),
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Description, b.Description),
	)
}

// Serve answers one request of package secrets (the companion's protocol):
// it reads a secrets.Request, JSON, from r until its end, scans it, and
// writes a secrets.Response, JSON on one line, to w, with Version
// secrets.ProtocolVersion and what it scanned (Scanned). A request of
// another version (or none: an older git-edit) is answered with an Error
// saying the two programs differ and how to fix it, unscanned, even when
// it has fields this version does not know; a scan that fails is answered
// with its error. Input that is not a request (not JSON, not one object,
// a field unknown to a request of this version) is Serve's error, with
// nothing written. Empty input (the caller started the companion ahead of
// time, then had nothing to scan) is no request: Serve returns nil and
// writes nothing.
func Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	dec := json.NewDecoder(r)
	// A field this version does not know is a request it would not
	// understand: ignoring it could leave what it carries unscanned.
	dec.DisallowUnknownFields()
	var req secrets.Request
	err := dec.Decode(&req)
	if errors.Is(err, io.EOF) {
		return nil
	}
	// encoding/json reports an unknown field only once the rest is
	// decoded, Version included, and has no type for that error.
	unknownField := err != nil && strings.HasPrefix(err.Error(), "json: unknown field ")
	if err != nil && !(unknownField && req.Version != secrets.ProtocolVersion) {
		return fmt.Errorf("reading the request: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("reading the request: data after it")
	}
	resp := secrets.Response{Version: secrets.ProtocolVersion}
	if req.Version != secrets.ProtocolVersion {
		resp.Error = fmt.Sprintf("git-edit-secrets speaks protocol version %d, but was sent a request of version %d "+
			"(0: none, from an older git-edit), so it scanned nothing: %s", secrets.ProtocolVersion, req.Version, secrets.Reinstall)
	} else if found, n, err := scan(ctx, req.Blobs, req.Messages); err != nil {
		resp.Error = err.Error()
	} else {
		resp.Findings, resp.Scanned = found, n
	}
	if err := json.NewEncoder(w).Encode(resp); err != nil {
		return fmt.Errorf("writing the response: %w", err)
	}
	return nil
}
