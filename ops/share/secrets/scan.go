package secrets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"

	"github.com/git-edit/git-edit/ops/companion"
)

// Blob is one file version a push would send: the session and commit that
// add it, the path, its content as stored, and the lines of it the commit
// adds (1-based, inclusive ranges, from `git diff-tree -p -U0` hunk headers).
// Added nil means every line is new (a file the commit creates).
type Blob struct {
	Session, Commit, Path string
	Content               []byte
	Added                 []LineRange
}

// LineRange is a 1-based, inclusive range of lines.
type LineRange struct{ First, Last int }

// Message is a commit message a push would send (agents' shell commands end up there).
type Message struct{ Session, Commit, Text string }

// Finding is one secret found. Path is "" for a finding in a commit message;
// Line is 1-based in the file (or the message). Fingerprint is
// "<commit>:<path>:<rule>:<line>" for a file and "<commit>::<rule>:<line>" for a message;
// it is what --allow-secret takes.
type Finding struct {
	Session, Commit, Path string
	Line                  int
	Rule, Description     string
	Fingerprint           string
}

// Request is what Scan writes, as JSON, to the standard input of the
// companion git-edit-secrets, which then reads it to its end.
type Request struct {
	Blobs    []Blob
	Messages []Message
}

// Response is the companion's answer on its standard output: the findings
// (Scan's result), or Error, the message of a scan that failed.
type Response struct {
	Findings []Finding `json:",omitempty"`
	Error    string    `json:",omitempty"`
}

// warm is a companion started ahead of its request by Warm, not yet taken
// by a Scan; nil when there is none.
var (
	warmMu sync.Mutex
	warm   *process
)

// process is a running git-edit-secrets waiting for its request.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout bytes.Buffer
	stderr bytes.Buffer
}

// start starts the companion, which begins building its detector at once.
func start() (*process, error) {
	path, err := companion.Find(companion.Secrets)
	if err != nil {
		return nil, fmt.Errorf("the secret scan before a push runs in a program of its own: %w", err)
	}
	p := &process{cmd: exec.Command(path)}
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("%s: %w", companion.Secrets, err)
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return p, nil
}

// Warm starts the companion git-edit-secrets in the background, where it
// builds gitleaks' detector (hundreds of regular expressions), so that a
// caller that will Scan after slower work (asking a server what it has) does
// not wait for it then. One started companion is kept for the next Scan;
// calling Warm again while it waits does nothing. A companion no Scan takes
// ends when this process does (its standard input closes). Calling Warm
// never is fine; a companion that cannot be started is Scan's to report.
func Warm() {
	warmMu.Lock()
	defer warmMu.Unlock()
	if warm != nil {
		return
	}
	if p, err := start(); err == nil {
		warm = p
	}
}

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
//
// The scan runs in the companion program git-edit-secrets (see package
// companion for where it is found; package scanner is the scan itself),
// which takes the request as JSON on its standard input and answers on its
// standard output. Without the companion Scan fails, saying which program
// is missing and how to install it: a push is never sent unchecked.
func Scan(ctx context.Context, blobs []Blob, messages []Message) ([]Finding, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	warmMu.Lock()
	p := warm
	warm = nil
	warmMu.Unlock()
	if p == nil {
		var err error
		if p, err = start(); err != nil {
			return nil, err
		}
	}
	stop := context.AfterFunc(ctx, func() { p.cmd.Process.Kill() })
	defer stop()
	req, err := json.Marshal(Request{Blobs: blobs, Messages: messages})
	if err != nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
		return nil, fmt.Errorf("%s: encoding the request: %w", companion.Secrets, err)
	}
	// The companion reads the whole request before it writes anything,
	// so writing it all, then waiting, cannot deadlock.
	_, werr := p.stdin.Write(req)
	cerr := p.stdin.Close()
	err = p.cmd.Wait()
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, ctxErr
	}
	if err != nil {
		return nil, fmt.Errorf("%s failed: %w%s", p.cmd.Path, err, said(&p.stderr))
	}
	if werr != nil || cerr != nil {
		return nil, fmt.Errorf("%s: writing the request: %w", p.cmd.Path, errors.Join(werr, cerr))
	}
	var resp Response
	if err := json.Unmarshal(p.stdout.Bytes(), &resp); err != nil {
		return nil, fmt.Errorf("%s answered what is not a response: %w%s", p.cmd.Path, err, said(&p.stderr))
	}
	if resp.Error != "" {
		return nil, errors.New(resp.Error)
	}
	return resp.Findings, nil
}

// said is what the companion wrote on its standard error, as the end of a
// message ("" when it wrote nothing).
func said(stderr *bytes.Buffer) string {
	if s := strings.TrimSpace(stderr.String()); s != "" {
		return ": " + s
	}
	return ""
}
